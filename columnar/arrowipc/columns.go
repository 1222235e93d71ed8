package arrowipc

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/fileio"
	"github.com/obskit/obskit/fileio/mmap"
	"github.com/obskit/obskit/obsdim"
	"golang.org/x/exp/constraints"
)

// column returns the index of the column called name.
func (f *File) column(name string) (int, error) {
	for i, fd := range f.fields {
		if fd.Name == name {
			return i, nil
		}
	}
	return -1, fmtErr.Errorf(f.name, ErrColumn, "no column %q", name)
}

// Field returns the field of the column called name, and false when there is
// none.
func (f *File) Field(name string) (Field, bool) {
	i, err := f.column(name)
	if err != nil {
		return Field{}, false
	}
	return f.fields[i], true
}

// colErr returns an error about column name wrapping sentinel.
func (f *File) colErr(name string, sentinel error, format string, args ...any) error {
	return fmtErr.Errorf(f.name, sentinel, "column %q: %s", name, fmt.Sprintf(format, args...))
}

// storage returns the element kind a fixed-width Arrow type is stored as, and
// false for a type that is not a number.
func storage(t Type) (fileio.Kind, bool) {
	switch t.Kind {
	case Int:
		c := byte('u')
		if t.Signed {
			c = 'i'
		}
		return fileio.Kind{Class: c, Size: t.Bits / 8}, true
	case Float:
		if t.Bits == 16 {
			return fileio.Kind{}, false
		}
		return fileio.Kind{Class: 'f', Size: t.Bits / 8}, true
	case Timestamp, Duration:
		return fileio.Kind{Class: 'i', Size: 8}, true
	case Date:
		if t.Unit == "day" {
			return fileio.Kind{Class: 'i', Size: 4}, true
		}
		return fileio.Kind{Class: 'i', Size: 8}, true
	case Time:
		return fileio.Kind{Class: 'i', Size: t.Bits / 8}, true
	}
	return fileio.Kind{}, false
}

// arrays returns the node and decoded buffers of column col in batch k, from
// the cache for a compressed batch.
func (f *File) arrays(k int) ([][]byte, error) {
	b := f.batches[k]
	if b.meta.codec < 0 {
		return f.decode(b)
	}
	return f.cache.Get(k)
}

// view returns the first n elements of E of buf, or an error when buf is too
// short or misaligned.
func view[E arraycontainer.Number](f *File, name string, k int, buf []byte, n int) ([]E, error) {
	size := fileio.KindOf[E]().Size
	if int64(len(buf)) < int64(n)*int64(size) {
		return nil, f.errorf("column %q, batch %d: data buffer of %d bytes for %d values of %d bytes", name, k, len(buf), n, size)
	}
	v, ok := fileio.View[E](buf[:n*size])
	if !ok {
		return nil, f.errorf("column %q, batch %d: data buffer not aligned for %s", name, k, fileio.TypeName[E]())
	}
	return v, nil
}

// bitmap returns the validity bitmap of n rows, nil when there are no nulls.
func (f *File) bitmap(name string, k int, buf []byte, n int, nulls int64) ([]byte, error) {
	if nulls == 0 {
		return nil, nil
	}
	if int64(len(buf)) < (int64(n)+7)/8 {
		return nil, f.errorf("column %q, batch %d: validity bitmap of %d bytes for %d rows", name, k, len(buf), n)
	}
	return buf, nil
}

func isNull(bits []byte, r int) bool { return bits != nil && bits[r>>3]&(1<<(r&7)) == 0 }

func optionsOf(opts []Option) options {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// fillOf returns the fill value of o as an E; ok is false without one. A fill
// of another type panics at the caller's call site.
func fillOf[E arraycontainer.Number](op string, o options) (v E, ok bool) {
	if o.fill == nil {
		return v, false
	}
	v, ok = o.fill.(E)
	container.CheckArg(ok, op, "Fill value", o.fill, "a "+fileio.TypeName[E]())
	return v, true
}

// Numbers returns the column called name as a container of arrays: a column
// of numbers (int, uint, float32, float64, and timestamps, dates, times and
// durations as their integers) is a container of rank-0 arrays, a
// fixed_size_list<number>[w] one of arrays of shape [w]. E must be the
// column's storage type exactly (int64 for an int64 or timestamp column).
//
// When the file is uncompressed, every batch is a view of the mapping (no
// copy), and a file of one batch is one [*arraycontainer.Array] view
// ([columnar.Numbers.Array]) whose gathers are the array's kernel. Compressed
// batches are decompressed once into the file's cache ([Cache]) when first
// read. A column holding nulls is an error wrapping [ErrNull] unless [Fill]
// says what a null reads as; the column is then copied into memory with the
// fill at each null.
//
// Numbers returns an error wrapping [ErrColumn] when there is no such column,
// [ErrType] when the column is not of numbers of type E, and [ErrFormat] when
// its buffers are too short for its rows.
func Numbers[E arraycontainer.Number](f *File, name string, opts ...Option) (*columnar.Numbers[E], error) {
	const op = "arrowipc.Numbers"
	o := optionsOf(opts)
	fill, hasFill := fillOf[E](op, o)
	col, err := f.column(name)
	if err != nil {
		return nil, err
	}
	fd := f.fields[col]
	lay := f.layouts[col]
	// The values are the column's second buffer, or its child's.
	t, width, shape := fd.Type, 1, []int{}
	dataNode, dataBuf := lay.node, 1
	if t.Kind == FixedSizeList {
		t, width, shape = t.Elem.Type, t.Size, []int{t.Size}
		dataNode, dataBuf = lay.node+1, 2
	}
	k, ok := storage(t)
	if fd.Dict != nil || !ok || k != fileio.KindOf[E]() {
		return nil, f.colErr(name, ErrType, "%s cannot be read as %s", fd.TypeString(), fileio.TypeName[E]())
	}
	// The rows of each batch, with the nulls of the list and of its values.
	nulls := int64(0)
	for _, b := range f.batches {
		nulls += b.meta.nodes[lay.node].nulls
		if dataNode != lay.node {
			nulls += b.meta.nodes[dataNode].nulls
		}
	}
	if nulls > 0 && !hasFill {
		return nil, f.colErr(name, ErrNull, "%d nulls; say what a null reads as with arrowipc.Fill", nulls)
	}
	// Every batch must hold its rows' values, checked now, before any gather
	// sizes a batch buffer by the width: for a compressed batch, by the
	// length its buffer declares.
	size := int64(fileio.KindOf[E]().Size)
	for k, b := range f.batches {
		rows := b.meta.length
		if width > 0 && rows > math.MaxInt64/size/int64(width) {
			return nil, f.errorf("column %q, batch %d: %d rows of %d values overflow", name, k, rows, width)
		}
		if have, need := f.bufferLen(b, b.first[col]+dataBuf), rows*int64(width)*size; have < need {
			return nil, f.errorf("column %q, batch %d: data buffer of %d bytes for %d values of %d bytes", name, k, have, rows*int64(width), size)
		}
	}
	part := func(k int) (*columnar.Part[E], error) {
		bufs, err := f.arrays(k)
		if err != nil {
			return nil, err
		}
		b := f.batches[k]
		rows, first := int(b.meta.length), b.first[col]
		vals, err := view[E](f, name, k, bufs[first+dataBuf], rows*width)
		if err != nil {
			return nil, err
		}
		top, vn := b.meta.nodes[lay.node], b.meta.nodes[dataNode]
		if top.nulls == 0 && (dataNode == lay.node || vn.nulls == 0) {
			return &columnar.Part[E]{Values: vals}, nil
		}
		topBits, err := f.bitmap(name, k, bufs[first], rows, top.nulls)
		if err != nil {
			return nil, err
		}
		var valBits []byte
		if dataNode != lay.node {
			if valBits, err = f.bitmap(name, k, bufs[first+1], rows*width, vn.nulls); err != nil {
				return nil, err
			}
		}
		filled := make([]E, len(vals))
		for i, v := range vals {
			if isNull(topBits, i/width) || isNull(valBits, i) {
				v = fill
			}
			filled[i] = v
		}
		return &columnar.Part[E]{Values: filled}, nil
	}
	s, err := chunks(f, part, nulls > 0)
	if err != nil {
		return nil, err
	}
	var whole *arraycontainer.Array[E]
	if len(f.batches) == 1 && s.Region != nil {
		p := s.Part(0)
		if whole, err = arraycontainer.New(p.Values, append([]int{f.Nobs()}, shape...), obsdim.First); err != nil {
			return nil, err
		}
		mmap.Attach(whole, s.Region)
	}
	return columnar.NewNumbers(op, s, shape, whole), nil
}

// chunks makes the Chunks of a column from its part function: every part made
// now for an uncompressed file (so that a malformed batch is an error here),
// on demand through the cache for a compressed one. copied says the parts are
// Go memory even when the file is uncompressed.
func chunks[E any](f *File, part func(k int) (*columnar.Part[E], error), copied bool) (columnar.Chunks[E], error) {
	s := columnar.Chunks[E]{Starts: f.starts}
	if f.cache == nil {
		parts := make([]*columnar.Part[E], len(f.batches))
		for k := range parts {
			p, err := part(k)
			if err != nil {
				return s, err
			}
			parts[k] = p
		}
		s.Part = func(k int) *columnar.Part[E] { return parts[k] }
		if !copied {
			s.Region = f.region
		}
		return s, nil
	}
	s.Part = func(k int) *columnar.Part[E] {
		p, err := part(k)
		if err != nil {
			panic(err)
		}
		return p
	}
	return s, nil
}

// offsets returns the offsets of a variable-length array of n rows from buf,
// checked: n+1 of them, never decreasing, the last within limit.
func (f *File) offsets(name string, k int, buf []byte, n int, large bool, limit int) (o32 []int32, o64 []int64, err error) {
	if large {
		o64, err = view[int64](f, name, k, buf, n+1)
	} else {
		o32, err = view[int32](f, name, k, buf, n+1)
	}
	if err != nil {
		return nil, nil, err
	}
	prev := int64(-1)
	for i := 0; i <= n; i++ {
		var v int64
		if large {
			v = o64[i]
		} else {
			v = int64(o32[i])
		}
		if v < 0 || v < prev || v > int64(limit) {
			return nil, nil, f.errorf("column %q, batch %d: offset %d of row %d (previous %d, %d values)", name, k, v, i, prev, limit)
		}
		prev = v
	}
	return o32, o64, nil
}

// Lists returns the column called name, a list<E> or large_list<E> of
// numbers, as a container of variable-length lists: observation i is a []E,
// a batch a [columnar.Ragged] gathered with no allocation per observation.
// The values are views of the mapping when the file is uncompressed.
//
// A null list is an error wrapping [ErrNull] unless [NullEmpty] makes it read
// as empty; a null value inside a list is one unless [Fill] says what it reads
// as (the values are then copied). Lists returns an error wrapping
// [ErrColumn], [ErrType] or [ErrFormat] as [Numbers] does.
func Lists[E arraycontainer.Number](f *File, name string, opts ...Option) (*columnar.Lists[E], error) {
	const op = "arrowipc.Lists"
	o := optionsOf(opts)
	fill, hasFill := fillOf[E](op, o)
	col, err := f.column(name)
	if err != nil {
		return nil, err
	}
	fd, lay := f.fields[col], f.layouts[col]
	if fd.Dict != nil || (fd.Type.Kind != List && fd.Type.Kind != LargeList) {
		return nil, f.colErr(name, ErrType, "%s is not a list", fd.TypeString())
	}
	if k, ok := storage(fd.Type.Elem.Type); !ok || k != fileio.KindOf[E]() {
		return nil, f.colErr(name, ErrType, "%s cannot be read as lists of %s", fd.TypeString(), fileio.TypeName[E]())
	}
	var listNulls, valNulls int64
	for _, b := range f.batches {
		listNulls += b.meta.nodes[lay.node].nulls
		valNulls += b.meta.nodes[lay.node+1].nulls
	}
	if listNulls > 0 && !o.nullEmpty {
		return nil, f.colErr(name, ErrNull, "%d null lists; read them as empty with arrowipc.NullEmpty", listNulls)
	}
	if valNulls > 0 && !hasFill {
		return nil, f.colErr(name, ErrNull, "%d null values in its lists; say what a null reads as with arrowipc.Fill", valNulls)
	}
	large := fd.Type.Kind == LargeList
	part := func(k int) (*columnar.Part[E], error) {
		bufs, err := f.arrays(k)
		if err != nil {
			return nil, err
		}
		b := f.batches[k]
		rows, vn, first := int(b.meta.length), b.meta.nodes[lay.node+1], b.first[col]
		vals, err := view[E](f, name, k, bufs[first+3], int(vn.length))
		if err != nil {
			return nil, err
		}
		p := &columnar.Part[E]{Values: vals}
		if p.Off32, p.Off64, err = f.offsets(name, k, bufs[first+1], rows, large, len(vals)); err != nil {
			return nil, err
		}
		if p.Valid, err = f.bitmap(name, k, bufs[first], rows, b.meta.nodes[lay.node].nulls); err != nil {
			return nil, err
		}
		if p.Valid != nil {
			// A null list may own values in Arrow; it reads as empty.
			p = emptyNulls(p, rows)
		}
		if vn.nulls > 0 {
			bits, err := f.bitmap(name, k, bufs[first+2], len(vals), vn.nulls)
			if err != nil {
				return nil, err
			}
			filled := make([]E, len(vals))
			for i, v := range vals {
				if isNull(bits, i) {
					v = fill
				}
				filled[i] = v
			}
			p.Values = filled
		}
		return p, nil
	}
	s, err := chunks(f, part, valNulls > 0)
	if err != nil {
		return nil, err
	}
	return columnar.NewLists(op, s), nil
}

// emptyNulls returns p, whose null rows must read as empty: p itself when
// they are (as writers make them), a copy of its valid rows otherwise.
func emptyNulls[E any](p *columnar.Part[E], rows int) *columnar.Part[E] {
	for r := 0; r < rows; r++ {
		if p.Null(r) {
			if lo, hi := span(p, r); hi > lo {
				return rebuildNulls(p, rows)
			}
		}
	}
	return p
}

func span[E any](p *columnar.Part[E], r int) (int, int) {
	if p.Off32 != nil {
		return int(p.Off32[r]), int(p.Off32[r+1])
	}
	return int(p.Off64[r]), int(p.Off64[r+1])
}

// rebuildNulls copies the values of the valid rows of p into a new part whose
// null rows are empty.
func rebuildNulls[E any](p *columnar.Part[E], rows int) *columnar.Part[E] {
	q := &columnar.Part[E]{Off64: make([]int64, rows+1), Valid: p.Valid}
	for r := 0; r < rows; r++ {
		if !p.Null(r) {
			lo, hi := span(p, r)
			q.Values = append(q.Values, p.Values[lo:hi]...)
		}
		q.Off64[r+1] = int64(len(q.Values))
	}
	return q
}

// Strings returns the column called name, of utf8, large_utf8, binary or
// large_binary, or dictionary-encoded with such values, as a container of
// strings: observation i is a string, a batch a [columnar.Ragged] of bytes
// gathered with no allocation per observation. The bytes are views of the
// mapping when the file is uncompressed; a dictionary-encoded column reads as
// its values (its indices, checked against the dictionary, are converted once
// to int32). Its Binary method gives the rows as []byte, a container.Encoded:
// a column of encoded images decodes with imagedata.NewImages.
//
// A null is an error wrapping [ErrNull] unless [NullEmpty] makes it read as
// empty. Strings returns an error wrapping [ErrColumn], [ErrType] or
// [ErrFormat] as [Numbers] does.
func Strings(f *File, name string, opts ...Option) (*columnar.Strings, error) {
	const op = "arrowipc.Strings"
	o := optionsOf(opts)
	col, err := f.column(name)
	if err != nil {
		return nil, err
	}
	fd, lay := f.fields[col], f.layouts[col]
	switch fd.Type.Kind {
	case Utf8, LargeUtf8, Binary, LargeBinary:
	default:
		return nil, f.colErr(name, ErrType, "%s is not text or binary", fd.TypeString())
	}
	var nulls int64
	for _, b := range f.batches {
		nulls += b.meta.nodes[lay.node].nulls
	}
	if nulls > 0 && !o.nullEmpty {
		return nil, f.colErr(name, ErrNull, "%d nulls; read them as empty with arrowipc.NullEmpty", nulls)
	}
	large := fd.Type.Kind == LargeUtf8 || fd.Type.Kind == LargeBinary
	var dictPart *columnar.Part[byte]
	if fd.Dict != nil {
		d := f.dicts[fd.DictID]
		if d == nil {
			return nil, f.colErr(name, ErrFormat, "no dictionary batch with id %d", fd.DictID)
		}
		if d.b.meta.nodes[0].nulls > 0 {
			return nil, f.colErr(name, ErrUnsupported, "nulls in the dictionary")
		}
		dictPart = &columnar.Part[byte]{Values: d.bufs[2]}
		if dictPart.Off32, dictPart.Off64, err = f.offsets(name, -1, d.bufs[1], d.rows, large, len(d.bufs[2])); err != nil {
			return nil, err
		}
	}
	part := func(k int) (*columnar.Part[byte], error) {
		bufs, err := f.arrays(k)
		if err != nil {
			return nil, err
		}
		b := f.batches[k]
		rows, nd, first := int(b.meta.length), b.meta.nodes[lay.node], b.first[col]
		p := &columnar.Part[byte]{}
		if p.Valid, err = f.bitmap(name, k, bufs[first], rows, nd.nulls); err != nil {
			return nil, err
		}
		if dictPart != nil {
			if p.Keys, err = keys(f, name, k, *fd.Dict, bufs[first+1], rows, p.Valid, dictPart); err != nil {
				return nil, err
			}
			p.Dict = dictPart
			return p, nil
		}
		p.Values = bufs[first+2]
		if p.Off32, p.Off64, err = f.offsets(name, k, bufs[first+1], rows, large, len(p.Values)); err != nil {
			return nil, err
		}
		if p.Valid != nil {
			p = emptyNulls(p, rows)
		}
		return p, nil
	}
	s, err := chunks(f, part, false)
	if err != nil {
		return nil, err
	}
	s.Name = fmt.Sprintf("%s: column %q", f.name, name)
	return columnar.NewStrings(op, s), nil
}

// keys converts the dictionary indices of a batch to int32, checking each
// against the dictionary; a null row gets an empty value's key, or -1 read as
// empty through an empty dictionary row.
func keys(f *File, name string, k int, it Type, buf []byte, rows int, valid []byte, d *columnar.Part[byte]) ([]int32, error) {
	size := it.Bits / 8
	if len(buf) < rows*size {
		return nil, f.errorf("column %q, batch %d: index buffer of %d bytes for %d rows", name, k, len(buf), rows)
	}
	n := d.Len()
	out := make([]int32, rows)
	for r := range out {
		if isNull(valid, r) {
			out[r] = -1
			continue
		}
		var v int64
		switch size {
		case 1:
			v = int64(buf[r])
			if it.Signed {
				v = int64(int8(buf[r]))
			}
		case 2:
			v = int64(binary.LittleEndian.Uint16(buf[2*r:]))
			if it.Signed {
				v = int64(int16(v))
			}
		case 4:
			v = int64(binary.LittleEndian.Uint32(buf[4*r:]))
			if it.Signed {
				v = int64(int32(v))
			}
		default:
			v = int64(binary.LittleEndian.Uint64(buf[8*r:]))
		}
		if v < 0 || v >= int64(n) {
			return nil, f.errorf("column %q, batch %d: row %d has dictionary index %d, the dictionary has %d values", name, k, r, v, n)
		}
		out[r] = int32(v)
	}
	return out, nil
}

// Valid returns the validity of the column called name: observation i is false
// when row i is null. It is read from the validity bitmaps into memory, one bool
// a row (all true for a column without nulls); zip it beside a column read with
// [Fill] or [NullEmpty] to keep the nulls explicit. It returns an error wrapping
// [ErrColumn] or [ErrFormat], and one wrapping [ErrUnsupported] for a column
// whose rows take no bytes of the file (of type null or run-end encoded, a
// struct of such columns), whose row count the file's size does not bound.
func Valid(f *File, name string) (container.Slice[bool], error) {
	col, err := f.column(name)
	if err != nil {
		return nil, err
	}
	lay := f.layouts[col]
	if fd := f.fields[col]; !backed(fd) {
		return nil, f.colErr(name, ErrUnsupported, "the rows of a %s column take no bytes of the file", fd.TypeString())
	}
	out := make([]bool, f.Nobs())
	for k, b := range f.batches {
		rows, nd := int(b.meta.length), b.meta.nodes[lay.node]
		v := out[f.starts[k]:f.starts[k+1]]
		if nd.nulls == 0 {
			for r := range v {
				v[r] = true
			}
			continue
		}
		bufs, err := f.arrays(k)
		if err != nil {
			return nil, err
		}
		bits, err := f.bitmap(name, k, bufs[b.first[col]], rows, nd.nulls)
		if err != nil {
			return nil, err
		}
		for r := range v {
			v[r] = !isNull(bits, r)
		}
	}
	return container.FromSlice(out), nil
}

// Scalars returns a column of numbers as a container.Slice in memory, a copy:
// the form labels take beside features (tuples.Zip2), which
// subset.StratifiedSplit reads. Its types, options and errors are those of
// [Numbers]; a fixed_size_list column is an error wrapping [ErrType].
func Scalars[E arraycontainer.Number](f *File, name string, opts ...Option) (container.Slice[E], error) {
	c, err := Numbers[E](f, name, opts...)
	if err != nil {
		return nil, err
	}
	if len(c.ObsShape()) != 0 {
		fd, _ := f.Field(name)
		return nil, f.colErr(name, ErrType, "%s is not a column of scalars", fd.TypeString())
	}
	out := make([]E, c.Nobs())
	for k := 0; k < c.Chunks(); k++ {
		copy(out[f.starts[k]:], c.Chunk(k).Data()[:f.starts[k+1]-f.starts[k]])
	}
	return container.FromSlice(out), nil
}

// Labels returns an integer column as labels of type int, the form
// subset's stratified splits and eachobs.ShuffleWithin read, so that a caller
// names no element type: it is [Scalars] of the column's own integer type,
// converted. It returns an error wrapping [ErrType] for a column that is not
// of integers, or holds an unsigned value beyond int's range, naming the
// column; otherwise its options and errors are those of Scalars.
func Labels(f *File, name string, opts ...Option) (container.Slice[int], error) {
	col, err := f.column(name)
	if err != nil {
		return nil, err
	}
	fd := f.fields[col]
	switch k, _ := storage(fd.Type); {
	case fd.Type.Kind != Int:
		return nil, f.colErr(name, ErrType, "%s cannot be read as integer labels", fd.TypeString())
	case k == fileio.KindOf[int8]():
		return labelsOf[int8](f, name, opts)
	case k == fileio.KindOf[int16]():
		return labelsOf[int16](f, name, opts)
	case k == fileio.KindOf[int32]():
		return labelsOf[int32](f, name, opts)
	case k == fileio.KindOf[int64]():
		return labelsOf[int64](f, name, opts)
	case k == fileio.KindOf[uint8]():
		return labelsOf[uint8](f, name, opts)
	case k == fileio.KindOf[uint16]():
		return labelsOf[uint16](f, name, opts)
	case k == fileio.KindOf[uint32]():
		return labelsOf[uint32](f, name, opts)
	default:
		return labelsOf[uint64](f, name, opts)
	}
}

// labelsOf reads a column with Scalars[E] and converts it to int labels.
func labelsOf[E constraints.Integer](f *File, name string, opts []Option) (container.Slice[int], error) {
	s, err := Scalars[E](f, name, opts...)
	if err != nil {
		return nil, err
	}
	out, bad := fileio.IntLabels(s)
	if bad >= 0 {
		return nil, f.colErr(name, ErrType, "row %d holds %v, beyond int's range", bad, s[bad])
	}
	return container.FromSlice(out), nil
}

// Nulls returns the number of nulls of the column called name, from the
// batches' headers (no data is read), and 0 when there is no such column.
func (f *File) Nulls(name string) int64 {
	col, err := f.column(name)
	if err != nil {
		return 0
	}
	var n int64
	for _, b := range f.batches {
		n += b.meta.nodes[f.layouts[col].node].nulls
	}
	return n
}

// bufferLen returns the size of buffer i of batch b once decompressed: its
// length, or for a compressed buffer the length its prefix declares (-1 for
// none: the raw bytes follow). A buffer outside the batch's list has size 0.
func (f *File) bufferLen(b batch, i int) int64 {
	if i >= len(b.meta.buffers) {
		return 0
	}
	s := b.meta.buffers[i]
	if b.meta.codec < 0 || s.len < 8 {
		return s.len
	}
	n := int64(binary.LittleEndian.Uint64(b.body[s.off:]))
	if n == -1 {
		return s.len - 8
	}
	return n
}
