package gomlx

import (
	"github.com/obskit/obskit/arraycontainer"
)

// The one copy of a batch: from the loop's buffer into a tensor's flat data,
// converting the element type when the tensor's Go type is not E (int is
// stored as int64 or int32, uint as uint64 or uint32).

// writeFlat writes into flat (the tensor's []T) the observations lo..hi-1 of a
// along its observation axis, in row-major order with that axis first; lo < 0
// writes all of a in row-major order.
func writeFlat[E arraycontainer.Number](flat any, a *arraycontainer.Array[E], lo, hi int) {
	switch f := flat.(type) {
	case []E:
		writeArray(f, a, lo, hi)
	case []int64:
		writeArray(f, a, lo, hi)
	case []int32:
		writeArray(f, a, lo, hi)
	case []uint64:
		writeArray(f, a, lo, hi)
	case []uint32:
		writeArray(f, a, lo, hi)
	default:
		panic("gomlx: internal error: tensor data of another type than its source")
	}
}

// convertInto copies v into flat, converting to flat's element type.
func convertInto[E arraycontainer.Number](flat any, v []E) {
	switch f := flat.(type) {
	case []E:
		copy(f, v)
	case []int64:
		convert(f, v)
	case []int32:
		convert(f, v)
	case []uint64:
		convert(f, v)
	case []uint32:
		convert(f, v)
	default:
		panic("gomlx: internal error: tensor data of another type than its source")
	}
}

// sliceFlat returns flat[lo:hi] for the tensor types writeFlat knows.
func sliceFlat(flat any, lo, hi int) any {
	switch f := flat.(type) {
	case []float32:
		return f[lo:hi]
	case []float64:
		return f[lo:hi]
	case []int64:
		return f[lo:hi]
	case []int32:
		return f[lo:hi]
	case []int16:
		return f[lo:hi]
	case []int8:
		return f[lo:hi]
	case []uint64:
		return f[lo:hi]
	case []uint32:
		return f[lo:hi]
	case []uint16:
		return f[lo:hi]
	case []uint8:
		return f[lo:hi]
	}
	panic("gomlx: internal error: tensor data of an unknown type")
}

func convert[T, E arraycontainer.Number](dst []T, src []E) {
	for i, v := range src {
		dst[i] = T(v)
	}
}

// writeArray writes into dst the observations lo..hi-1 of a (all of a when
// lo < 0), observation axis first, row-major: one copy or conversion of a
// contiguous block when a is row-major with its observation axis first (every
// batch the kit gathers from an observation-first array), else a walk of a's
// strides.
func writeArray[T, E arraycontainer.Number](dst []T, a *arraycontainer.Array[E], lo, hi int) {
	data := a.Data()
	if lo < 0 || a.Dim() == 0 {
		if a.IsContiguous() {
			off, n := a.Offset(), a.Len()
			if lo >= 0 {
				m := a.ObsLen()
				off, n = off+lo*m, (hi-lo)*m
			}
			if d, ok := any(dst).([]E); ok {
				copy(d, data[off:off+n])
			} else {
				convert(dst, data[off:off+n])
			}
			return
		}
	}
	// The general walk: the axes in the order written (the observation axis
	// first unless all of a is written), with lengths and strides.
	shape, strides := a.Shape(), a.Strides()
	off := a.Offset()
	if lo >= 0 {
		d := a.Dim()
		off += lo * strides[d]
		lens := append([]int{hi - lo}, shape[:d]...)
		lens = append(lens, shape[d+1:]...)
		st := append([]int{strides[d]}, strides[:d]...)
		st = append(st, strides[d+1:]...)
		shape, strides = lens, st
	}
	walk(dst, data, off, shape, strides)
}

// walk writes the elements of the strided array (data, off, shape, strides) into
// dst in row-major order.
func walk[T, E arraycontainer.Number](dst []T, data []E, off int, shape, strides []int) {
	r := len(shape)
	if r == 0 {
		dst[0] = T(data[off])
		return
	}
	for _, n := range shape {
		if n == 0 {
			return
		}
	}
	ix := make([]int, r)
	inner, step := shape[r-1], strides[r-1]
	k := 0
	for {
		p := off
		for a := 0; a < r-1; a++ {
			p += ix[a] * strides[a]
		}
		for j := range inner {
			dst[k] = T(data[p+j*step])
			k++
		}
		a := r - 2
		for ; a >= 0; a-- {
			ix[a]++
			if ix[a] < shape[a] {
				break
			}
			ix[a] = 0
		}
		if a < 0 {
			return
		}
	}
}
