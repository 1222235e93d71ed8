package subset

import (
	"fmt"

	"github.com/obskit/obskit/container"
)

// TimeSeries holds the settings of [TimeSeriesFolds]; the zero value is
// scikit-learn's default.
type TimeSeries struct {
	// TestSize is the number of observations in each validation set; 0 means
	// n/(k+1).
	TestSize int
	// Gap is the number of observations left out between the end of each
	// training set and the start of its validation set.
	Gap int
	// MaxTrain is the largest number of observations in a training set (the most
	// recent ones are kept); 0 means no limit.
	MaxTrain int
}

// TimeSeriesFolds returns k folds for data in time order (scikit-learn
// TimeSeriesSplit): training always comes before validation, and nothing is
// shuffled. The last k*TestSize observations are cut into k consecutive
// validation sets; fold f trains on every observation before its validation set
// except the Gap observations just before it, and at most the MaxTrain most
// recent ones. With n = 10 and k = 3 (TestSize 2):
//
//	fold 0: train [0,4)  validate [4,6)
//	fold 1: train [0,6)  validate [6,8)
//	fold 2: train [0,8)  validate [8,10)
//
// The first n-k*TestSize observations are never validated. Every view is a range
// of c (O(1)). Unlike scikit-learn, k = 1 (one holdout at the end) is allowed.
//
// TimeSeriesFolds returns an error wrapping [ErrFolds] when k < 1, k+1 > n, a
// setting is negative, or the validation sets and the gap leave no training
// observation for the first fold (Gap + k*TestSize >= n).
func TimeSeriesFolds[T, B any](c container.Batched[T, B], k int, ts TimeSeries) (*Folds[T, B], error) {
	const op = "subset.TimeSeriesFolds"
	v := viewOf(c)
	n := v.n
	switch {
	case k < 1 || k+1 > n:
		return nil, fmt.Errorf("%s: k = %d folds outside [1, %d] for %d observations: %w", op, k, n-1, n, ErrFolds)
	case ts.TestSize < 0 || ts.Gap < 0 || ts.MaxTrain < 0:
		return nil, fmt.Errorf("%s: negative setting in %+v: %w", op, ts, ErrFolds)
	}
	size := ts.TestSize
	if size == 0 {
		size = n / (k + 1)
	}
	if ts.Gap >= n || size > (n-ts.Gap-1)/k { // Gap + k*size >= n, without overflow
		return nil, fmt.Errorf("%s: %d folds of %d observations after a gap of %d leave no training data among %d observations: %w", op, k, size, ts.Gap, n, ErrFolds)
	}
	return &Folds[T, B]{k: k, fold: func(f int) (*View[T, B], *View[T, B]) {
		val := n - (k-f)*size
		end := val - ts.Gap
		start := 0
		if ts.MaxTrain > 0 && ts.MaxTrain < end {
			start = end - ts.MaxTrain
		}
		return v.slice(start, end), v.slice(val, val+size)
	}}, nil
}
