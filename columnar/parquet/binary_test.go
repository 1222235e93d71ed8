package parquet_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/columnar/internal/interop"
	"github.com/obskit/obskit/columnar/parquet"
	"github.com/obskit/obskit/container/containertest"
)

// TestBinaryInterop: the binary column and the dictionary-encoded text column
// of every fixture, as []byte: AppendObs gives the formula's bytes, Where
// names the file, the column and the row, and the checker's Encoded checks
// pass.
func TestBinaryInterop(t *testing.T) {
	for _, fx := range interop.Parquet {
		t.Run(fx.Name, func(t *testing.T) {
			path := interop.Path(fx.Name)
			f, err := parquet.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"bin", "cat"} {
				s, err := parquet.Strings(f, name)
				if err != nil {
					t.Fatal(err)
				}
				b := s.Binary()
				var buf []byte
				for i := range b.Nobs() {
					want := interop.Want(i).Bin
					if name == "cat" {
						want = []byte(interop.Want(i).Cat)
					}
					if buf, err = b.AppendObs(buf[:0], i); err != nil || !bytes.Equal(buf, want) {
						t.Fatalf("%s: AppendObs(_, %d) = %q, %v, want %q", name, i, buf, err, want)
					}
				}
				if got, want := b.Where(7), fmt.Sprintf("%s: column %q: row 7", path, name); got != want {
					t.Errorf("Where(7) = %q, want %q", got, want)
				}
				containertest.Run(t, b, containertest.Config[[]byte, columnar.Ragged[byte]]{
					Obs: func(r columnar.Ragged[byte], j int) []byte { return r.At(j) },
					Len: func(r columnar.Ragged[byte]) int { return r.Len() },
				})
			}
		})
	}
}

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
