// Command arrowgo writes the compressed Arrow IPC fixtures of obskit's columnar
// tests with arrow-go, a writer independent of the kit: the rows of gen.mjs's
// formula (1000 of them, in batches of 250) with LZ4 frame buffers in the file
// format (go-lz4.arrow) and ZSTD buffers in the stream format (go-zstd.arrows);
// and the rows of gen.mjs's edge table with null lists and strings that own
// values (edge-go.arrows, edge.go). apache-arrow (JavaScript) writes no
// compressed buffers. It is a module of its
// own, under testdata, so that the kit never requires arrow-go. Run it from
// this directory:
//
//	go run . ..
package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

const rows, batch = 1000, 250

func main() {
	out := "."
	if len(os.Args) > 1 {
		out = os.Args[1]
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "label", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "u8", Type: arrow.PrimitiveTypes.Uint8, Nullable: true},
		{Name: "x", Type: arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Float32), Nullable: true},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "cat", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}, Nullable: true},
		{Name: "toks", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "flag", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	}, nil)
	var recs []arrow.RecordBatch
	for lo := 0; lo < rows; lo += batch {
		recs = append(recs, record(schema, lo, min(rows, lo+batch)))
	}
	write(filepath.Join(out, "go-lz4.arrow"), schema, recs, false, ipc.WithLZ4())
	write(filepath.Join(out, "go-zstd.arrows"), schema, recs, true, ipc.WithZstd())
	writeEdge(out)
}

// write writes the record batches recs of schema to path, in the stream
// format or the file format, with the writer's option opt.
func write(path string, schema *arrow.Schema, recs []arrow.RecordBatch, stream bool, opt ipc.Option) {
	f, err := os.Create(path)
	check(err)
	var w interface {
		Write(arrow.RecordBatch) error
		Close() error
	}
	if stream {
		w = ipc.NewWriter(f, ipc.WithSchema(schema), opt)
	} else {
		w, err = ipc.NewFileWriter(f, ipc.WithSchema(schema), opt)
		check(err)
	}
	for _, r := range recs {
		check(w.Write(r))
	}
	check(w.Close())
	check(f.Close())
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}

// record returns rows lo..hi-1 of gen.mjs's formula.
func record(schema *arrow.Schema, lo, hi int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	// Every batch's dictionary is red, green, blue in that order: the file
	// format allows one dictionary per column.
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	sb.AppendValues([]string{"red", "green", "blue"}, nil)
	check(b.Field(6).(*array.BinaryDictionaryBuilder).InsertStringDictValues(sb.NewStringArray()))
	for i := lo; i < hi; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.Int64Builder).Append(1<<33 + 7*int64(i))
		b.Field(2).(*array.Uint8Builder).Append(uint8(i % 256))
		x := b.Field(3).(*array.FixedSizeListBuilder)
		x.Append(true)
		for _, v := range []float32{float32(i), float32(i) + 0.5, -float32(i), float32(i) / 4} {
			x.ValueBuilder().(*array.Float32Builder).Append(v)
		}
		f64 := float64(i) / 10
		switch i {
		case 1:
			f64 = math.NaN()
		case 2:
			f64 = math.Inf(1)
		case 3:
			f64 = math.Inf(-1)
		}
		b.Field(4).(*array.Float64Builder).Append(f64)
		if i%5 == 0 {
			b.Field(5).(*array.StringBuilder).AppendNull()
		} else {
			b.Field(5).(*array.StringBuilder).Append(fmt.Sprintf("name-%d", i))
		}
		check(b.Field(6).(*array.BinaryDictionaryBuilder).AppendString([]string{"red", "green", "blue"}[i%3]))
		toks := b.Field(7).(*array.ListBuilder)
		if m := i % 4; m == 0 {
			toks.AppendNull()
		} else {
			toks.Append(true)
			vb := toks.ValueBuilder().(*array.Int32Builder)
			for k := 0; m > 1 && k < m; k++ {
				if k == 0 && i%7 == 3 {
					vb.AppendNull()
				} else {
					vb.Append(int32(i + k))
				}
			}
		}
		b.Field(8).(*array.BinaryBuilder).Append([]byte{byte(i % 256), byte(3 * i % 256)})
		b.Field(9).(*array.TimestampBuilder).Append(arrow.Timestamp(time.Unix(1700000000+int64(i), 0).UnixMilli()))
		b.Field(10).(*array.BooleanBuilder).Append(i%2 == 0)
	}
	return b.NewRecordBatch()
}
