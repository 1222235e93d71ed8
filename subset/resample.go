package subset

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/tuples"
)

// Oversample balances the classes of c by repeating observations
// (MLUtils.oversample): every class with fewer than round(fraction*m)
// observations, where m is the size of the largest class and rounding is half to
// even, is brought up to that count; larger classes are kept whole. The result
// holds every observation of c once, in order, followed by the extra copies:
// class by class in order of first appearance, whole copies of the class while
// more than a class's worth is missing, then its first members in data order. So
// oversampling the labels ("a", "c", "c", "a", "b") gives the indices
// 0, 1, 2, 3, 4, 4.
//
// With a nil rng the result is fully determined by the labels. A non-nil rng
// shuffles first, so the partial copies are a random sample without replacement
// of each class, and then shuffles the result, so copies are spread through it.
// c is labeled as for [StratifiedSplit]:
//
//	balanced, err := subset.Oversample(data, rng, 1)
//
// Oversample returns an error wrapping [ErrFraction] when fraction is negative or
// not finite.
func Oversample[X any, L cmp.Ordered, B any](c container.Batched[tuples.Pair[X, L], B], rng *rand.Rand, fraction float64) (*View[tuples.Pair[X, L], B], error) {
	const op = "subset.Oversample"
	if !(fraction >= 0 && fraction <= math.MaxFloat64) {
		return nil, fmt.Errorf("%s: fraction %v is negative or not finite: %w", op, fraction, ErrFraction)
	}
	v := source(c, rng)
	cl := classify(tuples.Labels(v))
	largest := 0
	for _, m := range cl.counts {
		largest = max(largest, m)
	}
	w := math.RoundToEven(fraction * float64(largest))
	if w > 1<<48 {
		return nil, fmt.Errorf("%s: fraction %v asks for %v observations per class: %w", op, fraction, w, ErrFraction)
	}
	want := int(w)
	extra := 0
	for _, m := range cl.counts {
		extra += max(want-m, 0)
	}
	pos := make([]int, v.n, v.n+extra)
	for i := range pos {
		pos[i] = i
	}
	members := cl.members()
	lo := 0
	for _, m := range cl.counts {
		class := members[lo : lo+m]
		lo += m
		need := want - m
		for need > m {
			pos = append(pos, class...)
			need -= m
		}
		if need > 0 {
			pos = append(pos, class[:need]...)
		}
	}
	if rng != nil {
		index.Shuffle(pos, rng)
	}
	return v.positions(pos), nil
}

// Undersample balances the classes of c by dropping observations
// (MLUtils.undersample): every class keeps as many observations as the smallest
// class has, its first members in data order, and the result lists them in data
// order. So undersampling the labels ("a", "c", "c", "a", "b") gives the indices
// 0, 1, 4.
//
// With a nil rng the result is fully determined by the labels. A non-nil rng
// shuffles first, so each class keeps a random sample without replacement, and
// then shuffles the result. c is labeled as for [StratifiedSplit].
func Undersample[X any, L cmp.Ordered, B any](c container.Batched[tuples.Pair[X, L], B], rng *rand.Rand) *View[tuples.Pair[X, L], B] {
	v := source(c, rng)
	cl := classify(tuples.Labels(v))
	smallest := v.n
	for _, m := range cl.counts {
		smallest = min(smallest, m)
	}
	kept := make([]int, len(cl.counts))
	pos := make([]int, 0, smallest*len(cl.counts))
	for p, c := range cl.ids {
		if kept[c] < smallest {
			kept[c]++
			pos = append(pos, p)
		}
	}
	if rng != nil {
		index.Shuffle(pos, rng)
	}
	return v.positions(pos)
}

// RandObs returns a view of n observations of c drawn uniformly at random with
// replacement (MLUtils.randobs; the same index may appear several times). It
// panics with a [*container.ArgError] if n < 0 or rng is nil, and returns an error
// wrapping [container.ErrEmpty] when n > 0 and c is empty.
func RandObs[T, B any](c container.Batched[T, B], rng *rand.Rand, n int) (*View[T, B], error) {
	checkRand("subset.RandObs", rng)
	container.CheckArg(n >= 0, "subset.RandObs", "count", n, ">= 0")
	v := viewOf(c)
	if n > 0 && v.n == 0 {
		return nil, fmt.Errorf("subset.RandObs: %d observations from an empty container: %w", n, container.ErrEmpty)
	}
	pos := make([]int, n)
	for j := range pos {
		pos[j] = rng.IntN(v.n)
	}
	return v.positions(pos), nil
}

// Bootstrap draws a bootstrap sample of c: c.Nobs() observations drawn uniformly
// at random with replacement (as [RandObs]), and the out-of-bag observations,
// those never drawn, in data order (about 36.8% of c for large c). The two views
// together cover c. Bootstrap panics if rng is nil.
func Bootstrap[T, B any](c container.Batched[T, B], rng *rand.Rand) (sample, outOfBag *View[T, B]) {
	checkRand("subset.Bootstrap", rng)
	v := viewOf(c)
	pos := make([]int, v.n)
	drawn := make([]bool, v.n)
	for j := range pos {
		pos[j] = rng.IntN(v.n)
		drawn[pos[j]] = true
	}
	var oob []int
	for p, d := range drawn {
		if !d {
			oob = append(oob, p)
		}
	}
	return v.positions(pos), v.positions(oob)
}
