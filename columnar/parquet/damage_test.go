package parquet_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/columnar/internal/interop"
	"github.com/obskit/obskit/columnar/parquet"
)

// readAll opens path and reads it every way the package offers: every row
// group's rows, every column's nulls and validity, and every column with
// each accessor, gathering a few rows. It returns the errors the reads
// returned and the error values their gathers panicked with, and Open's
// error; a panic with anything else fails the test.
func readAll(t *testing.T, path string) (errs []error, open error) {
	t.Helper()
	f, err := parquet.Open(path)
	if err != nil {
		return nil, err
	}
	try := func(read func() error) {
		defer func() {
			if r := recover(); r != nil {
				err, ok := r.(error)
				if !ok {
					t.Fatalf("panic %v", r)
				}
				errs = append(errs, err)
			}
		}()
		if err := read(); err != nil {
			errs = append(errs, err)
		}
	}
	for g := range f.RowGroups() {
		_ = f.RowGroup(g)
		try(func() error { _, err := f.Rows(g); return err })
	}
	idx := []int{0, 1, 2, 5, f.Nobs() / 2, f.Nobs() - 1}
	for _, c := range f.Columns() {
		try(func() error { _, err := f.Nulls(c.Name); return err })
		try(func() error { _, err := parquet.Valid(f, c.Name); return err })
		try(func() error {
			x, err := parquet.Numbers[int64](f, []string{c.Name}, parquet.Fill(int64(-1)))
			if err == nil {
				x.GetObsInto(nil, inRange(idx, x.Nobs()))
			}
			return err
		})
		try(func() error {
			x, err := parquet.Numbers[float32](f, []string{c.Name}, parquet.Fill(float32(-1)))
			if err == nil {
				x.GetObsInto(nil, inRange(idx, x.Nobs()))
			}
			return err
		})
		try(func() error { _, err := parquet.Scalars[int64](f, c.Name, parquet.Fill(int64(-1))); return err })
		try(func() error {
			x, err := parquet.Strings(f, c.Name, parquet.NullEmpty())
			if err == nil {
				x.GetObsInto(columnar.Ragged[byte]{}, inRange(idx, x.Nobs()))
			}
			return err
		})
		try(func() error {
			x, err := parquet.Lists[int32](f, c.Name, parquet.NullEmpty(), parquet.Fill(int32(-1)))
			if err == nil {
				x.GetObsInto(columnar.Ragged[int32]{}, inRange(idx, x.Nobs()))
			}
			return err
		})
	}
	return errs, nil
}

func inRange(idx []int, n int) []int {
	var out []int
	for _, i := range idx {
		if i >= 0 && i < n {
			out = append(out, i)
		}
	}
	return out
}

// dataErr reports whether err is one of the errors a read of a damaged file
// may give: a malformed file, or a column whose damaged schema no longer
// reads as asked.
func dataErr(err error) bool {
	for _, s := range []error{parquet.ErrFormat, parquet.ErrUnsupported, parquet.ErrType, parquet.ErrNull, parquet.ErrColumn, parquet.ErrFault} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// sweep reads every damaged copy of a file: Open either succeeds or fails
// with an error wrapping ErrFormat or ErrUnsupported that names the file;
// every read fails only with the package's errors, naming the file, and no
// panic but those escapes; no trial allocates more than AllocBound of the
// file's size.
func sweep(t *testing.T, name string, data []byte, damages func(yield func(interop.Damage) bool)) {
	t.Helper()
	path := filepath.Join(t.TempDir(), strings.ReplaceAll(name, " ", "-")+".parquet")
	bound := interop.AllocBound(len(data))
	trials := 0
	for d := range damages {
		if err := os.WriteFile(path, d.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		var open error
		var errs []error
		where := fmt.Sprintf("%s, %s", name, d.What)
		got := interop.Allocated(func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%s: panic %v", where, r)
				}
			}()
			errs, open = readAll(t, path)
		})
		if got > bound {
			t.Errorf("%s: the reads allocated %d bytes, more than %d", where, got, bound)
		}
		if open != nil && (!errors.Is(open, parquet.ErrFormat) && !errors.Is(open, parquet.ErrUnsupported) || !strings.Contains(open.Error(), path)) {
			t.Errorf("%s: Open error %v, want ErrFormat naming the file", where, open)
		}
		for _, err := range errs {
			if !dataErr(err) || !strings.Contains(err.Error(), path) {
				t.Errorf("%s: read error %v, want one of the package's naming the file", where, err)
			}
		}
		trials++
	}
	t.Logf("%s: %d damaged files", name, trials)
}

// footerStart returns the offset of the footer of a Parquet file.
func footerStart(data []byte) int {
	return len(data) - 8 - int(binary.LittleEndian.Uint32(data[len(data)-8:]))
}

// TestDamagedFiles reads damaged copies of the interop fixtures and of files
// of the kit's writer (lists with null lists, empty lists and null values;
// data pages of both versions; every codec): each cut short at 8 places, and
// with one bit flipped at random places of its pages and as many of its
// footer (12 of each in the fixtures, 48 in the kit's smaller files).
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
	for _, fx := range interop.Parquet {
		files = append(files, file{fx.Name, read(t, fx.Name), 12})
	}
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
