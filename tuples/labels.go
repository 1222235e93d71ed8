package tuples

import "github.com/obskit/obskit/container"

// labeled is the ability of a [Tuple2] to hand over its Y member, so that
// [Labels] reads labels without gathering the features.
type labeled[L any] interface {
	labels() container.Container[L]
}

// Labels returns the labels of a labeled container, the Y of every observation,
// in order, in a new slice: MLDataUtils' targets, scikit-learn's y. A container is
// labeled when its observations are Pair[X, L]: a [Tuple2] built by [Zip2], and any
// subset, shuffle, split or fold of one.
//
// Labels reads only the Y member when c is a Tuple2 or a view of one (found
// through [container.IndexView]): O(n) reads of the labels, none of the features.
// For any other container of pairs it reads c.GetObs(i).Y, with the same result.
func Labels[X, L, B any](c container.Batched[Pair[X, L], B]) []L {
	n := c.Nobs()
	out := make([]L, n)
	if t, ok := c.(labeled[L]); ok {
		ys := t.labels()
		for i := range out {
			out[i] = ys.GetObs(i)
		}
		return out
	}
	if v, ok := c.(container.IndexView[Pair[X, L], B]); ok {
		if t, ok := v.Source().(labeled[L]); ok {
			ys := t.labels()
			idx := make([]int, n)
			for i := range idx {
				idx[i] = i
			}
			for i, j := range v.MapIndices(idx, idx) {
				out[i] = ys.GetObs(j)
			}
			return out
		}
	}
	for i := range out {
		out[i] = c.GetObs(i).Y
	}
	return out
}
