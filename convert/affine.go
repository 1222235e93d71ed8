package convert

import (
	"fmt"
	"math"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"golang.org/x/exp/constraints"
)

// Scale returns the container of the observations of c converted element-wise to
// the float type To: v*scale + shift, computed in To. The target type is scale's:
//
//	x := convert.Scale(digits.X(), float32(1.0/16), 0) // uint8 0..16 to float32 0..1
//
// A batch keeps the layout of c's batches. When c is an array whose observations
// are contiguous (the observation axis first, the default), or a subset of one, a
// batch is converted while it is gathered, in one pass over memory; 8-bit values
// go through a table of their 256 results. Scale of a Scale is one conversion,
// the two maps composed in float64.
func Scale[From arraycontainer.Number, To constraints.Float](c container.Batched[*arraycontainer.Array[From], *arraycontainer.Array[From]], scale, shift To) *Arrays[To] {
	s, b := []float64{float64(scale)}, []float64{float64(shift)}
	if a, ok := any(c).(*Arrays[To]); ok { // From is To: compose
		if k, ok := a.k.then(s, b); ok {
			return &Arrays[To]{k: k, blocks: a.blocks}
		}
	}
	return &Arrays[To]{k: newAffine[From, To](c, s, b), blocks: container.BlockStarts(c)}
}

// Stats holds per-feature statistics of a container of arrays: the mean and the
// standard deviation (population, ddof 0, as scikit-learn's StandardScaler) of
// every element position of an observation, in row-major order, and the shape of
// an observation.
type Stats[E constraints.Float] struct {
	Mean, Std []E
	Shape     []int
}

// MeanStd returns the per-feature mean and standard deviation of the
// observations of c, reading them once in batches (so a view, a split or a
// converted container works as well as an array), accumulated in float64 by
// Chan's parallel update of Welford's algorithm. Compute them on the training
// part only, and standardize every part with them.
//
// MeanStd returns an error wrapping container.ErrEmpty when c holds no observation,
// and one wrapping arraycontainer.ErrLayout when c's observation axis is not the
// first.
func MeanStd[E constraints.Float](c arraycontainer.Batched[E]) (Stats[E], error) {
	const op = "convert.MeanStd"
	obs, dim := layoutOf(c)
	if dim != 0 {
		return Stats[E]{}, fmt.Errorf("%s: observation axis %d, want the first (obsdim.First; Array.ObsFirst relays an array): %w", op, dim, arraycontainer.ErrLayout)
	}
	n := c.Nobs()
	if n == 0 {
		return Stats[E]{}, fmt.Errorf("%s: statistics of no observations: %w", op, container.ErrEmpty)
	}
	L := 1
	for _, s := range obs {
		L *= s
	}
	mean, m2 := make([]float64, L), make([]float64, L)
	bm, bm2 := make([]float64, L), make([]float64, L)
	const chunk = 1024
	idx := make([]int, 0, chunk)
	var buf *arraycontainer.Array[E]
	seen := 0
	for lo := 0; lo < n; lo += chunk {
		idx = idx[:0]
		for i := lo; i < min(lo+chunk, n); i++ {
			idx = append(idx, i)
		}
		buf = c.GetObsInto(buf, idx)
		b := buf
		if !b.IsContiguous() {
			b = b.Clone()
		}
		data := b.Data()[b.Offset() : b.Offset()+b.Len()]
		m := len(idx)
		clear(bm)
		clear(bm2)
		for j := range m {
			for f, v := range data[j*L : (j+1)*L] {
				bm[f] += float64(v)
			}
		}
		for f := range bm {
			bm[f] /= float64(m)
		}
		for j := range m {
			for f, v := range data[j*L : (j+1)*L] {
				d := float64(v) - bm[f]
				bm2[f] += d * d
			}
		}
		total := seen + m
		for f := range mean { // Chan et al.: merge (seen, mean, m2) with (m, bm, bm2)
			delta := bm[f] - mean[f]
			mean[f] += delta * float64(m) / float64(total)
			m2[f] += bm2[f] + delta*delta*float64(seen)*float64(m)/float64(total)
		}
		seen = total
	}
	st := Stats[E]{Mean: make([]E, L), Std: make([]E, L), Shape: append([]int(nil), obs...)}
	for f := range mean {
		st.Mean[f] = E(mean[f])
		st.Std[f] = E(math.Sqrt(m2[f] / float64(n)))
	}
	return st, nil
}

// Standardize returns the container of the observations of c standardized per
// feature: (v - st.Mean[f]) / st.Std[f] for the element at feature f, and v -
// st.Mean[f] where st.Std[f] is 0 (a constant feature; scikit-learn's scale of 1).
// When c is itself a [Scale] or a Standardize, the maps are composed and the
// result reads c's source once: uint8 pixels scaled and standardized in one pass.
//
//	x := convert.Scale(digits.X(), float32(1.0/16), 0)
//	st, err := convert.MeanStd(subset.Of(x, trainIdx))
//	xs, err := convert.Standardize(x, st)
//
// Standardize returns an error wrapping arraycontainer.ErrShape when st does not
// describe c's observations (another shape, or Mean and Std of another length),
// and one wrapping arraycontainer.ErrLayout when c's observation axis is not the
// first.
func Standardize[E constraints.Float](c arraycontainer.Batched[E], st Stats[E]) (*Arrays[E], error) {
	const op = "convert.Standardize"
	obs, dim := layoutOf(c)
	if dim != 0 {
		return nil, fmt.Errorf("%s: observation axis %d, want the first (obsdim.First): %w", op, dim, arraycontainer.ErrLayout)
	}
	L := 1
	for _, s := range obs {
		L *= s
	}
	if fmt.Sprint(obs) != fmt.Sprint(st.Shape) || len(st.Mean) != L || len(st.Std) != L {
		return nil, fmt.Errorf("%s: statistics of observations of shape %v (%d means, %d deviations) for observations of shape %v: %w",
			op, st.Shape, len(st.Mean), len(st.Std), obs, arraycontainer.ErrShape)
	}
	scale, shift := make([]float64, L), make([]float64, L)
	for f := range scale {
		s := float64(st.Std[f])
		if s == 0 {
			s = 1
		}
		scale[f], shift[f] = 1/s, -float64(st.Mean[f])/s
	}
	if a, ok := c.(*Arrays[E]); ok {
		if k, ok := a.k.then(scale, shift); ok {
			return &Arrays[E]{k: k, blocks: a.blocks}, nil
		}
	}
	return &Arrays[E]{k: newAffine[E, E](c, scale, shift), blocks: container.BlockStarts(c)}, nil
}
