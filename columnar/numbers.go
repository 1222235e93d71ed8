package columnar

import (
	"slices"
	"sync"
	"unsafe"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/fileio"
	"github.com/obskit/obskit/fileio/mmap"
	"github.com/obskit/obskit/obsdim"
)

var _ container.Batched[*arraycontainer.Array[float32], *arraycontainer.Array[float32]] = (*Numbers[float32])(nil)

// Numbers is a column of fixed-width numbers (a scalar column, a fixed-size
// list, several scalar columns side by side) seen as a container of arrays:
// observation i is row i as an array of the column's observation shape (rank 0
// for a scalar column, [w] for a list of w values), and a batch is an
// [*arraycontainer.Array] of shape [len(idx), shape...], gathered into the
// caller's buffer with no allocation once it has room.
//
// The rows live in chunks (Arrow record batches, Parquet row groups) that the
// format package provides; when the whole column is one array in memory (one
// uncompressed Arrow batch), [Numbers.Array] returns it and every gather is the
// array's own kernel. Numbers is safe for concurrent use.
type Numbers[E arraycontainer.Number] struct {
	op     names
	chunks Chunks[E]
	width  int
	shape  []int // of one observation
	whole  *arraycontainer.Array[E]
	// rows is the whole mapping as elements, seen as an array whose
	// observation p is the row of values that starts at element p (rows
	// overlap, which a read does not mind), and at[c] the position of chunk
	// c's values in it, when every chunk views the mapping: gathers then run
	// the array's row kernel (which prefetches the rows to come) over the
	// mapping.
	rows *arraycontainer.Array[E]
	at   []int
}

// NewNumbers returns the container of a fixed-width column whose rows hold
// prod(shape) values each, in the chunks s; whole, when not nil, is the entire
// column as one array of shape [n, shape...] (observations first), which
// gathers then use. op names the container in panics ("arrowipc.Numbers").
// Format packages call it; a user gets a Numbers from one.
func NewNumbers[E arraycontainer.Number](op string, s Chunks[E], shape []int, whole *arraycontainer.Array[E]) *Numbers[E] {
	w := 1
	for _, d := range shape {
		w *= d
	}
	s.index()
	c := &Numbers[E]{op: opNames(op), chunks: s, width: w, shape: shape, whole: whole}
	if s.Region != nil && whole == nil && w > 0 {
		if flat, at := mapped(s); len(flat) >= w {
			c.rows, c.at = overlapping(flat, shape, w), at
		}
	}
	return c
}

// overlapping returns flat seen as len(flat)-w+1 observations of shape (w
// elements, row-major), observation p starting at element p.
func overlapping[E arraycontainer.Number](flat []E, shape []int, w int) *arraycontainer.Array[E] {
	dims := append([]int{len(flat) - w + 1}, shape...)
	strides := make([]int, len(dims))
	strides[0] = 1
	for k, step := len(dims)-1, 1; k > 0; k-- {
		strides[k] = step
		step *= dims[k]
	}
	a, err := arraycontainer.NewStrided(flat, dims, strides, 0, obsdim.First)
	if err != nil {
		panic(err) // every row lies inside flat
	}
	return a
}

// mapped returns the mapping of s as elements and the position of each chunk's
// values in it, or nil when a chunk's values are not in the mapping.
func mapped[E arraycontainer.Number](s Chunks[E]) ([]E, []int) {
	var z E
	size := int(unsafe.Sizeof(z))
	b := s.Region.Bytes()
	flat, ok := fileio.View[E](b[:len(b)/size*size])
	if !ok || len(flat) == 0 {
		return nil, nil
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(flat)))
	at := make([]int, len(s.Starts)-1)
	for c := range at {
		v := s.Part(c).Values
		if len(v) == 0 {
			continue
		}
		d := uintptr(unsafe.Pointer(unsafe.SliceData(v))) - base
		if d%uintptr(size) != 0 || int(d/uintptr(size))+len(v) > len(flat) {
			return nil, nil
		}
		at[c] = int(d / uintptr(size))
	}
	return flat, at
}

// Nobs returns the number of rows.
func (c *Numbers[E]) Nobs() int { return c.chunks.nobs() }

// ObsShape returns a newly allocated copy of the shape of one observation.
func (c *Numbers[E]) ObsShape() []int { return append([]int{}, c.shape...) }

// Array returns the whole column as one array when it is one in memory (a
// zero-copy view of a mapped file, which keeps the mapping alive), and nil
// otherwise (several chunks, or chunks decoded on demand).
func (c *Numbers[E]) Array() *arraycontainer.Array[E] { return c.whole }

// Chunks returns the number of chunks of the column.
func (c *Numbers[E]) Chunks() int { return len(c.chunks.Starts) - 1 }

// Chunk returns the rows of chunk k as an array of shape [rows, shape...] that
// shares the chunk's memory (a view of the mapped file, or of a decoded chunk
// that the format's cache may drop, but that the array keeps alive).
func (c *Numbers[E]) Chunk(k int) *arraycontainer.Array[E] {
	p := c.chunks.Part(k)
	rows := c.chunks.Starts[k+1] - c.chunks.Starts[k]
	a, err := arraycontainer.New(p.Values[:rows*c.width], append([]int{rows}, c.shape...), obsdim.First)
	if err != nil {
		panic(err) // the format package checked the part's size
	}
	if c.chunks.Region != nil {
		mmap.Attach(a, c.chunks.Region)
	}
	return a
}

// GetObs returns row i as a newly allocated array of the observation shape.
// It panics with a *container.IndexError when i is out of range.
func (c *Numbers[E]) GetObs(i int) *arraycontainer.Array[E] {
	container.CheckIndex(c.op.obs, i, c.Nobs())
	b := c.GetObsInto(nil, []int{i})
	a, err := b.Reshape(c.ObsShape(), obsdim.First)
	if err != nil {
		panic(err)
	}
	return a
}

// GetObsInto gathers the rows at idx into dst, reusing its memory when it has
// room, and returns the batch, of shape [len(idx), shape...]. It allocates
// nothing when dst has room. It panics with a *container.IndexError when an
// index is out of range, and with the format package's error when a chunk
// cannot be read.
func (c *Numbers[E]) GetObsInto(dst *arraycontainer.Array[E], idx []int) *arraycontainer.Array[E] {
	if c.whole != nil {
		return c.whole.GetObsInto(dst, idx)
	}
	container.CheckIndices(c.op.into, idx, c.Nobs())
	var buf [arraycontainer.MaxRank + 1]int
	shape := append(append(buf[:0], len(idx)), c.shape...)
	dst = arraycontainer.Resize(dst, shape, obsdim.First)
	if r := c.chunks.Region; r != nil {
		defer r.Recover(r.Guard())
	}
	if c.rows != nil {
		return c.gatherMapped(dst, idx)
	}
	data, w := dst.Data(), c.width
	cur := cursor[E]{s: &c.chunks}
	for k, i := range idx {
		p, r := cur.at(i)
		copy(data[k*w:(k+1)*w], p.Values[r*w:(r+1)*w])
	}
	return dst
}

// positions holds the index lists of gatherMapped, so that a gather allocates
// none once the pool has one as long as its batch.
var positions = sync.Pool{New: func() any { return new([]int) }}

// gatherMapped gathers rows idx into dst with the row kernel of c.rows over the
// mapping: row i is the observation of c.rows at its chunk's position plus its
// row times w.
func (c *Numbers[E]) gatherMapped(dst *arraycontainer.Array[E], idx []int) *arraycontainer.Array[E] {
	p := positions.Get().(*[]int)
	pos := slices.Grow((*p)[:0], len(idx))[:len(idx)]
	w := c.width
	k, first, end := -1, 0, 0 // the chunk of the last index, and its rows
	for j, i := range idx {
		if k < 0 || i < first || i >= end {
			k = c.chunks.find(i)
			first, end = c.chunks.Starts[k], c.chunks.Starts[k+1]
		}
		pos[j] = c.at[k] + (i-first)*w
	}
	dst = c.rows.GetObsInto(dst, pos)
	*p = pos
	positions.Put(p)
	return dst
}
