package arraycontainer

import (
	"fmt"

	"github.com/obskit/obskit/container"
)

// ObsRangeInto is [Array.ObsRange] without a new header: it overwrites dst to view
// observations lo..hi-1 of a and returns it. The view shares memory with a and
// costs no copy. A nil dst, or one whose rank differs from a's, is replaced by a
// newly allocated header; otherwise ObsRangeInto allocates nothing, so a loop that
// makes views of every batch can reuse the previous ones:
//
//	view = batch.ObsRangeInto(view, lo, hi)
//
// Whatever dst viewed before is forgotten: dst must be a header the caller owns
// (an earlier result of ObsRangeInto), never a itself. ObsRangeInto panics like ObsRange,
// and when dst is a.
func (a *Array[E]) ObsRangeInto(dst *Array[E], lo, hi int) *Array[E] {
	a.mustObsAxis("ObsRangeInto")
	if lo < 0 || hi < lo || hi > a.shape[a.dim] {
		panic(&container.ArgError{Op: "arraycontainer.Array.ObsRangeInto", Arg: "range", Value: fmt.Sprintf("[%d, %d)", lo, hi), Want: fmt.Sprintf("within axis %d of length %d", a.dim, a.shape[a.dim])})
	}
	if dst == a {
		panic(&container.ArgError{Op: "arraycontainer.Array.ObsRangeInto", Arg: "dst", Value: "the array itself", Want: "another header (or nil)"})
	}
	if dst == nil || len(dst.shape) != len(a.shape) {
		dst = newArray[E](len(a.shape))
	}
	copy(dst.shape, a.shape)
	copy(dst.strides, a.strides)
	dst.shape[a.dim] = hi - lo
	dst.data, dst.offset, dst.dim, dst.mem = a.data, a.offset+lo*a.strides[a.dim], a.dim, a.mem
	return dst
}
