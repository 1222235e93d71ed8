// Package arrowtest writes Arrow IPC files and streams of fixed-width columns
// for the tests and benchmarks of package arrowipc: data of any size, in any
// number of record batches, with LZ4 frame or ZSTD compressed buffers. The
// interop tests read files of independent writers; this writer makes what those
// cannot: large tables for benchmarks, compressed batches, random shapes for
// property tests, and seeds for the fuzz target.
package arrowtest

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// A Column is one column to write: Float32 or Int64 values (one of them),
// Width values a row (a fixed_size_list when Width > 1).
type Column struct {
	Name    string
	Float32 []float32
	Int64   []int64
	Width   int
}

// Codecs of Options.Codec.
const (
	None = -1
	LZ4  = 0
	ZSTD = 1
)

// Options says how to write.
type Options struct {
	Stream bool // the stream format rather than the file format
	Batch  int  // rows a record batch, all rows in one when 0
	Codec  int  // None, LZ4 or ZSTD
}

// Write returns the bytes of an Arrow IPC file (or stream) holding the columns,
// which must all have the same number of rows.
func Write(cols []Column, o Options) []byte {
	rows := 0
	if len(cols) > 0 {
		c := cols[0]
		rows = (len(c.Float32) + len(c.Int64)) / max(c.Width, 1)
	}
	var out bytes.Buffer
	if !o.Stream {
		out.WriteString("ARROW1\x00\x00")
	}
	schemaMsg := message(1, schema(cols), 0)
	writeMessage(&out, schemaMsg, nil)
	var blocks [][3]int64
	step := o.Batch
	if step <= 0 {
		step = max(rows, 1)
	}
	for lo := 0; lo < rows || lo == 0 && rows == 0; lo += step {
		hi := min(rows, lo+step)
		meta, body := batch(cols, lo, hi, o.Codec)
		off := int64(out.Len())
		metaLen := writeMessage(&out, meta, body)
		blocks = append(blocks, [3]int64{off, int64(metaLen), int64(len(body))})
		if rows == 0 {
			break
		}
	}
	out.Write([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0})
	if !o.Stream {
		footer := footer(cols, blocks)
		out.Write(footer)
		binary.Write(&out, binary.LittleEndian, int32(len(footer)))
		out.WriteString("ARROW1")
	}
	return out.Bytes()
}

// writeMessage writes an encapsulated message and returns the length of its
// prefix and metadata.
func writeMessage(out *bytes.Buffer, meta, body []byte) int {
	// The body starts 64-aligned in the file, as Arrow recommends and its
	// writers do, so that rows are aligned as in a .npy file.
	pad := (64 - (out.Len()+8+len(meta))%64) % 64
	out.Write([]byte{0xFF, 0xFF, 0xFF, 0xFF})
	binary.Write(out, binary.LittleEndian, int32(len(meta)+pad))
	out.Write(meta)
	out.Write(make([]byte, pad))
	out.Write(body)
	return 8 + len(meta) + pad
}

func elemType(c Column) obj {
	if c.Float32 != nil {
		return table{fields: []field{i16(1)}} // FloatingPoint{precision: SINGLE}
	}
	return table{fields: []field{i32(64), u8(1)}} // Int{bitWidth: 64, is_signed}
}

func elemKind(c Column) uint8 {
	if c.Float32 != nil {
		return 3
	}
	return 2
}

func fieldOf(c Column) obj {
	if c.Width > 1 {
		item := table{fields: []field{str("item"), u8(0), u8(elemKind(c)), ref(elemType(c)), absent(), ref(tables(nil))}}
		return table{fields: []field{str(c.Name), u8(0), u8(16), ref(table{fields: []field{i32(int32(c.Width))}}), absent(), ref(tables([]obj{item}))}}
	}
	return table{fields: []field{str(c.Name), u8(0), u8(elemKind(c)), ref(elemType(c)), absent(), ref(tables(nil))}}
}

func schema(cols []Column) obj {
	var fs []obj
	for _, c := range cols {
		fs = append(fs, fieldOf(c))
	}
	return table{fields: []field{i16(0), ref(tables(fs))}}
}

// message returns a Message flatbuffer: version V5, a header of type kind.
func message(kind uint8, header obj, bodyLen int64) []byte {
	return build(table{fields: []field{i16(4), u8(kind), ref(header), i64(bodyLen)}})
}

// batch returns the metadata and body of a record batch of rows lo..hi-1.
func batch(cols []Column, lo, hi, codec int) ([]byte, []byte) {
	var body bytes.Buffer
	var nodes, bufs []byte
	node := func(n int) {
		nodes = binary.LittleEndian.AppendUint64(nodes, uint64(n))
		nodes = binary.LittleEndian.AppendUint64(nodes, 0)
	}
	buffer := func(b []byte) {
		if codec != None && len(b) > 0 {
			b = compress(b, codec)
		}
		off := body.Len()
		body.Write(b)
		for body.Len()%64 != 0 {
			body.WriteByte(0)
		}
		bufs = binary.LittleEndian.AppendUint64(bufs, uint64(off))
		bufs = binary.LittleEndian.AppendUint64(bufs, uint64(len(b)))
	}
	for _, c := range cols {
		w := max(c.Width, 1)
		node(hi - lo)
		buffer(nil) // no validity bitmap: no nulls
		if c.Width > 1 {
			node((hi - lo) * w)
			buffer(nil)
		}
		var data []byte
		if c.Float32 != nil {
			for _, v := range c.Float32[lo*w : hi*w] {
				data = binary.LittleEndian.AppendUint32(data, math.Float32bits(v))
			}
		} else {
			for _, v := range c.Int64[lo*w : hi*w] {
				data = binary.LittleEndian.AppendUint64(data, uint64(v))
			}
		}
		buffer(data)
	}
	fields := []field{i64(int64(hi - lo)), ref(structs(nodes, 16)), ref(structs(bufs, 16))}
	if codec != None {
		fields = append(fields, ref(table{fields: []field{u8(uint8(codec)), u8(0)}}))
	}
	return message(3, table{fields: fields}, int64(body.Len())), body.Bytes()
}

// compress returns b compressed with its 8-byte uncompressed length prefix.
func compress(b []byte, codec int) []byte {
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(b)))
	var buf bytes.Buffer
	if codec == LZ4 {
		w := lz4.NewWriter(&buf)
		w.Write(b)
		w.Close()
	} else {
		w, _ := zstd.NewWriter(&buf)
		w.Write(b)
		w.Close()
	}
	return append(out, buf.Bytes()...)
}

func footer(cols []Column, blocks [][3]int64) []byte {
	var bs []byte
	for _, b := range blocks {
		bs = binary.LittleEndian.AppendUint64(bs, uint64(b[0]))
		bs = binary.LittleEndian.AppendUint32(bs, uint32(b[1]))
		bs = binary.LittleEndian.AppendUint32(bs, 0)
		bs = binary.LittleEndian.AppendUint64(bs, uint64(b[2]))
	}
	return build(table{fields: []field{i16(4), ref(schema(cols)), ref(structs(nil, 24)), ref(structs(bs, 24))}})
}

// A tiny FlatBuffers builder, front to back: every object is written after
// the offsets that point to it (offsets are unsigned, forward), a table's
// vtable just before it.

type obj interface{ write(b *buf) int }

type field struct {
	scalar []byte // little-endian bytes of a scalar field
	child  obj    // or the object an offset field points to
	absent bool
}

func u8(v uint8) field   { return field{scalar: []byte{v}} }
func i16(v int16) field  { return field{scalar: binary.LittleEndian.AppendUint16(nil, uint16(v))} }
func i32(v int32) field  { return field{scalar: binary.LittleEndian.AppendUint32(nil, uint32(v))} }
func i64(v int64) field  { return field{scalar: binary.LittleEndian.AppendUint64(nil, uint64(v))} }
func ref(o obj) field    { return field{child: o} }
func str(s string) field { return field{child: strObj(s)} }
func absent() field      { return field{absent: true} }

type buf struct{ b []byte }

func (b *buf) pad(align, rem int) {
	for len(b.b)%align != rem {
		b.b = append(b.b, 0)
	}
}

type table struct{ fields []field }

func (t table) write(b *buf) int {
	// Lay the table out: the soffset, then each field aligned to its size.
	offs := make([]int, len(t.fields))
	size := 4
	for i, f := range t.fields {
		switch {
		case f.absent:
			continue
		case f.child != nil:
			size = (size + 3) &^ 3
			offs[i], size = size, size+4
		default:
			n := len(f.scalar)
			size = (size + n - 1) &^ (n - 1)
			offs[i], size = size, size+n
		}
	}
	b.pad(2, 0)
	vt := len(b.b)
	b.b = binary.LittleEndian.AppendUint16(b.b, uint16(4+2*len(t.fields)))
	b.b = binary.LittleEndian.AppendUint16(b.b, uint16(size))
	for _, o := range offs {
		b.b = binary.LittleEndian.AppendUint16(b.b, uint16(o))
	}
	b.pad(8, 0)
	start := len(b.b)
	b.b = append(b.b, make([]byte, size)...)
	binary.LittleEndian.PutUint32(b.b[start:], uint32(int32(start-vt)))
	for i, f := range t.fields {
		if !f.absent && f.child == nil {
			copy(b.b[start+offs[i]:], f.scalar)
		}
	}
	for i, f := range t.fields {
		if f.child != nil {
			at := start + offs[i]
			pos := f.child.write(b)
			binary.LittleEndian.PutUint32(b.b[at:], uint32(pos-at))
		}
	}
	return start
}

type strObj string

func (s strObj) write(b *buf) int {
	b.pad(4, 0)
	start := len(b.b)
	b.b = binary.LittleEndian.AppendUint32(b.b, uint32(len(s)))
	b.b = append(append(b.b, s...), 0)
	return start
}

type tables []obj

func (ts tables) write(b *buf) int {
	b.pad(4, 0)
	start := len(b.b)
	b.b = binary.LittleEndian.AppendUint32(b.b, uint32(len(ts)))
	slots := len(b.b)
	b.b = append(b.b, make([]byte, 4*len(ts))...)
	for i, t := range ts {
		at := slots + 4*i
		pos := t.write(b)
		binary.LittleEndian.PutUint32(b.b[at:], uint32(pos-at))
	}
	return start
}

type structsObj struct {
	raw  []byte
	size int
}

func structs(raw []byte, size int) obj { return structsObj{raw, size} }

func (s structsObj) write(b *buf) int {
	b.pad(8, 4)
	start := len(b.b)
	b.b = binary.LittleEndian.AppendUint32(b.b, uint32(len(s.raw)/s.size))
	b.b = append(b.b, s.raw...)
	return start
}

// build returns the flatbuffer of the root object o.
func build(o obj) []byte {
	b := &buf{b: make([]byte, 4)}
	pos := o.write(b)
	binary.LittleEndian.PutUint32(b.b, uint32(pos))
	b.pad(8, 0)
	return b.b
}
