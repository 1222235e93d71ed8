package parquet

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// hdr is a run header: count<<1 for an RLE run of count values, groups<<1|1
// for a bit-packed run of groups of 8.
func hdr(h uint64, rest ...byte) []byte {
	return append(binary.AppendUvarint(nil, h), rest...)
}

func cat(bs ...[]byte) []byte {
	var out []byte
	for _, b := range bs {
		out = append(out, b...)
	}
	return out
}

func TestRuns(t *testing.T) {
	for _, tc := range []struct {
		name  string
		b     []byte
		width uint
		n     int
		err   string // "" when the runs are accepted
	}{
		{"empty", nil, 3, 10, ""},
		{"rle exact", hdr(10<<1, 5), 3, 10, ""},
		{"rle two runs", cat(hdr(4<<1, 1), hdr(6<<1, 2)), 3, 10, ""},
		{"rle width 0", hdr(10 << 1), 0, 10, ""},
		{"rle width 9 takes 2 bytes", hdr(10<<1, 1, 1), 9, 10, ""},
		{"rle one too many", hdr(11<<1, 5), 3, 10, "11 repeated values, 10 left"},
		{"rle after the page", cat(hdr(10<<1, 5), hdr(1<<1, 5)), 3, 10, "1 repeated values, 0 left"},
		{"rle 2^31 values", hdr(1<<32-2, 5), 3, 10, "repeated values, 10 left"},
		{"rle value past the data", hdr(10 << 1), 3, 10, "1 bytes past the 0 left"},
		{"bit-packed partial group", hdr(2<<1|1, 1, 2, 3, 4, 5, 6), 3, 10, ""},
		{"bit-packed padded last run", cat(hdr(2<<1, 0), hdr(32<<1|1, make([]byte, 32)...)), 1, 10, ""},
		{"bit-packed too many, not last", cat(hdr(32<<1|1, make([]byte, 32)...), hdr(2<<1, 0)), 1, 10, "256 bit-packed values, 10 left"},
		{"bit-packed width 0", hdr(1<<30 | 1), 0, 10, "bit-packed values, 10 left"},
		{"bit-packed past the data", hdr(2<<1|1, 1, 2, 3), 3, 10, "6 bytes past the 3 left"},
		{"bit-packed 2^31 groups", hdr(1<<32-1, 1), 4, 100, "bit-packed values, 100 left"},
		{"header cut short", []byte{0x80}, 3, 10, "run header at byte 0 does not decode"},
		{"header overflows", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 3, 10, "does not decode"},
		{"width 33", hdr(2<<1, 1, 1, 1, 1, 1), 33, 10, "bit width 33"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := runs(tc.b, tc.width, tc.n)
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("runs: %v, want nil", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("runs: %v, want an error containing %q", err, tc.err)
			}
		})
	}
}

// TestRunsSeed reads the fuzzer's file whose dictionary-index run claims
// 2^31 values: ErrFormat naming the page, without parquet-go's allocation
// for the run (5 GB before the check).
func TestRunsSeed(t *testing.T) {
	corpus, err := os.ReadFile("testdata/fuzz/FuzzOpen/dfe7b3974cae4534")
	if err != nil {
		t.Fatal(err)
	}
	_, lit, _ := strings.Cut(strings.TrimSpace(string(corpus)), "[]byte(")
	data, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
	if err != nil {
		t.Fatalf("corpus entry: %v", err)
	}
	path := filepath.Join(t.TempDir(), "seed.parquet")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var errs []error
	for g := range f.RowGroups() {
		for _, col := range f.Columns() {
			errs = append(errs, f.values(g, col, func([]pq.Value) error { return nil }))
		}
	}
	runtime.ReadMemStats(&after)
	if d := after.TotalAlloc - before.TotalAlloc; d > 64<<20 {
		t.Errorf("reading the columns allocated %d bytes", d)
	}
	var found bool
	for _, err := range errs {
		if errors.Is(err, ErrFormat) && strings.Contains(err.Error(), `column "id": page 1: dictionary indices: run at byte 0: 118992 repeated values, 1000 left`) {
			found = true
		}
	}
	if !found {
		t.Errorf("no error wrapping ErrFormat names the run of page 1 of column id: %v", errs)
	}
}

// TestDecodeHeaderPastEnd decodes a page header whose unknown field 15 is a
// map of 2^31-1 doubles with no bytes behind it: an error at once (parquet-go's
// reader drops the EOF of a double, so skipping the map took seconds).
func TestDecodeHeaderPastEnd(t *testing.T) {
	b := []byte{0xfb, 0xff, 0xff, 0xff, 0xff, 0x07, 0x77} // field 15 MAP, size, double->double
	var h format.PageHeader
	if _, err := decodeHeader(b, &h); err == nil || !strings.Contains(err.Error(), "2147483647 elements claimed, 0 bytes left") {
		t.Errorf("decodeHeader: %v, want the map's size refused", err)
	}
}
