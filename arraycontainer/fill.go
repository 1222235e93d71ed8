package arraycontainer

import (
	"fmt"
	"github.com/obskit/obskit/container"

	"github.com/obskit/obskit/internal/gather"
)

// Fill sets every element of a to v. It writes through to the memory a shares
// with other views of the same data and allocates nothing. A view with gaps
// (padded rows, a sub-array) fills only its own elements; a broadcast axis
// (stride 0) sets the one element it repeats.
func (a *Array[E]) Fill(v E) {
	if a.mem != nil {
		defer a.mem.Recover(a.mem.Guard())
	}
	gather.Fill(a.data, a.shape, a.strides, a.offset, v)
}

// FillObs sets every element of observations lo..hi-1 to v: what
// a.ObsRange(lo, hi).Fill(v) does, without making the view, so it allocates nothing.
// It writes through to shared memory. FillObs panics like [Array.ObsRange] when
// 0 <= lo <= hi <= Nobs() does not hold or a has rank 0.
func (a *Array[E]) FillObs(lo, hi int, v E) {
	a.mustObsAxis("FillObs")
	if lo < 0 || hi < lo || hi > a.shape[a.dim] {
		panic(&container.ArgError{Op: "arraycontainer.Array.FillObs", Arg: "range", Value: fmt.Sprintf("[%d, %d)", lo, hi), Want: fmt.Sprintf("within %d observations", a.shape[a.dim])})
	}
	// The shape of the view on the stack: the observation axis cut to [lo, hi).
	var shape [MaxRank]int
	copy(shape[:], a.shape)
	shape[a.dim] = hi - lo
	if a.mem != nil {
		defer a.mem.Recover(a.mem.Guard())
	}
	gather.Fill(a.data, shape[:len(a.shape)], a.strides, a.offset+lo*a.strides[a.dim], v)
}
