package main

import (
	"fmt"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

const edgeRows, edgeBatch = 200, 50

// writeEdge writes the edge table of gen.mjs (200 rows, in batches of 50,
// ZSTD buffers, the stream format) to edge-go.arrows. Its null lists (own)
// and null strings (owns) own values, as Arrow allows and the writers of
// the other fixtures never do: in the batches of rows 0-49 and 150-199 each
// owns one value (the list 999, the string "#"), in rows 50-99 two (998, 997
// and "##"), in rows 100-149 none. A reader must still read them as null.
func writeEdge(out string) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "i32n", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "one", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "u16", Type: arrow.PrimitiveTypes.Uint16},
		{Name: "u32", Type: arrow.PrimitiveTypes.Uint32},
		{Name: "u64", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32},
		{Name: "fsl", Type: arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Float32), Nullable: true},
		{Name: "fse", Type: arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int16)},
		{Name: "req", Type: arrow.ListOfNonNullable(arrow.PrimitiveTypes.Int32)},
		{Name: "reqn", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)},
		{Name: "optr", Type: arrow.ListOfNonNullable(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "dcat", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}, Nullable: true},
		{Name: "own", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "owns", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	var recs []arrow.RecordBatch
	for lo := 0; lo < edgeRows; lo += edgeBatch {
		recs = append(recs, edgeRecord(schema, lo, min(edgeRows, lo+edgeBatch)))
	}
	write(filepath.Join(out, "edge-go.arrows"), schema, recs, true, ipc.WithZstd())
}

// owned returns how many values a null row of own and owns owns in the batch
// starting at row lo.
func owned(lo int) int { return []int{1, 2, 0, 1}[lo/edgeBatch] }

// edgeRecord returns rows lo..hi-1 of the edge table.
func edgeRecord(schema *arrow.Schema, lo, hi int) arrow.RecordBatch {
	mem := memory.DefaultAllocator
	b := array.NewRecordBuilder(mem, schema)
	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"alpha", "", "gamma"}, nil)
	check(b.Field(12).(*array.BinaryDictionaryBuilder).InsertStringDictValues(sb.NewStringArray()))
	for i := lo; i < hi; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		if i%3 == 1 {
			b.Field(1).(*array.Int32Builder).AppendNull()
		} else {
			b.Field(1).(*array.Int32Builder).Append(int32(7*i - 500))
		}
		if i == 57 {
			b.Field(2).(*array.Float64Builder).AppendNull()
		} else {
			b.Field(2).(*array.Float64Builder).Append(float64(i) + 0.5)
		}
		b.Field(3).(*array.Uint16Builder).Append(uint16(65535 - 300*i))
		b.Field(4).(*array.Uint32Builder).Append(uint32(4294967295 - 1000003*i))
		b.Field(5).(*array.Uint64Builder).Append(1<<63 + 12345*uint64(i))
		b.Field(6).(*array.Date32Builder).Append(arrow.Date32(i - 100))
		fsl := b.Field(7).(*array.FixedSizeListBuilder)
		if i%5 == 2 {
			fsl.AppendNull()
		} else {
			fsl.Append(true)
			vb := fsl.ValueBuilder().(*array.Float32Builder)
			vb.Append(float32(i))
			if i%7 == 4 {
				vb.AppendNull()
			} else {
				vb.Append(-float32(i))
			}
			vb.Append(float32(i) / 8)
		}
		fse := b.Field(8).(*array.FixedSizeListBuilder)
		fse.Append(true)
		eb := fse.ValueBuilder().(*array.Int16Builder)
		if i%6 == 3 {
			eb.AppendNull()
		} else {
			eb.Append(int16(i))
		}
		eb.Append(int16(1000 - 10*i))
		req := b.Field(9).(*array.ListBuilder)
		req.Append(true)
		for k := range i % 4 {
			req.ValueBuilder().(*array.Int32Builder).Append(int32(i + k))
		}
		reqn := b.Field(10).(*array.ListBuilder)
		reqn.Append(true)
		if i%3 != 0 {
			vb := reqn.ValueBuilder().(*array.Int32Builder)
			if i%5 == 1 {
				vb.AppendNull()
			} else {
				vb.Append(int32(i))
			}
			vb.Append(int32(2 * i))
		}
		optr := b.Field(11).(*array.ListBuilder)
		if i%3 == 0 {
			optr.AppendNull()
		} else {
			optr.Append(true)
			optr.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{int32(i), int32(i + 100)}[:1+i%2], nil)
		}
		if i%6 == 5 {
			b.Field(12).(*array.BinaryDictionaryBuilder).AppendNull()
		} else {
			check(b.Field(12).(*array.BinaryDictionaryBuilder).AppendString([]string{"alpha", "", "gamma"}[i%3]))
		}
		// own and owns: placeholders, replaced below.
		b.Field(13).(*array.ListBuilder).AppendNull()
		b.Field(14).(*array.StringBuilder).AppendNull()
	}
	rec := b.NewRecordBatch()
	cols := rec.Columns()[:13:13]
	cols = append(cols, ownList(lo, hi), ownStrings(lo, hi))
	return array.NewRecordBatch(schema, cols, int64(hi-lo))
}

// validity returns the validity bitmap of rows lo..hi-1 whose rows with
// i%4 == 2 are null, and their number.
func validity(lo, hi int) ([]byte, int) {
	bits := make([]byte, bitutil.BytesForBits(int64(hi-lo)))
	nulls := 0
	for i := lo; i < hi; i++ {
		if i%4 == 2 {
			nulls++
		} else {
			bitutil.SetBit(bits, i-lo)
		}
	}
	return bits, nulls
}

// ownList returns column own of rows lo..hi-1: [i, -i], or a null that owns
// owned(lo) values 999, 998, ...
func ownList(lo, hi int) arrow.Array {
	var vals, offs []int32
	offs = append(offs, 0)
	for i := lo; i < hi; i++ {
		if i%4 == 2 {
			for k := range owned(lo) {
				vals = append(vals, int32(999-k))
			}
		} else {
			vals = append(vals, int32(i), int32(-i))
		}
		offs = append(offs, int32(len(vals)))
	}
	bits, nulls := validity(lo, hi)
	child := array.NewData(arrow.PrimitiveTypes.Int32, len(vals), []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(vals))}, nil, 0, 0)
	data := array.NewData(arrow.ListOf(arrow.PrimitiveTypes.Int32), hi-lo,
		[]*memory.Buffer{memory.NewBufferBytes(bits), memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs))},
		[]arrow.ArrayData{child}, nulls, 0)
	return array.MakeFromData(data)
}

// ownStrings returns column owns of rows lo..hi-1: "s<i>", or a null that
// owns owned(lo) bytes "#".
func ownStrings(lo, hi int) arrow.Array {
	var vals []byte
	offs := []int32{0}
	for i := lo; i < hi; i++ {
		if i%4 == 2 {
			for range owned(lo) {
				vals = append(vals, '#')
			}
		} else {
			vals = append(vals, fmt.Sprintf("s%d", i)...)
		}
		offs = append(offs, int32(len(vals)))
	}
	bits, nulls := validity(lo, hi)
	data := array.NewData(arrow.BinaryTypes.String, hi-lo,
		[]*memory.Buffer{memory.NewBufferBytes(bits), memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs)), memory.NewBufferBytes(vals)},
		nil, nulls, 0)
	return array.MakeFromData(data)
}
