package subset

import (
	"cmp"
	"fmt"
	"math/rand/v2"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/tuples"
)

// StratifiedSplit divides the labeled container c like [Split], but splits each
// class on its own with the same fractions and the same rounding, so every part
// keeps the class proportions: a class of m members puts round(a*m) of them in a
// part of fraction a. The members of a class go to the parts in data order, the
// first ones to the first part. Each part lists its observations in data order
// (classes interleaved as in the data). A non-nil rng shuffles first, as
// everywhere in this package: the class members are then assigned in random
// order, and each part comes out in random order.
//
// c is labeled: its observations are tuples.Pair[X, L], as those of a
// [tuples.Zip2] of features and labels and of any view of one, and L is inferred
// from it. The labels are read with [tuples.Labels], without gathering the
// features. They must be ordered values (numbers or strings), so that a container
// of arrays or pointers cannot pass for one of labels:
//
//	parts, err := subset.StratifiedSplit(data, rng, 0.8) // data: features and labels
//
// Labels from a file (npy.Open, npy.Load, idx.Open) are a rank-1 array, whose
// observations are rank-0 arrays, not values: zip its Scalars instead (labels,
// err := y.Scalars(); data, err := tuples.Zip2(x, labels)). Zipped as they are,
// the call stops at compile time with "*arraycontainer.Array[int64] does not
// satisfy cmp.Ordered", here and in every function of the package that takes
// labeled data.
//
// StratifiedSplit returns an error wrapping [ErrFraction] for fractions that
// [Split] rejects, and one wrapping [container.ErrEmpty] that names the largest class and
// its size when the classes are too small to put anything in a part whose
// fraction is above 0 (scikit-learn refuses these splits too). A class smaller
// than the number of parts is absent from some parts; the parts are not empty.
func StratifiedSplit[X any, L cmp.Ordered, B any](c container.Batched[tuples.Pair[X, L], B], rng *rand.Rand, fractions ...float64) ([]*View[tuples.Pair[X, L], B], error) {
	const op = "subset.StratifiedSplit"
	nominal, err := partFractions(op, fractions)
	if err != nil {
		return nil, err
	}
	v := source(c, rng)
	cl := classify(tuples.Labels(v))
	nparts := len(nominal)
	quota := make([][]int, len(cl.counts))
	for k, m := range cl.counts {
		quota[k] = partSizes(m, fractions, nparts)
	}
	order, sizes := assign(cl.ids, quota, nparts)
	if k := emptyPart(nominal, sizes); k >= 0 {
		if len(cl.counts) == 0 {
			return nil, fmt.Errorf("%s: part %d (fraction %v) of 0 observations would be empty: %w", op, k, nominal[k], container.ErrEmpty)
		}
		big := 0
		for c, m := range cl.counts {
			if m > cl.counts[big] {
				big = c
			}
		}
		return nil, fmt.Errorf("%s: part %d (fraction %v) would be empty: no class is large enough to put a member in it; the largest, class %v, has %d: %w",
			op, k, nominal[k], cl.labels[big], cl.counts[big], container.ErrEmpty)
	}
	return cut(v.positions(order), sizes), nil
}

// assign sends each position, in order, to the first part of its class that
// still has quota, and returns the positions sorted by part (data order within
// a part) with the part sizes.
func assign(ids []int, quota [][]int, nparts int) (order, sizes []int) {
	cur := make([]int, len(quota))
	partOf := make([]int, len(ids))
	sizes = make([]int, nparts)
	for p, c := range ids {
		for quota[c][cur[c]] == 0 {
			cur[c]++
		}
		quota[c][cur[c]]--
		partOf[p] = cur[c]
		sizes[cur[c]]++
	}
	return bucket(partOf, nparts), sizes
}

// StratifiedKFolds returns k folds of the labeled container c whose validation
// sets keep the class proportions, scikit-learn's StratifiedKFold allocation: list
// the observations class by class (classes in order of first appearance, members
// in data order); fold f gets from each class as many members as there are list
// positions q = f (mod k) in that class's stretch. Every class then puts
// floor(n_c/k) or one more of its members in each fold, and fold sizes differ by
// at most one, the larger first. Validation sets are in data order; a training
// set is the other validation sets in fold order. A non-nil rng shuffles first
// (scikit-learn's shuffle=True).
//
// c is labeled as for [StratifiedSplit]. StratifiedKFolds returns an error
// wrapping [ErrFolds] when k is outside [2, n], and one wrapping [ErrClassSize]
// naming the class and its size when a class has fewer than k members (it could
// not be in every fold; scikit-learn warns, here it is refused).
func StratifiedKFolds[X any, L cmp.Ordered, B any](c container.Batched[tuples.Pair[X, L], B], rng *rand.Rand, k int) (*Folds[tuples.Pair[X, L], B], error) {
	const op = "subset.StratifiedKFolds"
	if err := checkK(op, k, c.Nobs()); err != nil {
		return nil, err
	}
	v := source(c, rng)
	cl := classify(tuples.Labels(v))
	if s := cl.smallest(); cl.counts[s] < k {
		return nil, fmt.Errorf("%s: class %v has %d members, fewer than k = %d folds: %w", op, cl.labels[s], cl.counts[s], k, ErrClassSize)
	}
	count := func(x, f int) int { // positions q in [0, x) with q mod k == f
		if x <= f {
			return 0
		}
		return (x - f + k - 1) / k
	}
	quota := make([][]int, len(cl.counts))
	start := 0
	for c, m := range cl.counts {
		quota[c] = make([]int, k)
		for f := range k {
			quota[c][f] = count(start+m, f) - count(start, f)
		}
		start += m
	}
	order, sizes := assign(cl.ids, quota, k)
	bounds := make([]int, k+1)
	for f, m := range sizes {
		bounds[f+1] = bounds[f] + m
	}
	return boundsFolds(v.positions(order), bounds), nil
}
