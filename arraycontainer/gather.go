package arraycontainer

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/gather"
	"github.com/obskit/obskit/internal/hugemem"
)

// GetObs returns observation i as a newly allocated contiguous row-major array of
// rank one less: the sub-array at index i of the observation axis. Its own
// observation axis is the first (a rank-1 array's observations are rank-0 arrays,
// read with [Array.Item]). GetObs panics with a [*container.IndexError] when i is
// outside [0, Nobs()), and like [Array.Nobs] on a rank-0 array.
//
// To read many observations, or the same ones repeatedly, [Array.GetObsInto] is
// faster: it gathers them all in one pass into reused memory.
func (a *Array[E]) GetObs(i int) *Array[E] {
	a.mustObsAxis("GetObs")
	container.CheckIndex("arraycontainer.Array.GetObs", i, a.shape[a.dim])
	var shape [MaxRank]int
	r := copy(shape[:], a.shape[:a.dim])
	r += copy(shape[r:], a.shape[a.dim+1:])
	dim := 0
	if r == 0 {
		dim = -1
	}
	o := header(make([]E, a.ObsLen()), shape[:r], nil, 0, dim)
	idx := [1]int{i}
	if a.mem != nil {
		defer a.mem.Recover(a.mem.Guard())
	}
	gather.Gather(o.data, a.data, a.shape, a.strides, a.offset, a.dim, idx[:])
	return o
}

// GetObsInto gathers the observations at idx (any order, repeats allowed) into a
// contiguous row-major batch and returns it. The batch has a's rank and
// observation axis, and len(idx) observations along that axis: a batch of 128
// from a [60000 28 28] array with obsdim.First has shape [128 28 28]; from a
// [784 60000] array with obsdim.Last, shape [784 128].
//
// When dst is not nil, the batch is dst itself, rewritten: its data, shape and
// strides slices are reused from their start when their capacity suffices, and
// GetObsInto then allocates nothing. Whatever dst viewed before is overwritten
// from the start of its backing slice, so pass a batch from an earlier call (or
// an array whose whole backing slice may be overwritten), never a view of data
// that must be kept. A nil dst allocates a new batch. Call it as
//
//	buf = a.GetObsInto(buf, idx)
//
// GetObsInto panics with a [*container.IndexError] when an index is outside
// [0, Nobs()) (before writing anything), when dst shares memory with a (a gather
// cannot read and write the same memory), and like [Array.Nobs] on a rank-0 array.
func (a *Array[E]) GetObsInto(dst *Array[E], idx []int) *Array[E] {
	a.mustObsAxis("GetObsInto")
	container.CheckIndices("arraycontainer.Array.GetObsInto", idx, a.shape[a.dim])
	obsLen := a.ObsLen()
	if obsLen > 0 && len(idx) > math.MaxInt/obsLen {
		panic(&container.ArgError{Op: "arraycontainer.Array.GetObsInto", Arg: "number of indices", Value: len(idx), Want: fmt.Sprintf("at most %d for observations of %d elements (the batch overflows int)", math.MaxInt/obsLen, obsLen)})
	}
	n := obsLen * len(idx)
	if dst != nil && (dst == a || cap(dst.data) >= n && overlaps(dst.data[:n], a.data)) {
		panic(&container.ArgError{Op: "arraycontainer.Array.GetObsInto", Arg: "dst", Value: "an array sharing memory with the source", Want: "a separate buffer (or nil)"})
	}
	dst = reuse(dst, n, a.shape, a.dim, len(idx))
	if a.mem != nil {
		defer a.mem.Recover(a.mem.Guard())
	}
	gather.Gather(dst.data, a.data, a.shape, a.strides, a.offset, a.dim, idx)
	return dst
}

// overlaps reports whether the elements of x and y share any memory.
func overlaps[E any](x, y []E) bool {
	if len(x) == 0 || len(y) == 0 {
		return false
	}
	size := unsafe.Sizeof(x[0])
	x0 := uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	y0 := uintptr(unsafe.Pointer(unsafe.SliceData(y)))
	return x0 < y0+uintptr(len(y))*size && y0 < x0+uintptr(len(x))*size
}

// Clone returns a newly allocated contiguous row-major copy of a, with the same
// shape and observation axis. Use it to make a view independent of its source, or
// to give a library such as gonum a row-major layout.
func (a *Array[E]) Clone() *Array[E] {
	c := header(hugemem.Make[E](a.Len()), a.shape, nil, 0, a.dim)
	if a.mem != nil {
		defer a.mem.Recover(a.mem.Guard())
	}
	gather.Copy(c.data, a.data, a.shape, a.strides, a.offset)
	return c
}

// ObsFirst returns a newly allocated copy of a with the observation axis moved to
// the front and every observation contiguous: the relayout of data stored
// observation-last (Julia, Fortran-ordered files) to observation-first, done once
// so that every later batch is a block copy. A [784 60000] array with obsdim.Last
// becomes a [60000 784] array with obsdim.First; the other axes keep their order.
// The copy is one pass over the data (for an array already observation-first it
// is [Array.Clone]). A rank-0 array is cloned.
func (a *Array[E]) ObsFirst() *Array[E] {
	if len(a.shape) == 0 {
		return a.Clone()
	}
	perm := make([]int, 0, len(a.shape))
	perm = append(perm, a.dim)
	for k := range a.shape {
		if k != a.dim {
			perm = append(perm, k)
		}
	}
	return a.Transpose(perm...).Clone()
}
