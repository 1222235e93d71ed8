package subset

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"

	"github.com/obskit/obskit/container"
)

// LeavePGroupsOut returns the folds that validate on every set of p groups
// (scikit-learn's LeavePGroupsOut): one fold per combination of p of the G
// distinct groups, C(G, p) folds, in the lexicographic order of the
// combinations of the groups sorted (NaN last), the order of scikit-learn's
// itertools.combinations over its sorted groups. Fold f validates on the
// observations of its p groups and trains on all the others, both in data
// order. groups is read as for [GroupKFolds].
//
// The folds are enumerated lazily: Len says how many there are, Fold(f) finds
// combination f in O(G*p) and builds its two index lists in O(n), so a
// million combinations cost nothing until they are visited. Leave-one-group-out
// is p = 1, as [LeaveOneGroupOut] (which shares one index list).
//
// LeavePGroupsOut returns an error wrapping [ErrFolds] when p < 1 or there are
// not more than p groups (a training set would be empty), and when C(G, p)
// does not fit an int, naming G and p. It panics with a [*container.ArgError]
// when groups is nil or its Nobs differs from c's.
func LeavePGroupsOut[T, B any, G cmp.Ordered](c container.Batched[T, B], groups container.Container[G], p int) (*Folds[T, B], error) {
	const op = "subset.LeavePGroupsOut"
	v := viewOf(c)
	gr := groupsOf(op, groups, v.n)
	ng := len(gr.counts)
	if p < 1 || p >= ng {
		return nil, fmt.Errorf("%s: p = %d groups outside [1, %d] for %d groups: %w", op, p, ng-1, ng, ErrFolds)
	}
	count, ok := binomial(ng, p)
	if !ok {
		return nil, fmt.Errorf("%s: C(%d, %d) folds, more than the largest int (%d): %w", op, ng, p, math.MaxInt, ErrFolds)
	}
	ids := gr.ids
	return &Folds[T, B]{k: count, fold: func(f int) (*View[T, B], *View[T, B]) {
		out := make([]bool, ng) // the groups left out
		for _, g := range combination(ng, p, f) {
			out[g] = true
		}
		nval := 0
		for _, g := range ids {
			if out[g] {
				nval++
			}
		}
		train, val := make([]int, 0, len(ids)-nval), make([]int, 0, nval)
		for pos, g := range ids {
			if out[g] {
				val = append(val, pos)
			} else {
				train = append(train, pos)
			}
		}
		return v.positions(train), v.positions(val)
	}}, nil
}

// combination returns combination f, 0-based, of the lexicographic order of
// the p-element subsets of {0, ..., n-1} (itertools.combinations(range(n), p)),
// with 0 <= f < C(n, p). Every binomial it computes is at most C(n, p), which
// fits an int.
func combination(n, p, f int) []int {
	out := make([]int, p)
	x := 0
	for j := range p {
		for {
			// The combinations whose element j is x, after the elements
			// chosen: C(n-x-1, p-j-1).
			m, _ := binomial(n-x-1, p-j-1)
			if f < m {
				break
			}
			f -= m
			x++
		}
		out[j] = x
		x++
	}
	return out
}

// binomial returns C(n, k) and true, or false when it does not fit an int.
// With k <= n-k, step i makes r = C(n-k+i, i) = C(n-k+i-1, i-1) * (n-k+i) / i,
// a division without remainder of a product taken in 128 bits; r grows with i,
// so no step overflows while the result fits.
func binomial(n, k int) (int, bool) {
	if k < 0 || k > n {
		return 0, true
	}
	k = min(k, n-k)
	r := uint64(1)
	for i := 1; i <= k; i++ {
		hi, lo := bits.Mul64(r, uint64(n-k+i))
		if hi >= uint64(i) {
			return 0, false // the quotient needs more than 64 bits
		}
		r, _ = bits.Div64(hi, lo, uint64(i))
		if r > math.MaxInt {
			return 0, false
		}
	}
	return int(r), true
}
