package arraycontainer

import (
	"fmt"
	"github.com/obskit/obskit/container"

	"github.com/obskit/obskit/obsdim"
)

// view returns a new Array header over a's data with copies of its shape and
// strides, for the view methods to adjust.
func (a *Array[E]) view() *Array[E] {
	return a.share(a.shape, a.strides, a.offset, a.dim)
}

// share returns a new Array header over a's data with the given layout
// (strides nil: row-major): the one constructor of views. A view shares a's
// memory, and so holds the file mapping a holds, if any.
func (a *Array[E]) share(shape, strides []int, offset, dim int) *Array[E] {
	v := header(a.data, shape, strides, offset, dim)
	v.mem = a.mem
	return v
}

// ObsRange returns the observations lo..hi-1 as a view: it shares memory with a, so
// writes to either are seen by both. It costs no copy. ObsRange panics when
// 0 <= lo <= hi <= Nobs() does not hold, and like [Array.Nobs] on a rank-0 array.
func (a *Array[E]) ObsRange(lo, hi int) *Array[E] {
	a.mustObsAxis("ObsRange")
	return a.rangeOf("ObsRange", a.dim, lo, hi)
}

// Range returns the sub-array with indices lo..hi-1 along axis (any axis, the
// observation axis included) as a view that shares memory with a. It costs no
// copy. Range panics when axis is not in [0, Rank()) or 0 <= lo <= hi <=
// a.Shape()[axis] does not hold.
func (a *Array[E]) Range(axis, lo, hi int) *Array[E] {
	if uint(axis) >= uint(len(a.shape)) {
		panic(&container.ArgError{Op: "arraycontainer.Array.Range", Arg: "axis", Value: axis, Want: fmt.Sprintf("in [0, %d)", len(a.shape))})
	}
	return a.rangeOf("Range", axis, lo, hi)
}

func (a *Array[E]) rangeOf(op string, axis, lo, hi int) *Array[E] {
	if lo < 0 || hi < lo || hi > a.shape[axis] {
		panic(&container.ArgError{Op: "arraycontainer.Array." + op, Arg: "range", Value: fmt.Sprintf("[%d, %d)", lo, hi), Want: fmt.Sprintf("within axis %d of length %d", axis, a.shape[axis])})
	}
	v := a.view()
	v.offset += lo * a.strides[axis]
	v.shape[axis] = hi - lo
	return v
}

// Transpose returns a view with the axes permuted: axis k of the result is axis
// perm[k] of a. With no arguments it reverses the axes, as NumPy's a.T does. The
// observation axis follows its axis. The view shares memory with a and costs no
// copy; gathering from it walks strides, so use [Array.Clone] or [Array.ObsFirst]
// to get a layout that gathers by block copies. Transpose panics when perm is not
// a permutation of 0..Rank()-1.
func (a *Array[E]) Transpose(perm ...int) *Array[E] {
	r := len(a.shape)
	var rev [MaxRank]int
	if len(perm) == 0 {
		for k := range r {
			rev[k] = r - 1 - k
		}
		perm = rev[:r]
	}
	if len(perm) != r {
		panic(&container.ArgError{Op: "arraycontainer.Array.Transpose", Arg: "axes", Value: perm, Want: fmt.Sprintf("%d axes for a rank-%d array", r, r)})
	}
	var seen [MaxRank]bool
	for _, p := range perm {
		if uint(p) >= uint(r) || seen[p] {
			panic(&container.ArgError{Op: "arraycontainer.Array.Transpose", Arg: "axes", Value: perm, Want: fmt.Sprintf("a permutation of 0..%d", r-1)})
		}
		seen[p] = true
	}
	v := a.view()
	for k, p := range perm {
		v.shape[k] = a.shape[p]
		v.strides[k] = a.strides[p]
		if p == a.dim {
			v.dim = k
		}
	}
	return v
}

// WithDim returns a view of a with the observation axis d. It shares memory with
// a and costs no copy. It returns an error wrapping [obsdim.ErrAxis] when d names
// no axis of a (a rank-0 array accepts only [obsdim.First] and [obsdim.Last]).
func (a *Array[E]) WithDim(d obsdim.Dim) (*Array[E], error) {
	k, err := resolveDim("Array.WithDim", d, len(a.shape))
	if err != nil {
		return nil, err
	}
	v := a.view()
	v.dim = k
	return v, nil
}
