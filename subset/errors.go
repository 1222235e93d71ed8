package subset

import "errors"

// Errors returned by the package. Each returned error wraps exactly one of them,
// or container.ErrEmpty (a part that would hold no observation, a draw from an
// empty container), and its message names the function and the offending value.
var (
	// ErrFraction: a fraction is outside [0, 1] or not a number, fractions sum to
	// more than 1, or a resampling fraction is negative or not finite.
	ErrFraction = errors.New("fraction out of range")
	// ErrCount: a count is negative or the counts sum to more than the number of
	// observations.
	ErrCount = errors.New("count out of range")
	// ErrFolds: the number of folds (or leave-out size, or time-series fold
	// settings) does not fit the number of observations.
	ErrFolds = errors.New("folds out of range")
	// ErrClassSize: a class has too few members for a stratified k-fold.
	ErrClassSize = errors.New("class too small")
)
