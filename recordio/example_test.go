package recordio_test

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/obskit/obskit/recordio"
)

// Write writes records and returns their offsets, the index MXNet's
// MXIndexedRecordIO writes beside them.
func ExampleWriter() {
	var rec, idx bytes.Buffer
	w := recordio.NewWriter(&rec)
	var ix recordio.Index
	for k := range 3 {
		off, err := w.Write(fmt.Appendf(nil, "record_%d", k))
		if err != nil {
			log.Fatal(err)
		}
		ix = append(ix, recordio.Entry{Key: int64(k), Offset: off})
	}
	if _, err := ix.WriteTo(&idx); err != nil {
		log.Fatal(err)
	}
	fmt.Println(rec.Len(), "bytes")
	fmt.Print(idx.String())
	// Output:
	// 48 bytes
	// 0	0
	// 1	16
	// 2	32
}

// Open maps a .rec file with its index; records are found by key.
func ExampleOpen() {
	f, err := recordio.Open("testdata/raw.rec", recordio.IndexPath("testdata/raw.rec"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(f.Nobs(), "records")
	i, ok := f.Find(3)
	fmt.Printf("key 3: record %d at offset %d: %q %v\n", i, f.Offset(i), f.GetObs(i), ok)
	batch := f.GetObsInto(nil, []int{1, 10})
	fmt.Printf("%q\n", batch)
	// Output:
	// 17 records
	// key 3: record 3 at offset 48: "record_3" true
	// ["record_1" "abcd\n#\xd7\xceefgh\n#\xd7\xce"]
}

// A Reader scans a stream in order, without an index.
func ExampleReader() {
	in, err := os.Open("testdata/raw.rec")
	if err != nil {
		log.Fatal(err)
	}
	defer in.Close()
	r := recordio.NewReader(in)
	n, size := 0, 0
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		n++
		size += len(rec)
	}
	fmt.Println(n, "records,", size, "bytes of payload")
	// Output:
	// 17 records, 3123 bytes of payload
}

// Pack and Unpack build and split MXNet's image records: a header, labels and
// the encoded image.
func ExampleUnpack() {
	jpeg := []byte("\xff\xd8...")
	one := recordio.Pack(nil, recordio.Header{Label: 3, ID: 7}, nil, jpeg)
	multi := recordio.Pack(nil, recordio.Header{ID: 8}, []float32{1, 0.5}, jpeg)
	for _, rec := range [][]byte{one, multi} {
		h, labels, img, err := recordio.Unpack(rec, nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("flag %d id %d labels %v image %q\n", h.Flag, h.ID, labels, img)
	}
	// Output:
	// flag 0 id 7 labels [3] image "\xff\xd8..."
	// flag 2 id 8 labels [1 0.5] image "\xff\xd8..."
}

// AppendObs reads records into one reused buffer and returns an error, where
// GetObs panics, naming the file, the record and its offset; Where names a
// record the same way for messages of the caller's own.
func ExampleFile_AppendObs() {
	f, err := recordio.Open("testdata/raw.rec", "")
	if err != nil {
		log.Fatal(err)
	}
	var buf []byte
	for i := range 3 {
		if buf, err = f.AppendObs(buf[:0], i); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %q\n", f.Where(i), buf)
	}
	// Output:
	// testdata/raw.rec: record of key 0 at offset 0: "record_0"
	// testdata/raw.rec: record of key 1 at offset 16: "record_1"
	// testdata/raw.rec: record of key 2 at offset 32: "record_2"
}
