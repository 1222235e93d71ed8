package subset

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/tuples"
)

// StratifiedGroupKFolds returns k folds of the labeled container c in which no
// group is split and the classes keep their proportions as well as whole
// groups allow (scikit-learn's StratifiedGroupKFold). c is labeled as for
// [StratifiedSplit]; groups is read as for [GroupKFolds].
//
// The balance rule is scikit-learn's greedy one, computed in the same
// floating-point steps as its NumPy code so that the folds are the same: count
// each group's members per class (classes and groups in sorted order); take
// the groups in order of decreasing standard deviation of those counts (the
// groups whose members are most concentrated in few classes first; equal
// deviations in group order); put each in the fold that minimises, once the
// group is in it, the mean over the classes of the standard deviation across
// folds of the share of the class in each fold, trying folds 0, 1, ... and
// moving to a later fold only when it is better by more than NumPy's isclose
// tolerance (1e-5 relative, 1e-8 absolute), or as good within it and holding
// fewer observations. When groups are small and many the folds are close to
// [StratifiedKFolds]'; when a few groups are large the classes cannot be
// balanced and the folds come close to [GroupKFolds]'. Fold f validates on its
// groups' observations in data order and trains on the other folds'
// validation sets in fold order; the views share one index list.
//
// A non-nil rng does not shuffle the data, whose order the folds do not
// depend on: it takes the groups in the order rng.Perm(G) before they are
// sorted by deviation, so that groups of equal deviation are tried in random
// order (scikit-learn's shuffle=True as its pull request 32540 fixed it; its
// earlier releases shuffle the counts apart from the groups they belong to). A
// nil rng is scikit-learn's shuffle=False.
//
// The counts take G*C float64s for G groups and C classes, and placing the
// groups O(G*k*k*C) time.
//
// StratifiedGroupKFolds returns an error wrapping [ErrFolds] when k < 2 or
// there are fewer groups than folds, and one wrapping [ErrClassSize] naming
// the class and its size when a class has fewer than k members (scikit-learn
// warns). It panics with a [*container.ArgError] when groups is nil or its
// Nobs differs from c's.
func StratifiedGroupKFolds[X any, L, G cmp.Ordered, B any](c container.Batched[tuples.Pair[X, L], B], rng *rand.Rand, groups container.Container[G], k int) (*Folds[tuples.Pair[X, L], B], error) {
	const op = "subset.StratifiedGroupKFolds"
	v := viewOf(c)
	gr := groupsOf(op, groups, v.n)
	ng := len(gr.counts)
	if err := checkGroupFolds(op, k, ng); err != nil {
		return nil, err
	}
	cl := sortedClasses(tuples.Labels(v))
	if s := cl.smallest(); cl.counts[s] < k {
		return nil, fmt.Errorf("%s: class %v has %d members, fewer than k = %d folds: %w", op, cl.labels[s], cl.counts[s], k, ErrClassSize)
	}
	nc := len(cl.counts)
	perGroup := make([]float64, ng*nc) // y_counts_per_group, row by row
	for p, g := range gr.ids {
		perGroup[g*nc+cl.ids[p]]++
	}
	spread := make([]float64, ng) // np.std(y_counts_per_group, axis=1)
	for g := range spread {
		spread[g] = rowStd(perGroup[g*nc : (g+1)*nc])
	}
	order := iotaInts(ng)
	if rng != nil {
		order = rng.Perm(ng)
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(spread[b], spread[a]) })

	classSize := make([]float64, nc)
	for c, m := range cl.counts {
		classSize[c] = float64(m)
	}
	fit := newFoldFit(k, classSize)
	foldOf := make([]int, ng)
	for _, g := range order {
		foldOf[g] = fit.place(perGroup[g*nc : (g+1)*nc])
	}
	return groupFolds(v, gr.ids, foldOf, k), nil
}

// foldFit is the state of scikit-learn's StratifiedGroupKFold._find_best_fold:
// y_counts_per_fold, and the scratch of its evaluation.
type foldFit struct {
	k, nc     int
	classSize []float64 // y_cnt
	perFold   []float64 // y_counts_per_fold, k rows of nc
	share     []float64 // y_counts_per_fold / y_cnt, one column at a time
	std       []float64 // std_per_class
}

func newFoldFit(k int, classSize []float64) *foldFit {
	nc := len(classSize)
	return &foldFit{k: k, nc: nc, classSize: classSize,
		perFold: make([]float64, k*nc), share: make([]float64, k), std: make([]float64, nc)}
}

// place adds counts (one group's members per class) to the best fold and
// returns that fold.
func (s *foldFit) place(counts []float64) int {
	best, minEval, minSamples := -1, math.Inf(1), math.Inf(1)
	for i := range s.k {
		row := s.perFold[i*s.nc : (i+1)*s.nc]
		for c, m := range counts {
			row[c] += m
		}
		for c := range s.nc {
			for f := range s.k {
				s.share[f] = s.perFold[f*s.nc+c] / s.classSize[c]
			}
			s.std[c] = columnStd(s.share, s.nc)
		}
		for c, m := range counts {
			row[c] -= m
		}
		eval := pairwiseSum(s.std) / float64(s.nc)
		samples := pairwiseSum(row)
		if eval < minEval || isClose(eval, minEval) && samples < minSamples {
			best, minEval, minSamples = i, eval, samples
		}
	}
	row := s.perFold[best*s.nc : (best+1)*s.nc]
	for c, m := range counts {
		row[c] += m
	}
	return best
}

// The functions below are NumPy's float64 arithmetic, step for step, so that
// the greedy choices match scikit-learn's to the last bit. An explicit
// float64(...) around a product keeps the compiler from fusing it with an
// addition (as it may on arm64), which NumPy does not do.

// rowStd is np.std of a contiguous row: its mean and its sum of squared
// deviations are pairwise sums.
func rowStd(x []float64) float64 {
	n := float64(len(x))
	mean := pairwiseSum(x) / n
	sq := make([]float64, len(x))
	for i, v := range x {
		d := v - mean
		sq[i] = float64(d * d)
	}
	return math.Sqrt(pairwiseSum(sq) / n)
}

// columnStd is np.std(a, axis=0) for one column x of a matrix with nc
// columns: NumPy reduces a column of a row-major matrix row after row, in
// order, unless the matrix has one column, which it reduces as a contiguous
// array (pairwise).
func columnStd(x []float64, nc int) float64 {
	if nc == 1 {
		return rowStd(x)
	}
	n := float64(len(x))
	sum := 0.0
	for _, v := range x {
		sum += v
	}
	mean := sum / n
	sq := 0.0
	for _, v := range x {
		d := v - mean
		sq += float64(d * d)
	}
	return math.Sqrt(sq / n)
}

// pairwiseSum is NumPy's pairwise summation of a contiguous float64 array
// (pairwise_sum in numpy/core/src/umath/loops_utils.h.src): fewer than 8
// values in order; up to 128 in 8 interleaved accumulators, combined in a
// tree, then the leftover values; more, split in two halves at a multiple of
// 8, summed recursively.
func pairwiseSum(x []float64) float64 {
	n := len(x)
	switch {
	case n < 8:
		res := math.Copysign(0, -1)
		for _, v := range x {
			res += v
		}
		return res
	case n <= 128:
		var r [8]float64
		copy(r[:], x[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range r {
				r[j] += x[i+j]
			}
		}
		res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			res += x[i]
		}
		return res
	default:
		n2 := n / 2
		n2 -= n2 % 8
		return pairwiseSum(x[:n2]) + pairwiseSum(x[n2:])
	}
}

// isClose is np.isclose(a, b) with its default tolerances: |a-b| <= 1e-8 +
// 1e-5*|b|, and infinities close only to themselves.
func isClose(a, b float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= 1e-8+float64(1e-5*math.Abs(b))
}
