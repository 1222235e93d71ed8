package arrowipc_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/obskit/obskit/columnar/arrowipc"
	"github.com/obskit/obskit/columnar/internal/arrowtest"
	"github.com/obskit/obskit/columnar/internal/columnartest"
	"github.com/obskit/obskit/columnar/internal/interop"
)

// kitFiles are small tables of the kit's writer: 100 rows of a float32
// column x and an int64 column y in 2 record batches, in the file format
// uncompressed and in the stream format with ZSTD buffers; and the spans of
// their bytes whose every bit TestDamagedMetadata flips: the file's magic and
// schema (its first 224 bytes), its first record batch's header (bytes 256 to
// 456) and its footer (the last 300), and the first buffers of the stream's
// first batch (bytes 512 to 640: the frame header of each and its length
// prefix), whose messages are the file's.
var kitFiles = []struct {
	name  string
	data  []byte
	spans [][2]int
}{
	{"file", arrowtest.Write(table(100, 1), arrowtest.Options{Batch: 50, Codec: arrowtest.None}), [][2]int{{0, 224}, {256, 456}, {-300, 0}}},
	{"zstd stream", arrowtest.Write(table(100, 1), arrowtest.Options{Batch: 50, Codec: arrowtest.ZSTD, Stream: true}), [][2]int{{512, 640}}},
}

// spansOf returns spans whose ends count from the end of data when they
// are not positive.
func spansOf(data []byte, spans [][2]int) [][2]int {
	var out [][2]int
	for _, s := range spans {
		if s[1] <= 0 {
			s = [2]int{len(data) + s[0], len(data) + s[1]}
		}
		out = append(out, s)
	}
	return out
}

// TestDamagedMetadata flips every bit of the metadata of the kit's small
// files (the schema, the first record batch's header and its first buffers'
// frame headers, the footer), one at a time: Open either succeeds or returns
// an error wrapping ErrFormat or ErrUnsupported, naming the file; every read
// of what opened succeeds or fails with the package's errors; and no trial
// allocates more than 64 times the file's size (and 16 MiB for the decoders'
// buffers). Before the checks at Open, bit 2 of the fifth byte of a batch's
// length made 17,179,869,434 rows of 250, which Valid allocated, and a bit of
// a ZSTD frame's header made DecodeAll allocate the content size it declared,
// up to 1 GiB (the "1 GB" flip).
func TestDamagedMetadata(t *testing.T) {
	for _, kf := range kitFiles {
		columnartest.Damage(t, reader, kf.name+".arrow", len(kf.data), interop.Flips(kf.data, spansOf(kf.data, kf.spans)...))
	}
}

// TestBatchLengthFlip: in a file of 1000 rows in batches of 250, bit 2 of the
// fifth byte of the first record batch's length, which makes it 2^34+250
// rows: an error at Open naming the batch and the column whose 250 rows
// disagree (Open accepted it, and Valid allocated a []bool of 17,179,870,184).
func TestBatchLengthFlip(t *testing.T) {
	data := arrowtest.Write(table(1000, 1), arrowtest.Options{Batch: 250, Codec: arrowtest.None})
	var v [8]byte
	binary.LittleEndian.PutUint64(v[:], 250)
	at := bytes.Index(data, v[:]) // the length of the first record batch
	if at < 0 {
		t.Fatal("no batch length of 250 in the file")
	}
	data[at+4] ^= 1 << 2
	path := writeFile(t, data)
	_, err := arrowipc.Open(path)
	if !errors.Is(err, arrowipc.ErrFormat) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), `column "x" has 250 rows, the batch 17179869434`) {
		t.Errorf("Open: %v, want ErrFormat naming the file, the column and both lengths", err)
	}
}

// TestZstdContentSizeFlip: bit 7 of the fifth byte of the first ZSTD frame of
// the stream's first batch, its header's descriptor, which then declares a
// content size of 524,354,280 bytes for a buffer of 1000: the read of the
// column is an error wrapping ErrFormat without that allocation (DecodeAll
// made it before finding the frame short).
func TestZstdContentSizeFlip(t *testing.T) {
	data := arrowtest.Write(table(1000, 1), arrowtest.Options{Batch: 250, Codec: arrowtest.ZSTD, Stream: true})
	at := bytes.Index(data, []byte{0x28, 0xb5, 0x2f, 0xfd}) // the first frame
	if at < 0 {
		t.Fatal("no ZSTD frame in the stream")
	}
	data[at+4] ^= 1 << 7
	path := writeFile(t, data)
	f, err := arrowipc.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var rerr error
	got := interop.Allocated(func() {
		defer func() {
			if r := recover(); r != nil {
				rerr = r.(error)
			}
		}()
		x, err := arrowipc.Numbers[float32](f, "x")
		if err != nil {
			rerr = err
			return
		}
		x.GetObs(0)
	})
	if !errors.Is(rerr, arrowipc.ErrFormat) || !strings.Contains(rerr.Error(), "the length prefix says 1000") {
		t.Errorf("reading x: %v, want ErrFormat naming the frames' size and the prefix's", rerr)
	}
	if got > 16<<20 {
		t.Errorf("reading x allocated %d bytes", got)
	}
}

// TestOpenErrors: whatever is wrong with the path, Open's error starts with
// the package's name and names the file: a missing file (fs.ErrNotExist), a
// directory, a CSV file (which read as a stream whose first message claimed
// 1634755955 bytes), a Parquet file, an empty file.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "data.csv")
	if err := os.WriteFile(csv, []byte("id,label\n1,2\n3,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pq := filepath.Join(dir, "t.parquet")
	if err := os.WriteFile(pq, append([]byte("PAR1"), make([]byte, 64)...), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.arrow")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.arrow")
	for _, tc := range []struct {
		path string
		is   error
		want string
	}{
		{missing, fs.ErrNotExist, "arrowipc: open " + missing},
		{dir, arrowipc.ErrFormat, "a directory"},
		{csv, arrowipc.ErrFormat, `not an Arrow IPC file or stream: it starts with "id,label"`},
		{pq, arrowipc.ErrFormat, "a Parquet file"},
		{empty, arrowipc.ErrFormat, "the file is empty"},
	} {
		_, err := arrowipc.Open(tc.path)
		if !errors.Is(err, tc.is) || !strings.HasPrefix(err.Error(), "arrowipc: ") || !strings.Contains(err.Error(), tc.path) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%s): %v, want an error wrapping %v that starts with arrowipc:, names the file and says %q", tc.path, err, tc.is, tc.want)
		}
	}
}

// TestDamagedFiles reads copies of the Arrow fixtures with each bit flipped
// of the bytes where a flip made a read panic before Open checked the
// batches' field nodes against their buffers (js.arrow's bytes 183 and 903,
// js.arrows' 975: Strings and Lists indexed and sliced past their buffers,
// "index out of range [4] with length 4", "slice bounds out of range
// [:-9223372036854775792]"): Open and every read succeed or fail with the
// package's errors naming the file, and no trial allocates more than
// AllocBound. The suite (TestConformance) cuts every fixture short and flips
// bits at random places of each.
func TestDamagedFiles(t *testing.T) {
	for name, spans := range map[string][][2]int{"js.arrow": {{183, 184}, {903, 904}}, "js.arrows": {{975, 976}}} {
		data, err := os.ReadFile(interop.Path(name))
		if err != nil {
			t.Fatal(err)
		}
		columnartest.Damage(t, reader, name, len(data), interop.Flips(data, spans...))
	}
}
