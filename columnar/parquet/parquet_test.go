package parquet_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/obskit/obskit/columnar/internal/interop"
	"github.com/obskit/obskit/columnar/parquet"
)

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(interop.Path(name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func write(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// withFooter returns data with its footer replaced by edit's change of it.
func withFooter(t *testing.T, data []byte, edit func(*format.FileMetaData)) []byte {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	start := len(data) - 8 - n
	var md format.FileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data[start:len(data)-8], &md); err != nil {
		t.Fatal(err)
	}
	edit(&md)
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		t.Fatal(err)
	}
	out := append(append([]byte{}, data[:start]...), footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, "PAR1"...)
}

// TestBadFiles: damaged files are errors naming the file, at Open.
func TestBadFiles(t *testing.T) {
	good := read(t, "duckdb-zstd.parquet")
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"truncated footer": good[:len(good)-20],
		"truncated data":   good[len(good)/2:],
		"bad magic":        append([]byte("PAR0"), good[4:]...),
		"empty":            {},
		"footer longer than the file": func() []byte {
			b := bytes.Clone(good)
			binary.LittleEndian.PutUint32(b[len(b)-8:], 1<<32-1) // parquet-go would allocate 4 GiB
			return b
		}(),
		"more rows than the data": withFooter(t, good, func(md *format.FileMetaData) {
			md.NumRows += 100
			md.RowGroups[1].NumRows += 100
		}),
		"row counts disagree": withFooter(t, good, func(md *format.FileMetaData) { md.NumRows++ }),
		"chunk past the end": withFooter(t, good, func(md *format.FileMetaData) {
			md.RowGroups[2].Columns[3].MetaData.TotalCompressedSize += 1 << 20
		}),
	} {
		path := write(t, dir, strings.ReplaceAll(name, " ", "-")+".parquet", data)
		_, err := parquet.Open(path)
		if !errors.Is(err, parquet.ErrFormat) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: Open error %v, want ErrFormat naming %s", name, err, path)
		}
	}
}

// TestManyFiles opens a directory, a glob and Hugging Face shards as one
// table, in name order, from their footers.
func TestManyFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := read(t, "duckdb-snappy.parquet"), read(t, "duckdb-gzip.parquet")
	write(t, dir, "train-00000-of-00002.parquet", a)
	write(t, dir, "train-00001-of-00002.parquet", b)
	for _, path := range []string{dir, filepath.Join(dir, "train-*.parquet")} {
		f, err := parquet.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if f.Nobs() != 6000 || f.RowGroups() != 2 || len(f.Files()) != 2 {
			t.Fatalf("%s: Nobs %d, RowGroups %d, Files %v", path, f.Nobs(), f.RowGroups(), f.Files())
		}
		id, err := parquet.Scalars[int64](f, "id")
		if err != nil {
			t.Fatal(err)
		}
		if id[2999] != 2999 || id[3000] != 0 || id[5999] != 2999 {
			t.Errorf("%s: ids %d %d %d, want 2999 0 2999", path, id[2999], id[3000], id[5999])
		}
	}
	// A missing shard, and a file of another schema.
	os.Remove(filepath.Join(dir, "train-00001-of-00002.parquet"))
	if _, err := parquet.Open(dir); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "train-00001-of-00002.parquet") {
		t.Errorf("missing shard: error %v, want one naming it", err)
	}
	write(t, dir, "train-00001-of-00002.parquet", read(t, "duckdb-struct.parquet"))
	if _, err := parquet.Open(dir); !errors.Is(err, parquet.ErrSchema) || !strings.Contains(err.Error(), "train-00001-of-00002.parquet") {
		t.Errorf("other schema: error %v, want ErrSchema naming the file", err)
	}
	if _, err := parquet.Open(filepath.Join(dir, "nope-*.parquet")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a glob matching nothing: error %v", err)
	}
}

// TestDecodeErrorPanics: a page that does not decode is a panic in the
// gather with an error naming the file, the row group and the column.
func TestDecodeErrorPanics(t *testing.T) {
	data := read(t, "duckdb-snappy.parquet")
	var md format.FileMetaData
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data[len(data)-8-n:len(data)-8], &md); err != nil {
		t.Fatal(err)
	}
	// Scribble over the middle of the data pages of column id.
	cm := md.RowGroups[0].Columns[0].MetaData
	bad := append([]byte{}, data...)
	mid := cm.DataPageOffset + cm.TotalCompressedSize/2
	for i := mid; i < mid+64; i++ {
		bad[i] ^= 0x5A
	}
	path := write(t, t.TempDir(), "scribbled.parquet", bad)
	f, err := parquet.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	id, err := parquet.Numbers[int64](f, []string{"id"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		r := recover()
		err, ok := r.(error)
		if !ok || !errors.Is(err, parquet.ErrFormat) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), `column "id"`) {
			t.Errorf("panic %v, want an ErrFormat naming the file and the column", r)
		}
	}()
	for i := range id.Nobs() {
		if got := id.GetObs(i).Item(); got != int64(i) {
			panic(fmt.Errorf("%w: row %d reads %d", parquet.ErrFormat, i, got))
		}
	}
}
