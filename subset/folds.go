package subset

import (
	"fmt"
	"iter"
	"math/rand/v2"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
)

// Folds is a list of cross-validation folds, each a pair of views of one
// container: a training set and a validation set, disjoint. It is built lazily:
// Fold(f) makes the two views when asked, so leave-one-out over a million
// observations does not hold a million pairs. Folds are immutable and safe for
// concurrent use.
type Folds[T, B any] struct {
	k    int
	fold func(f int) (train, val *View[T, B])
}

// Len returns the number of folds.
func (fs *Folds[T, B]) Len() int { return fs.k }

// Fold returns the training and validation views of fold f. It panics with a
// [*container.IndexError] when f is outside [0, Len()).
func (fs *Folds[T, B]) Fold(f int) (train, val *View[T, B]) {
	container.CheckIndex("subset.Folds.Fold", f, fs.k)
	return fs.fold(f)
}

// All returns an iterator over the folds in order, yielding the training and the
// validation view of each:
//
//	for train, val := range folds.All() { ... }
//
// The iterator may be used any number of times.
func (fs *Folds[T, B]) All() iter.Seq2[*View[T, B], *View[T, B]] {
	return func(yield func(train, val *View[T, B]) bool) {
		for f := range fs.k {
			if !yield(fs.fold(f)) {
				return
			}
		}
	}
}

// KFolds returns the k folds of k-fold cross-validation over c (MLUtils.kfolds,
// scikit-learn KFold). The observations are cut into k consecutive blocks whose
// sizes differ by at most one, the larger blocks first ([index.Chunk]: 10 observations
// in 3 folds give [0,4) [4,7) [7,10)); fold f validates on block f and trains on
// all the others, in data order. A non-nil rng shuffles first, so the blocks are
// blocks of Shuffle(c, rng) (scikit-learn's shuffle=True). Every observation is in
// exactly one validation set. The views share one index list: none without a
// shuffle, the permutation with one; building the folds costs O(k) beyond that.
//
// KFolds returns an error wrapping [ErrFolds] unless 2 <= k <= c.Nobs().
func KFolds[T, B any](c container.Batched[T, B], rng *rand.Rand, k int) (*Folds[T, B], error) {
	if err := checkK("subset.KFolds", k, c.Nobs()); err != nil {
		return nil, err
	}
	return blockFolds(source(c, rng), k), nil
}

// LeaveOut returns the folds of leave-p-out cross-validation in MLUtils's sense
// (MLUtils.leavepout): k-fold with k = floor(n/p) folds, so every validation set
// holds at least p observations (10 observations with p = 3 give validation sets
// of 4, 3 and 3). It is [KFolds] with that k, including the shuffle. Note that scikit-learn's LeavePOut is different:
// it enumerates all C(n, p) subsets. LeaveOut returns an error wrapping [ErrFolds]
// unless 1 <= p <= n/2.
func LeaveOut[T, B any](c container.Batched[T, B], rng *rand.Rand, p int) (*Folds[T, B], error) {
	n := c.Nobs()
	if p < 1 || p > n/2 {
		return nil, fmt.Errorf("subset.LeaveOut: p = %d outside [1, %d] for %d observations: %w", p, n/2, n, ErrFolds)
	}
	return KFolds(c, rng, n/p)
}

// blockFolds returns the k folds whose validation sets are the Chunk blocks of v.
func blockFolds[T, B any](v *View[T, B], k int) *Folds[T, B] {
	return &Folds[T, B]{k: k, fold: func(f int) (*View[T, B], *View[T, B]) {
		lo, hi := index.Chunk(v.n, k, f)
		return v.without(lo, hi), v.slice(lo, hi)
	}}
}

// boundsFolds returns the folds whose validation set f is positions
// [bounds[f], bounds[f+1]) of v.
func boundsFolds[T, B any](v *View[T, B], bounds []int) *Folds[T, B] {
	return &Folds[T, B]{k: len(bounds) - 1, fold: func(f int) (*View[T, B], *View[T, B]) {
		lo, hi := bounds[f], bounds[f+1]
		return v.without(lo, hi), v.slice(lo, hi)
	}}
}

func checkK(op string, k, n int) error {
	if k < 2 || k > n {
		return fmt.Errorf("%s: k = %d folds outside [2, %d] for %d observations: %w", op, k, n, n, ErrFolds)
	}
	return nil
}
