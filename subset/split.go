package subset

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/obskit/obskit/container"
)

// sumSlack is how far from 1 a sum of fractions may land and still count as 1:
// floating-point sums such as 0.1+0.2+0.7 = 1.0000000000000002 are not errors,
// and 0.7+0.15+0.15 = 0.9999999999999999 gives three parts, not four.
const sumSlack = 1e-9

// Split divides c into consecutive parts: part k holds the fraction fractions[k]
// of the observations. When the fractions sum to less than 1 a last part holds
// the rest; when they sum to 1 (within 1e-9) there is no extra part and the last
// fraction's part takes the rounding remainder. With a nil rng the parts are in
// data order ([0, n1), [n1, n1+n2), ...); a non-nil rng shuffles first (the parts
// are those of Shuffle(c, rng)). The part sizes follow MLUtils.splitobs: the first
// part of n observations at fraction a has round(a*n) observations, rounding half
// to even (Julia's and Python's round); the remaining fractions are rescaled to
// the remaining observations and split the same way. No observation is lost or
// repeated. The parts are views; without a shuffle they hold no index lists, with
// one they share the single permutation.
//
// Split returns an error wrapping [ErrFraction] when a fraction is outside [0, 1]
// or the fractions sum to more than 1, and one wrapping [container.ErrEmpty] when rounding
// would leave a part empty although its fraction (or the rest, 1 minus the sum)
// is above 0: 10 observations at 0.95 would leave no test part. A fraction of
// exactly 0 asks for an empty part and gets one.
//
//	parts, err := subset.Split(data, rng, 0.8) // shuffled 80/20 train/test
func Split[T, B any](c container.Batched[T, B], rng *rand.Rand, fractions ...float64) ([]*View[T, B], error) {
	const op = "subset.Split"
	nominal, err := partFractions(op, fractions)
	if err != nil {
		return nil, err
	}
	n := c.Nobs()
	sizes := partSizes(n, fractions, len(nominal))
	if k := emptyPart(nominal, sizes); k >= 0 {
		return nil, fmt.Errorf("%s: part %d (fraction %v) of %d observations would be empty: %w", op, k, nominal[k], n, container.ErrEmpty)
	}
	return cut(source(c, rng), sizes), nil
}

// SplitCounts divides c into consecutive parts of counts[0], counts[1], ...
// observations, and a last part of the rest when the counts sum to less than
// c.Nobs(), in data order or, with a non-nil rng, shuffled first, like [Split]. A
// count of 0 gives an empty part. It returns an error wrapping [ErrCount] when a
// count is negative or the counts sum to more than c.Nobs().
func SplitCounts[T, B any](c container.Batched[T, B], rng *rand.Rand, counts ...int) ([]*View[T, B], error) {
	n := c.Nobs()
	sizes := make([]int, 0, len(counts)+1)
	rest := n
	for k, m := range counts {
		if m < 0 {
			return nil, fmt.Errorf("subset.SplitCounts: count %d (counts[%d]) is negative: %w", m, k, ErrCount)
		}
		if m > rest {
			return nil, fmt.Errorf("subset.SplitCounts: counts %v sum to more than the %d observations: %w", counts, n, ErrCount)
		}
		sizes = append(sizes, m)
		rest -= m
	}
	if rest > 0 {
		sizes = append(sizes, rest)
	}
	return cut(source(c, rng), sizes), nil
}

// partFractions checks fractions and returns the nominal fraction of every
// part: the fractions, followed by the rest (1 minus their sum) when they sum to
// less than 1. It returns an error wrapping ErrFraction for no fractions, a
// fraction outside [0, 1] (NaN included) or a sum above 1.
func partFractions(op string, fractions []float64) ([]float64, error) {
	if len(fractions) == 0 {
		return nil, fmt.Errorf("%s: no fractions: %w", op, ErrFraction)
	}
	sum := 0.0
	for k, a := range fractions {
		if !(a >= 0 && a <= 1) {
			hint := ""
			if a >= 2 && a <= 100 { // a percentage, most likely
				hint = fmt.Sprintf(" (a fraction is a share of 1, not a percentage: %v%% is %v)", a, a/100)
			}
			return nil, fmt.Errorf("%s: fraction %v (fractions[%d]) outside [0, 1]%s: %w", op, a, k, hint, ErrFraction)
		}
		sum += a
	}
	if sum > 1+sumSlack {
		// 12 digits: 0.7+0.4 is 1.0999999999999999 in float64, which reads as a bug.
		return nil, fmt.Errorf("%s: fractions %v sum to %s, more than 1: %w", op, fractions, strconv.FormatFloat(sum, 'g', 12, 64), ErrFraction)
	}
	nominal := append(make([]float64, 0, len(fractions)+1), fractions...)
	if sum < 1-sumSlack {
		nominal = append(nominal, 1-sum)
	}
	return nominal, nil
}

// emptyPart returns the first part whose nominal fraction is above 0 but whose
// size is 0, or -1.
func emptyPart(nominal []float64, sizes []int) int {
	for k, m := range sizes {
		if m == 0 && nominal[k] > sumSlack {
			return k
		}
	}
	return -1
}

// partSizes returns the sizes of the nparts parts of n observations at checked
// fractions: len(fractions) parts when they sum to 1 (the last takes the
// rounding remainder), one more, the rest, otherwise.
func partSizes(n int, fractions []float64, nparts int) []int {
	sizes := fractionSizes(n, fractions)
	if k := len(fractions); nparts == k {
		sizes[k-1] += sizes[k] // a rounding remainder, 0 or a few observations
		sizes = sizes[:k]
	}
	return sizes
}

// fractionSizes is MLUtils.splitobs's rule, in the same floating-point steps:
// the first part has round(a1*n) observations, rounding half to even, clamped to
// [0, n]; the remaining fractions are rescaled to the remaining observations
// (a' = a*n/(n-n1)) and the rest is split the same way, recursively; the last of
// the len(fractions)+1 sizes holds whatever remains. Where MLUtils raises an error
// because a rescaled fraction leaves [0, 1] through rounding or a division by zero
// remaining observations, fractionSizes clamps it: once nothing remains, later
// parts are empty.
func fractionSizes(n int, fractions []float64) []int {
	sizes := make([]int, len(fractions)+1)
	at := append([]float64(nil), fractions...)
	level := n // the observations left for parts k, k+1, ...
	for k := range at {
		a := min(max(at[k], 0), 1)
		n1 := min(max(int(math.RoundToEven(a*float64(level))), 0), level)
		sizes[k] = n1
		rest := level - n1
		for j := k + 1; j < len(at); j++ {
			if rest == 0 {
				at[j] = 0
			} else {
				at[j] = at[j] * float64(level) / float64(rest)
			}
		}
		level = rest
	}
	sizes[len(fractions)] = level
	return sizes
}

// cut returns consecutive parts of v of the given sizes.
func cut[T, B any](v *View[T, B], sizes []int) []*View[T, B] {
	parts := make([]*View[T, B], len(sizes))
	lo := 0
	for k, m := range sizes {
		parts[k] = v.slice(lo, lo+m)
		lo += m
	}
	return parts
}
