package arrowipc

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/obskit/obskit/container"
)

// Printable reports whether [File.Row] can read the field: numbers, bool,
// text, binary, timestamps, dates, dictionary-encoded values and lists of
// those. It returns the error [File.Row] would give for the first field it
// cannot read, wrapping [ErrUnsupported] and naming the column, or nil.
func (f *File) Printable() error {
	for _, fd := range f.fields {
		if !printable(fd) {
			return f.colErr(fd.Name, ErrUnsupported, "%s values cannot be read as plain values", fd.TypeString())
		}
	}
	return nil
}

func printable(fd Field) bool {
	switch fd.Type.Kind {
	case Int, Bool, Utf8, LargeUtf8, Binary, LargeBinary, FixedSizeBinary, Timestamp, Date, Null:
		return true
	case Float:
		return fd.Type.Bits != 16
	case List, LargeList, FixedSizeList:
		// A list of nulls is refused: its values take no bytes, so nothing
		// bounds the memory a row of them would take.
		return fd.Dict == nil && printable(*fd.Type.Elem) && backed(*fd.Type.Elem)
	}
	return false
}

// Row returns the values of row i of every column, in schema order, as plain Go
// values: nil for a null; int64 or uint64 for an int; float32 or float64; bool;
// string for utf8; []byte for binary; time.Time for a timestamp (in its zone,
// UTC when it has none) or a date; []any for a list. A dictionary-encoded
// column gives its values. It is the slow, general path that obskit table cat
// prints from; containers are the fast one. Row reuses dst's memory when it has
// room. It panics with a *container.IndexError when i is out of range. It returns the error of [File.Printable] for a column it cannot
// read, and one wrapping [ErrFormat] for a malformed batch.
func (f *File) Row(i int, dst []any) (out []any, err error) {
	container.CheckIndex("arrowipc.File.Row", i, f.Nobs())
	if err := f.Printable(); err != nil {
		return nil, err
	}
	k := f.find(i)
	bufs, err := f.arrays(k)
	if err != nil {
		return nil, err
	}
	defer f.region.RecoverError(f.region.Guard(), &err)
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(error)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	b := f.batches[k]
	out = dst[:0]
	for c, fd := range f.fields {
		lay := f.layouts[c]
		v := f.value(fd, b, bufs, lay.node, b.first[c], i-f.starts[k], k)
		out = append(out, v)
	}
	return out, nil
}

// find returns the batch holding row i.
func (f *File) find(i int) int {
	lo, hi := 0, len(f.batches)
	for lo < hi {
		m := (lo + hi) / 2
		if f.starts[m+1] <= i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// need panics with a format error unless buf holds n bytes.
func (f *File) need(fd Field, k int, buf []byte, n int64) {
	if n < 0 || int64(len(buf)) < n {
		panic(f.errorf("column %q, batch %d: buffer of %d bytes, %d needed", fd.Name, k, len(buf), n))
	}
}

// value returns row r of the array of field fd at field node nd and buffer bf
// of batch b (buffers bufs).
func (f *File) value(fd Field, b batch, bufs [][]byte, nd, bf, r, k int) any {
	if nd >= len(b.meta.nodes) || bf+buffersOf(fd.Type) > len(bufs) {
		panic(f.errorf("column %q, batch %d: fewer arrays than the schema needs", fd.Name, k))
	}
	n := b.meta.nodes[nd]
	if int64(r) >= n.length {
		panic(f.errorf("column %q, batch %d: row %d of an array of %d", fd.Name, k, r, n.length))
	}
	if fd.Type.Kind == Null {
		return nil
	}
	if n.nulls > 0 {
		f.need(fd, k, bufs[bf], int64(r)/8+1)
		if isNull(bufs[bf], r) {
			return nil
		}
	}
	if fd.Dict != nil {
		d := f.dicts[fd.DictID]
		if d == nil {
			panic(f.colErr(fd.Name, ErrFormat, "no dictionary batch with id %d", fd.DictID))
		}
		size := fd.Dict.Bits / 8
		f.need(fd, k, bufs[bf+1], int64(r+1)*int64(size))
		key := intAt(bufs[bf+1], r, size, fd.Dict.Signed)
		if key < 0 || key >= int64(d.rows) {
			panic(f.errorf("column %q, batch %d: row %d has dictionary index %d, the dictionary has %d values", fd.Name, k, r, key, d.rows))
		}
		vf := Field{Name: fd.Name, Type: fd.Type}
		return f.value(vf, d.b, d.bufs, 0, 0, int(key), -1)
	}
	t := fd.Type
	data := func(size int) []byte {
		f.need(fd, k, bufs[bf+1], int64(r+1)*int64(size))
		return bufs[bf+1][r*size : (r+1)*size]
	}
	switch t.Kind {
	case Int:
		v := intAt(data(t.Bits/8), 0, t.Bits/8, t.Signed)
		if !t.Signed {
			return uint64(v) & (math.MaxUint64 >> (64 - t.Bits))
		}
		return v
	case Float:
		if t.Bits == 32 {
			return math.Float32frombits(binary.LittleEndian.Uint32(data(4)))
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(data(8)))
	case Bool:
		f.need(fd, k, bufs[bf+1], int64(r)/8+1)
		return bufs[bf+1][r>>3]&(1<<(r&7)) != 0
	case Timestamp:
		v := intAt(data(8), 0, 8, true)
		var ts time.Time
		switch t.Unit {
		case "s":
			ts = time.Unix(v, 0)
		case "ms":
			ts = time.UnixMilli(v)
		case "us":
			ts = time.UnixMicro(v)
		default:
			ts = time.Unix(0, v)
		}
		if loc, err := time.LoadLocation(t.Zone); t.Zone != "" && err == nil {
			return ts.In(loc)
		}
		return ts.UTC()
	case Date:
		if t.Unit == "day" {
			return time.Unix(intAt(data(4), 0, 4, true)*86400, 0).UTC()
		}
		return time.UnixMilli(intAt(data(8), 0, 8, true)).UTC()
	case FixedSizeBinary:
		w := t.Bits / 8
		return append([]byte{}, data(w)...)
	case Utf8, Binary, LargeUtf8, LargeBinary:
		large := t.Kind == LargeUtf8 || t.Kind == LargeBinary
		lo, hi := f.span(fd, k, bufs[bf+1], r, large)
		f.need(fd, k, bufs[bf+2], hi)
		if t.Kind == Utf8 || t.Kind == LargeUtf8 {
			return string(bufs[bf+2][lo:hi])
		}
		return append([]byte{}, bufs[bf+2][lo:hi]...)
	case List, LargeList:
		lo, hi := f.span(fd, k, bufs[bf+1], r, t.Kind == LargeList)
		f.children(fd, k, b, nd, hi)
		out := make([]any, 0, hi-lo)
		for j := lo; j < hi; j++ {
			out = append(out, f.value(*t.Elem, b, bufs, nd+1, bf+2, int(j), k))
		}
		return out
	case FixedSizeList:
		f.children(fd, k, b, nd, int64(r+1)*int64(t.Size))
		out := make([]any, 0, t.Size)
		for j := r * t.Size; j < (r+1)*t.Size; j++ {
			out = append(out, f.value(*t.Elem, b, bufs, nd+1, bf+1, j, k))
		}
		return out
	}
	panic(f.colErr(fd.Name, ErrUnsupported, "%s", fd.TypeString()))
}

// span returns the offsets of row r of a variable-length array.
func (f *File) span(fd Field, k int, buf []byte, r int, large bool) (int64, int64) {
	size := 4
	if large {
		size = 8
	}
	f.need(fd, k, buf, int64(r+2)*int64(size))
	lo, hi := intAt(buf, r, size, true), intAt(buf, r+1, size, true)
	if lo < 0 || hi < lo {
		panic(f.errorf("column %q, batch %d: offsets %d, %d of row %d", fd.Name, k, lo, hi, r))
	}
	return lo, hi
}

// intAt returns integer j of size bytes of b.
func intAt(b []byte, j, size int, signed bool) int64 {
	switch size {
	case 1:
		if signed {
			return int64(int8(b[j]))
		}
		return int64(b[j])
	case 2:
		v := binary.LittleEndian.Uint16(b[2*j:])
		if signed {
			return int64(int16(v))
		}
		return int64(v)
	case 4:
		v := binary.LittleEndian.Uint32(b[4*j:])
		if signed {
			return int64(int32(v))
		}
		return int64(v)
	}
	return int64(binary.LittleEndian.Uint64(b[8*j:]))
}

// children panics with a format error unless the child array of the list at
// field node nd holds at least n values: checked before a list's values are
// allocated, so that a size in the file cannot claim memory its data lacks.
func (f *File) children(fd Field, k int, b batch, nd int, n int64) {
	if nd+1 >= len(b.meta.nodes) || b.meta.nodes[nd+1].length < n {
		panic(f.errorf("column %q, batch %d: a list needs %d values, its child array has fewer", fd.Name, k, n))
	}
}
