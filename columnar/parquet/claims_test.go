package parquet_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/obskit/obskit/columnar/internal/interop"
	"github.com/obskit/obskit/columnar/parquet"
)

// withPage returns data with the first page header of column col of row group
// g replaced by edit's change of it, and the footer's offsets moved by the
// change of the header's length.
func withPage(t *testing.T, data []byte, g, col int, edit func(*format.PageHeader)) []byte {
	t.Helper()
	md := pqFooter(t, data)
	cm := md.RowGroups[g].Columns[col].MetaData
	start := cm.DataPageOffset
	if d := cm.DictionaryPageOffset; d > 0 && d < start {
		start = d
	}
	var h format.PageHeader
	r := bytes.NewReader(data[start:])
	if err := thrift.NewDecoder(new(thrift.CompactProtocol).NewReader(r)).Decode(&h); err != nil {
		t.Fatal(err)
	}
	end := int64(len(data)) - int64(r.Len())
	edit(&h)
	hb, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	if err != nil {
		t.Fatal(err)
	}
	delta := int64(len(hb)) - (end - start)
	move := func(off *int64) {
		if *off > start {
			*off += delta
		}
	}
	for i := range md.RowGroups {
		rg := &md.RowGroups[i]
		move(&rg.FileOffset)
		for j := range rg.Columns {
			c := &rg.Columns[j]
			move(&c.FileOffset)
			move(&c.MetaData.DataPageOffset)
			move(&c.MetaData.DictionaryPageOffset)
			if i == g && j == col {
				c.MetaData.TotalCompressedSize += delta
			}
		}
		if i == g {
			rg.TotalCompressedSize += delta
		}
	}
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), md)
	if err != nil {
		t.Fatal(err)
	}
	out := append(append(append([]byte{}, data[:start]...), hb...), data[end:footerStart(data)]...)
	out = append(out, footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, "PAR1"...)
}

// TestPageClaims: a page header or a codec's data claiming more than its
// bytes hold is an error wrapping ErrFormat naming the page, found before
// parquet-go allocates the claim (a page's uncompressed size and values of
// 2^30 made it allocate a GiB; a dictionary of 2^30 values as much; data of
// a chunk whose codec reads LZ4 that is not LZ4 made its decoder double its
// buffer until the process ran out of memory).
func TestPageClaims(t *testing.T) {
	k := nullsTable
	k.rows, k.group, k.codec = 200, 0, pq.Compression(&pq.Snappy)
	snappy := writeKit(t, k)
	k.codec = pq.Compression(&pq.Zstd)
	zstd := writeKit(t, k)
	// The leaves of nullsTable: holes, id, toks (a Group orders by name).
	const toks = 2
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"uncompressed size", withPage(t, snappy, 0, toks, func(h *format.PageHeader) { h.UncompressedPageSize = 1 << 30 }),
			`column "toks": page 0: 1073741824 bytes uncompressed from`},
		{"values", withPage(t, snappy, 0, toks, func(h *format.PageHeader) { h.DataPageHeader.V.NumValues = 1 << 30 }),
			`column "toks": page 0: 1073741824 values, past the 276 of the chunk the footer claims`},
		{"snappy length", withPage(t, snappy, 0, toks, func(h *format.PageHeader) { h.UncompressedPageSize += 5 }),
			`column "toks": page 0: snappy data of`},
		{"dictionary", withPage(t, read(t, "duckdb-snappy.parquet"), 0, 6, func(h *format.PageHeader) { h.DictionaryPageHeader.V.NumValues = 1 << 30 }),
			`column "cat": page 0: a dictionary of 1073741824 values in`},
		{"zstd read as lz4", withFooter(t, zstd, func(md *format.FileMetaData) { md.RowGroups[0].Columns[toks].MetaData.Codec = format.Lz4Raw }),
			`column "toks": page 0: lz4: `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := write(t, t.TempDir(), "claims.parquet", tc.data)
			var errs []error
			got := interop.Allocated(func() { errs, _ = readAll(t, path) })
			if bound := interop.AllocBound(len(tc.data)); got > bound {
				t.Errorf("the reads allocated %d bytes, more than %d", got, bound)
			}
			found := false
			for _, err := range errs {
				found = found || errors.Is(err, parquet.ErrFormat) && strings.Contains(err.Error(), path) && strings.Contains(err.Error(), tc.want)
				if !dataErr(err) {
					t.Errorf("error %v", err)
				}
			}
			if !found {
				t.Errorf("errors %v, want one wrapping ErrFormat naming the file and saying %q", errs, tc.want)
			}
		})
	}
}

// TestFooterClaims: a footer whose list claims 2^31-1 elements it does not
// hold (key_value_metadata, field 5, added before the footer's end) is an
// error of Open wrapping ErrFormat, found before parquet-go allocates the
// list (2^31-1 KeyValues, 64 GiB).
func TestFooterClaims(t *testing.T) {
	data := writeKit(t, kitTable{rows: 10, lists: nullsTable.lists})
	start := footerStart(data)
	footer := data[start : len(data)-8]
	if footer[len(footer)-1] != 0 {
		t.Fatal("the footer does not end with a stop field")
	}
	// A list field of id 5 (long form: type 9, then the id zigzagged), of
	// 2^31-1 structs, then the footer's stop.
	bad := append(append([]byte{}, footer[:len(footer)-1]...), 0x09, 0x0A, 0xFC, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x00)
	out := append(append([]byte{}, data[:start]...), bad...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(bad)))
	out = append(out, "PAR1"...)
	path := write(t, t.TempDir(), "footer.parquet", out)
	var err error
	got := interop.Allocated(func() { _, err = parquet.Open(path) })
	if !errors.Is(err, parquet.ErrFormat) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "2147483647 elements claimed") {
		t.Errorf("Open: %v, want ErrFormat naming the file and the list's claim", err)
	}
	if bound := interop.AllocBound(len(out)); got > bound {
		t.Errorf("Open allocated %d bytes, more than %d", got, bound)
	}
}
