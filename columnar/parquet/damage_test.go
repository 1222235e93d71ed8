package parquet_test

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"iter"
	"path/filepath"
	"strings"
	"testing"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/obskit/obskit/columnar/internal/columnartest"
	"github.com/obskit/obskit/columnar/internal/interop"
	"github.com/obskit/obskit/columnar/parquet"
)

// readAll reads path every way the package offers (columnartest.ReadAll):
// the errors the reads returned and the error values their gathers panicked
// with, and Open's error; a panic with anything else fails the test.
func readAll(t *testing.T, path string) (errs []error, open error) {
	t.Helper()
	return columnartest.ReadAll(t, reader, path)
}

// dataErr reports whether err is one of the errors a read of a damaged file
// may give: a malformed file, or a column whose damaged schema no longer
// reads as asked.
func dataErr(err error) bool {
	for _, s := range reader.Errors {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// sweep reads every damaged copy of a file with columnartest.Damage: Open
// either succeeds or fails with an error wrapping ErrFormat or
// ErrUnsupported that names the file; every read fails only with the
// package's errors, naming the file, and no panic but those escapes; no trial
// allocates more than AllocBound of the file's size.
func sweep(t *testing.T, name string, data []byte, damages iter.Seq[interop.Damage]) {
	t.Helper()
	columnartest.Damage(t, reader, name+".parquet", len(data), damages)
}

// footerStart returns the offset of the footer of a Parquet file.
func footerStart(data []byte) int {
	return len(data) - 8 - int(binary.LittleEndian.Uint32(data[len(data)-8:]))
}

// TestDamagedFiles reads damaged copies of files of the kit's writer (lists
// with null lists, empty lists and null values; data pages of both versions;
// every codec): each cut short at 8 places, and with one bit flipped at 48
// random places of its pages and 48 of its footer. (The conformance suite,
// TestConformance, damages the interop fixtures of the other writers.)
// Nothing but the package's errors comes out, and no file costs more memory
// than AllocBound (parquet-go allocates what a page header or a codec's data
// claims before it reads it; its LZ4 decoder doubled its buffer without end
// on data that does not decode). Before, 5 of about 8,800 damaged files made
// Rows panic ("interface conversion: interface {} is nil, not
// []interface {}": a value continuing a null list).
func TestDamagedFiles(t *testing.T) {
	type file struct {
		name  string
		data  []byte
		flips int // at random places of the pages, and as many of the footer
	}
	var files []file
	small := nullsTable
	small.rows, small.group = 200, 90
	for _, c := range []struct {
		name  string
		codec pq.WriterOption
		v2    bool
	}{
		{"kit", nil, false},
		{"kit v2 zstd", pq.Compression(&pq.Zstd), true},
		{"kit snappy", pq.Compression(&pq.Snappy), false},
		{"kit v2 lz4", pq.Compression(&pq.Lz4Raw), true},
		{"kit gzip", pq.Compression(&pq.Gzip), false},
	} {
		k := small
		k.codec, k.v2 = c.codec, c.v2
		files = append(files, file{c.name, writeKit(t, k), 48})
	}
	for _, fl := range files {
		foot := footerStart(fl.data)
		seed := uint64(len(fl.name))
		sweep(t, fl.name, fl.data, func(yield func(interop.Damage) bool) {
			for _, s := range []func(func(interop.Damage) bool){
				interop.Cuts(fl.data, 8),
				interop.RandomFlips(fl.data, fl.flips, 4, foot, seed),
				interop.RandomFlips(fl.data, fl.flips, foot, len(fl.data), seed+1),
			} {
				for d := range s {
					if !yield(d) {
						return
					}
				}
			}
		})
	}
}

// TestDamagedMetadata flips every bit of the metadata of a small file of the
// kit's writer, one at a time: its footer, and the first page header of each
// column chunk (parquet-go allocates the lengths inside a footer, the sizes
// and counts of a page header, before it reads what they cover).
func TestDamagedMetadata(t *testing.T) {
	k := kitTable{rows: 30, lists: map[string]func(int) []*int32{
		"toks": nullsTable.lists["toks"],
	}, codec: pq.Compression(&pq.Snappy)}
	data := writeKit(t, k)
	f, err := parquet.Open(write(t, t.TempDir(), "small.parquet", data))
	if err != nil {
		t.Fatal(err)
	}
	spans := [][2]int{{footerStart(data), len(data) - 8}}
	for g := range f.RowGroups() {
		md := pqFooter(t, data).RowGroups[g]
		for _, c := range md.Columns {
			start := c.MetaData.DataPageOffset
			if d := c.MetaData.DictionaryPageOffset; d > 0 && d < start {
				start = d
			}
			spans = append(spans, [2]int{int(start), int(start) + 24})
		}
	}
	sweep(t, "kit metadata", data, interop.Flips(data, spans...))
}

// TestRowsDamagedList: rs-snappy.parquet with bit 1 of byte 29076 flipped,
// where a value of toks continues a null list: Rows returns an error wrapping
// ErrFormat naming the file, the row group and the column (it panicked with
// "interface conversion: interface {} is nil, not []interface {}", which
// obskit table cat turned into exit status 2).
func TestRowsDamagedList(t *testing.T) {
	data := read(t, "rs-snappy.parquet")
	data[29076] ^= 1 << 1
	path := write(t, t.TempDir(), "damaged.parquet", data)
	f, err := parquet.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	for g := range f.RowGroups() {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Rows(%d) panics: %v", g, r)
				}
			}()
			if _, err := f.Rows(g); err != nil {
				errs = append(errs, err)
			}
		}()
	}
	if len(errs) != 1 || !errors.Is(errs[0], parquet.ErrFormat) || !strings.Contains(errs[0].Error(), path+": malformed Parquet file: row group 1, column \"toks\": row 83: a value inside a null or empty list") {
		t.Errorf("Rows: errors %v, want one wrapping ErrFormat naming the file, row group 1 and column toks", errs)
	}
}

// TestOpenErrors: whatever is wrong with the path, Open's error starts with
// the package's name and names the file: a missing file (fs.ErrNotExist; it
// was the bare error of os.Stat), a CSV file, an Arrow file.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	csv := write(t, dir, "data.csv", []byte("id,label\n1,2\n3,4\n"))
	arrow := write(t, dir, "t.arrow", append([]byte("ARROW1\x00\x00"), make([]byte, 64)...))
	missing := filepath.Join(dir, "missing.parquet")
	for _, tc := range []struct {
		path string
		is   error
		want string
	}{
		{missing, fs.ErrNotExist, "parquet: stat " + missing},
		{csv, parquet.ErrFormat, `not a Parquet file: it starts with "id,label"`},
		{arrow, parquet.ErrFormat, "an Arrow IPC file"},
	} {
		_, err := parquet.Open(tc.path)
		if !errors.Is(err, tc.is) || !strings.HasPrefix(err.Error(), "parquet: ") || !strings.Contains(err.Error(), tc.path) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%s): %v, want an error wrapping %v that starts with parquet:, names the file and says %q", tc.path, err, tc.is, tc.want)
		}
	}
}

// pqFooter decodes the footer of a Parquet file.
func pqFooter(t *testing.T, data []byte) *format.FileMetaData {
	t.Helper()
	var md format.FileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data[footerStart(data):len(data)-8], &md); err != nil {
		t.Fatal(err)
	}
	return &md
}
