package parquet_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/obskit/obskit/columnar/internal/interop"
	"github.com/obskit/obskit/columnar/parquet"
)

// TestBinaryDamagedPage: a page of the binary column that does not decode is
// the error of AppendObs, naming the file and the column, with dst's bytes
// kept, and the panic of GetObs.
func TestBinaryDamagedPage(t *testing.T) {
	data := read(t, "duckdb-snappy.parquet")
	var md format.FileMetaData
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data[len(data)-8-n:len(data)-8], &md); err != nil {
		t.Fatal(err)
	}
	col := slices.IndexFunc(md.RowGroups[0].Columns, func(c format.ColumnChunk) bool { return c.MetaData.PathInSchema[0] == "bin" })
	if col < 0 {
		t.Fatal("no column bin")
	}
	cm := md.RowGroups[0].Columns[col].MetaData
	// Scribble over the middle of the chunk's data pages (after its
	// dictionary page, if any).
	start := cm.DataPageOffset
	if cm.DictionaryPageOffset > 0 && cm.DictionaryPageOffset < start {
		start = cm.DictionaryPageOffset
	}
	end := start + cm.TotalCompressedSize
	bad := append([]byte{}, data...)
	mid := cm.DataPageOffset + (end-cm.DataPageOffset)/2
	for i := mid; i < min(mid+32, end); i++ {
		bad[i] ^= 0x5A
	}
	path := write(t, t.TempDir(), "scribbled.parquet", bad)
	f, err := parquet.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := parquet.Strings(f, "bin")
	if err != nil {
		t.Fatal(err)
	}
	b := s.Binary()
	var failed error
	for i := range md.RowGroups[0].NumRows {
		got, err := b.AppendObs([]byte("kept"), int(i))
		if err == nil {
			if want := interop.Want(int(i)).Bin; !bytes.Equal(got[4:], want) {
				t.Fatalf("AppendObs(_, %d) = %q without an error, want %q", i, got[4:], want)
			}
			continue
		}
		if !errors.Is(err, parquet.ErrFormat) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), `column "bin"`) || string(got) != "kept" {
			t.Fatalf("AppendObs(\"kept\", %d) = %q, %v, want \"kept\" and an ErrFormat naming the file and the column", i, got, err)
		}
		failed = err
		var p any
		func() {
			defer func() { p = recover() }()
			b.GetObs(int(i))
		}()
		if e, ok := p.(error); !ok || e.Error() != err.Error() {
			t.Fatalf("GetObs(%d) panicked with %v, want AppendObs's error", i, p)
		}
		break
	}
	if failed == nil {
		t.Fatal("no row of the scribbled row group failed")
	}
}
