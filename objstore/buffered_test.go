package objstore_test

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/objstore"
	"github.com/obskit/obskit/shard"
)

// countingStore counts the ReadAt calls of its objects.
type countingStore struct {
	shard.Store
	reads *int
}

func (s countingStore) Open(name string) (shard.Object, error) {
	o, err := s.Store.Open(name)
	return countingObject{o, s.reads}, err
}

type countingObject struct {
	shard.Object
	reads *int
}

func (o countingObject) ReadAt(p []byte, off int64) (int, error) {
	*o.reads++
	return o.Object.ReadAt(p, off)
}

// TestBuffered: an object streamed in reads of 1 to 300 bytes through
// chunks of 16 KiB gives its bytes with one read of the store per chunk;
// random reads, reads across the end and past it follow io.ReaderAt.
func TestBuffered(t *testing.T) {
	dir := shard.Dir(t.TempDir())
	data := randomBytes(4, 100_000)
	put(t, dir, "o", data)
	reads := 0
	o, err := objstore.Buffered(countingStore{dir, &reads}, 16<<10).Open("o")
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	var got []byte
	r := rand.New(rand.NewPCG(1, 1))
	for off := 0; off < len(data); {
		p := make([]byte, 1+r.IntN(300))
		n, err := o.ReadAt(p, int64(off))
		if err != nil && !(err == io.EOF && off+n == len(data)) {
			t.Fatalf("ReadAt(%d bytes at %d): %d, %v", len(p), off, n, err)
		}
		got = append(got, p[:n]...)
		off += n
	}
	if !bytes.Equal(got, data) {
		t.Fatal("streamed bytes differ")
	}
	if want := (len(data) + 16<<10 - 1) / (16 << 10); reads != want {
		t.Fatalf("%d reads of the store, want %d (one per chunk)", reads, want)
	}
	for range 100 {
		off := r.IntN(len(data) + 10)
		p := make([]byte, r.IntN(40_000))
		n, err := o.ReadAt(p, int64(off))
		want := max(0, min(len(p), len(data)-off))
		if n != want || (n < len(p)) != (err == io.EOF) || (n == len(p) && err != nil) || !bytes.Equal(p[:n], data[min(off, len(data)):min(off, len(data))+n]) {
			t.Fatalf("ReadAt(%d bytes at %d) = %d, %v; want %d", len(p), off, n, err, want)
		}
	}
}
