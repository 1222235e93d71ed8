package subset

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/tuples"
)

// repeatRand returns the generator of repeat r of seed: rand.New(rand.NewPCG(seed,
// r)), the seeding of the epochs of package eachobs and of stream's shuffles.
func repeatRand(seed uint64, r int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(r)))
}

// checkRepeats panics with a [*container.ArgError] when repeats < 1, and
// returns an error wrapping ErrFolds when repeats*per does not fit an int.
func checkRepeats(op string, repeats, per int) error {
	container.CheckArg(repeats >= 1, op, "repeats", repeats, ">= 1")
	if repeats > math.MaxInt/per {
		return fmt.Errorf("%s: %d repeats of %d folds, more than the largest int: %w", op, repeats, per, ErrFolds)
	}
	return nil
}

// repeated returns the folds of repeats repetitions of per folds each, fold
// r*per+f being fold f of build(r). It keeps the folds of the last repetition
// it built, so that visiting the folds in order builds each repetition once.
func repeated[T, B any](repeats, per int, build func(r int) *Folds[T, B]) *Folds[T, B] {
	var (
		mu   sync.Mutex
		last = -1
		fs   *Folds[T, B]
	)
	return &Folds[T, B]{k: repeats * per, fold: func(i int) (*View[T, B], *View[T, B]) {
		r := i / per
		mu.Lock()
		if r != last {
			fs, last = build(r), r
		}
		cur := fs
		mu.Unlock()
		return cur.fold(i % per)
	}}
}

// RepeatedKFolds returns repeats repetitions of [KFolds] with k folds, each on
// its own shuffle (scikit-learn's RepeatedKFold): fold r*k+f is fold f of
// KFolds(c, rand.New(rand.NewPCG(seed, r)), k), so repetition r draws from the
// seed and r alone (the seeding of eachobs's epochs), whatever the other
// repetitions. Len is repeats*k. Each repetition is a partition: every
// observation is in exactly one of its validation sets.
//
// The folds are built lazily: a repetition's permutation is drawn when one of
// its folds is first asked for, and kept until a fold of another repetition is
// asked for, so ranging over All draws each permutation once and holds one at a
// time; Fold in a random order may draw one per call (O(n)).
//
// RepeatedKFolds returns an error wrapping [ErrFolds] unless 2 <= k <=
// c.Nobs(), and panics with a [*container.ArgError] when repeats < 1.
func RepeatedKFolds[T, B any](c container.Batched[T, B], seed uint64, repeats, k int) (*Folds[T, B], error) {
	const op = "subset.RepeatedKFolds"
	if err := checkK(op, k, c.Nobs()); err != nil {
		return nil, err
	}
	if err := checkRepeats(op, repeats, k); err != nil {
		return nil, err
	}
	return repeated(repeats, k, func(r int) *Folds[T, B] {
		return blockFolds(Shuffle(c, repeatRand(seed, r)), k)
	}), nil
}

// RepeatedStratifiedKFolds returns repeats repetitions of [StratifiedKFolds]
// with k folds (scikit-learn's RepeatedStratifiedKFold): fold r*k+f is fold f
// of StratifiedKFolds(c, rand.New(rand.NewPCG(seed, r)), k), built lazily as
// [RepeatedKFolds] builds its folds. c is labeled as for [StratifiedSplit].
//
// RepeatedStratifiedKFolds returns the errors of StratifiedKFolds ([ErrFolds],
// [ErrClassSize]), and panics with a [*container.ArgError] when repeats < 1.
func RepeatedStratifiedKFolds[X any, L cmp.Ordered, B any](c container.Batched[tuples.Pair[X, L], B], seed uint64, repeats, k int) (*Folds[tuples.Pair[X, L], B], error) {
	const op = "subset.RepeatedStratifiedKFolds"
	// The class counts, and so the errors, are those of every repetition.
	if _, err := StratifiedKFolds(c, nil, k); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	if err := checkRepeats(op, repeats, k); err != nil {
		return nil, err
	}
	return repeated(repeats, k, func(r int) *Folds[tuples.Pair[X, L], B] {
		fs, _ := StratifiedKFolds(c, repeatRand(seed, r), k)
		return fs
	}), nil
}

// trainTest checks the fractions of a train/test draw and returns the part
// fractions to cut: train and test, and the rest when they sum to less than 1.
func trainTest(op string, train, test float64) ([]float64, error) {
	return partFractions(op, []float64{train, test})
}

// emptyDraw returns an error wrapping container.ErrEmpty when the train or the
// test part of sizes is empty.
func emptyDraw(op, what string, nominal []float64, sizes []int, n int) error {
	for k, name := range []string{"train", "test"} {
		if sizes[k] == 0 && nominal[k] > sumSlack {
			return fmt.Errorf("%s: the %s part (fraction %v) of %d %s would be empty: %w", op, name, nominal[k], n, what, container.ErrEmpty)
		}
	}
	return nil
}

// ShuffleSplits returns repeats random train/test splits of c (Monte Carlo
// cross-validation, scikit-learn's ShuffleSplit): fold r is the first two parts
// of Split(c, rand.New(rand.NewPCG(seed, r)), train, test), the same sizes in
// every repetition, by [Split]'s rule: round(train*n) observations (half to
// even) train, and the test set is the rest when train+test is 1, else its
// fraction of n rescaled to the rest and rounded, the observations of the
// third part being in neither set. The splits of different
// repetitions overlap at random, as scikit-learn's do. Each fold is built when
// asked for, with its own permutation (O(n)).
//
// ShuffleSplits returns an error wrapping [ErrFraction] for fractions that
// Split rejects, and one wrapping [container.ErrEmpty] when the train or the
// test part would be empty although its fraction is above 0. It panics with a
// [*container.ArgError] when repeats < 1.
func ShuffleSplits[T, B any](c container.Batched[T, B], seed uint64, repeats int, train, test float64) (*Folds[T, B], error) {
	const op = "subset.ShuffleSplits"
	nominal, err := trainTest(op, train, test)
	if err != nil {
		return nil, err
	}
	n := c.Nobs()
	sizes := partSizes(n, nominal[:2], len(nominal))
	if err := emptyDraw(op, "observations", nominal, sizes, n); err != nil {
		return nil, err
	}
	if err := checkRepeats(op, repeats, 1); err != nil {
		return nil, err
	}
	return &Folds[T, B]{k: repeats, fold: func(r int) (*View[T, B], *View[T, B]) {
		parts := cut(Shuffle(c, repeatRand(seed, r)), sizes)
		return parts[0], parts[1]
	}}, nil
}

// StratifiedShuffleSplits returns repeats random train/test splits of the
// labeled container c that keep the class proportions (scikit-learn's
// StratifiedShuffleSplit): fold r is the first two parts of
// StratifiedSplit(c, rand.New(rand.NewPCG(seed, r)), train, test): each class
// is split on its own by [Split]'s rule, a class of m members putting
// round(train*m) of them (half to even) in the training set, so that each
// class's count in the training set is within half an observation of its
// fraction, and the part sizes are the same in every repetition. c is labeled
// as for [StratifiedSplit]. Each fold is built when asked for (O(n)).
//
// StratifiedShuffleSplits returns an error wrapping [ErrFraction] for fractions
// that Split rejects, and one wrapping [container.ErrEmpty] when the train or
// the test part would be empty although its fraction is above 0. It panics
// with a [*container.ArgError] when repeats < 1.
func StratifiedShuffleSplits[X any, L cmp.Ordered, B any](c container.Batched[tuples.Pair[X, L], B], seed uint64, repeats int, train, test float64) (*Folds[tuples.Pair[X, L], B], error) {
	const op = "subset.StratifiedShuffleSplits"
	nominal, err := trainTest(op, train, test)
	if err != nil {
		return nil, err
	}
	// Each class's quota per part, for the classes of cl.
	quota := func(cl classes[L]) [][]int {
		q := make([][]int, len(cl.counts))
		for k, m := range cl.counts {
			q[k] = partSizes(m, nominal[:2], len(nominal))
		}
		return q
	}
	sizes := make([]int, len(nominal)) // the same in every repetition
	for _, q := range quota(classify(tuples.Labels(c))) {
		for k, m := range q {
			sizes[k] += m
		}
	}
	if err := emptyDraw(op, "observations", nominal, sizes, c.Nobs()); err != nil {
		return nil, err
	}
	if err := checkRepeats(op, repeats, 1); err != nil {
		return nil, err
	}
	return &Folds[tuples.Pair[X, L], B]{k: repeats, fold: func(r int) (*View[tuples.Pair[X, L], B], *View[tuples.Pair[X, L], B]) {
		s := Shuffle(c, repeatRand(seed, r))
		cl := classify(tuples.Labels(s))
		order, sizes := assign(cl.ids, quota(cl), len(nominal))
		parts := cut(s.positions(order), sizes)
		return parts[0], parts[1]
	}}, nil
}

// GroupShuffleSplits returns repeats random train/test splits of c in which no
// group is split (scikit-learn's GroupShuffleSplit): the fractions count
// groups, not observations. Fold r shuffles the G distinct groups (in sorted
// order, NaN last) with rand.New(rand.NewPCG(seed, r)).Perm(G) and cuts them
// as Split cuts G observations (the first round(train*G) groups train, half to
// even, the next ones test, by [Split]'s rule); the training and the test set
// hold those groups' observations in data order. The observations' shares
// follow the groups' sizes, so they are near the fractions only when there are
// many groups of similar size. groups is read as for [GroupKFolds]. Each fold is
// built when asked for (O(n)).
//
// GroupShuffleSplits returns an error wrapping [ErrFraction] for fractions that
// Split rejects, and one wrapping [container.ErrEmpty] when the train or the
// test part would hold no group although its fraction is above 0. It panics
// with a [*container.ArgError] when repeats < 1 or when groups is nil or its
// Nobs differs from c's.
func GroupShuffleSplits[T, B any, G cmp.Ordered](c container.Batched[T, B], seed uint64, groups container.Container[G], repeats int, train, test float64) (*Folds[T, B], error) {
	const op = "subset.GroupShuffleSplits"
	v := viewOf(c)
	gr := groupsOf(op, groups, v.n)
	nominal, err := trainTest(op, train, test)
	if err != nil {
		return nil, err
	}
	ng := len(gr.counts)
	sizes := partSizes(ng, nominal[:2], len(nominal))
	if err := emptyDraw(op, "groups", nominal, sizes, ng); err != nil {
		return nil, err
	}
	if err := checkRepeats(op, repeats, 1); err != nil {
		return nil, err
	}
	ids := gr.ids
	return &Folds[T, B]{k: repeats, fold: func(r int) (*View[T, B], *View[T, B]) {
		partOf := make([]int, ng) // 0 train, 1 test, 2 neither
		for j, g := range repeatRand(seed, r).Perm(ng) {
			switch {
			case j < sizes[0]:
				partOf[g] = 0
			case j < sizes[0]+sizes[1]:
				partOf[g] = 1
			default:
				partOf[g] = 2
			}
		}
		var trainPos, testPos []int
		for pos, g := range ids {
			switch partOf[g] {
			case 0:
				trainPos = append(trainPos, pos)
			case 1:
				testPos = append(testPos, pos)
			}
		}
		return v.positions(trainPos), v.positions(testPos)
	}}, nil
}
