package parquet_test

import (
	"bytes"
	"testing"

	pq "github.com/parquet-go/parquet-go"
)

// A kitTable says what writeKit writes: rows of an int64 column id (row i
// holds i) and list columns whose lists are given per row (nil for a null
// list, a nil element for a null value), with parquet-go, the one writer the
// module has, in the codec, page version and row groups asked for. The
// interop fixtures are files of other writers; these are the lists they do
// not have.
type kitTable struct {
	rows  int
	lists map[string]func(i int) []*int32 // optional list<optional int32> columns
	codec pq.WriterOption                 // nil: uncompressed
	v2    bool                            // data pages of version 2
	group int                             // rows a row group, all when 0
}

// writeKit returns the bytes of the Parquet file of k.
func writeKit(t testing.TB, k kitTable) []byte {
	t.Helper()
	g := pq.Group{"id": pq.Required(pq.Leaf(pq.Int64Type))}
	for name := range k.lists {
		g[name] = pq.Optional(pq.List(pq.Optional(pq.Int(32))))
	}
	schema := pq.NewSchema("t", g)
	opts := []pq.WriterOption{pq.DataPageVersion(1)}
	if k.v2 {
		opts[0] = pq.DataPageVersion(2)
	}
	if k.codec != nil {
		opts = append(opts, k.codec)
	}
	if k.group > 0 {
		opts = append(opts, pq.MaxRowsPerRowGroup(int64(k.group)))
	}
	var buf bytes.Buffer
	w := pq.NewWriter(&buf, append(opts, schema)...)
	rows := make([]pq.Row, k.rows)
	for i := range rows {
		// The leaves in schema order: id, then the lists by name (a Group
		// orders its fields by name, id first only when it sorts first).
		var row pq.Row
		for col, path := range schema.Columns() {
			if path[0] == "id" {
				row = append(row, pq.Int64Value(int64(i)).Level(0, 0, col))
				continue
			}
			list := k.lists[path[0]](i)
			switch {
			case list == nil:
				row = append(row, pq.NullValue().Level(0, 0, col)) // a null list
			case len(list) == 0:
				row = append(row, pq.NullValue().Level(0, 1, col)) // an empty list
			}
			for j, v := range list {
				rep := min(j, 1)
				if v == nil {
					row = append(row, pq.NullValue().Level(rep, 2, col)) // a null value
				} else {
					row = append(row, pq.Int32Value(*v).Level(rep, 3, col))
				}
			}
		}
		rows[i] = row
	}
	if _, err := w.WriteRows(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func ptr(v int32) *int32 { return &v }

// ints returns the list of the values vs, none of them null.
func ints(vs ...int32) []*int32 {
	out := []*int32{}
	for _, v := range vs {
		out = append(out, ptr(v))
	}
	return out
}
