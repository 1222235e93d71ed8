package subset_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/subset"
)

// FuzzSplitFolds checks the rules of splits, folds, stratified folds and
// partitions on arbitrary (n, fractions, k): errors exactly when the arguments
// are out of range, and otherwise parts that partition the data with the
// documented sizes.
func FuzzSplitFolds(f *testing.F) {
	f.Add(uint16(10), 0.7, 0.0, uint8(3), uint64(1))
	f.Add(uint16(150), 0.2, 0.3, uint8(5), uint64(2))
	f.Add(uint16(15), 0.7, 0.3, uint8(15), uint64(3))
	f.Add(uint16(0), 0.5, 0.5, uint8(2), uint64(4))
	f.Add(uint16(7), 1.0, 0.0, uint8(1), uint64(5))
	f.Add(uint16(9), 0.1, 0.2, uint8(9), uint64(6))
	f.Add(uint16(4), math.NaN(), -0.5, uint8(0), uint64(7))
	f.Fuzz(func(t *testing.T, n16 uint16, a, b float64, k8 uint8, seed uint64) {
		n, k := int(n16%5000), int(k8)
		valid := a >= 0 && a <= 1 && b >= 0 && b <= 1 && a+b <= 1+1e-9
		parts, err := subset.Split(subset.Iota(n), nil, a, b)
		switch {
		case !valid:
			if !errors.Is(err, subset.ErrFraction) {
				t.Fatalf("Split(%d, %v, %v): error %v, want ErrFraction", n, a, b, err)
			}
		case err != nil && !errors.Is(err, container.ErrEmpty):
			t.Fatalf("Split(%d, %v, %v): %v", n, a, b, err)
		case (err != nil) != leavesEmpty(n, a, b):
			// ErrEmpty exactly when the rule leaves a part of nonzero fraction empty.
			t.Fatalf("Split(%d, %v, %v): error %v, but the sizes are %v", n, a, b, err, naiveSizes(n, []float64{a, b}))
		case err != nil:
		default:
			want := 3
			if a+b >= 1-1e-9 {
				want = 2
			}
			if len(parts) != want {
				t.Fatalf("Split(%d, %v, %v) gave %d parts, want %d", n, a, b, len(parts), want)
			}
			sum := 0
			for k, p := range parts {
				if p.Nobs() > 0 && p.Index(0) != sum {
					t.Fatalf("Split(%d, %v, %v): part %d starts at %d, want %d", n, a, b, k, p.Index(0), sum)
				}
				sum += p.Nobs()
			}
			if sum != n {
				t.Fatalf("Split(%d, %v, %v): sizes sum to %d", n, a, b, sum)
			}
			if d := math.Abs(float64(parts[0].Nobs()) - a*float64(n)); d > 0.5+1e-9 {
				t.Fatalf("Split(%d, %v, %v): first part of %d off by %v", n, a, b, parts[0].Nobs(), d)
			}
			if d := float64(parts[1].Nobs()) - b*float64(n); math.Abs(d) > 0.5+1e-9 && want == 3 {
				t.Fatalf("Split(%d, %v, %v): second part of %d off by %v", n, a, b, parts[1].Nobs(), d)
			}
		}

		var rng *rand.Rand
		if seed%2 == 1 {
			rng = rand.New(rand.NewPCG(seed, 0))
		}
		folds, err := subset.KFolds(subset.Iota(n), rng, k)
		if (k >= 2 && k <= n) != (err == nil) || (err != nil && !errors.Is(err, subset.ErrFolds)) {
			t.Fatalf("KFolds(%d, %d): error %v", n, k, err)
		}
		if err == nil {
			checkFolds(t, "KFolds", n, folds)
		}

		labels := make([]int, n)
		lr := rand.New(rand.NewPCG(seed, 1))
		nclass := 1 + int(seed%4)
		for i := range labels {
			labels[i] = lr.IntN(nclass)
		}
		sf, err := subset.StratifiedKFolds(withLabels(t, labels), rng, k)
		smallest := n
		for _, c := range countLabels(labels) {
			smallest = min(smallest, c)
		}
		switch {
		case k < 2 || k > n:
			if !errors.Is(err, subset.ErrFolds) {
				t.Fatalf("StratifiedKFolds(%d, %d): error %v, want ErrFolds", n, k, err)
			}
		case smallest < k:
			if !errors.Is(err, subset.ErrClassSize) {
				t.Fatalf("StratifiedKFolds(%d, %d), smallest class %d: error %v, want ErrClassSize", n, k, smallest, err)
			}
		case err != nil:
			t.Fatalf("StratifiedKFolds(%d, %d): %v", n, k, err)
		default:
			checkFolds(t, "StratifiedKFolds", n, sf)
		}

		if k >= 1 {
			seen := make([]int, n)
			for p := range k {
				var prng *rand.Rand // every worker shuffles with the same seed
				if seed%2 == 1 {
					prng = rand.New(rand.NewPCG(seed, 2))
				}
				v, err := subset.Partition(subset.Iota(n), prng, index.Part{Index: p, Parts: k, Strided: seed%3 == 0})
				if err != nil {
					t.Fatal(err)
				}
				for _, i := range v.Indices() {
					seen[i]++
				}
			}
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("Partition(%d, %d parts): index %d in %d parts", n, k, i, c)
				}
			}
		}
	})
}

// leavesEmpty reports whether the size rule leaves a part of nonzero nominal
// fraction empty when n observations are split at a and b.
func leavesEmpty(n int, a, b float64) bool {
	nominal := []float64{a, b, 1 - (a + b)}
	for k, m := range naiveSizes(n, []float64{a, b}) {
		if m == 0 && nominal[k] > 1e-9 {
			return true
		}
	}
	return false
}
