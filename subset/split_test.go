package subset_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/subset"
)

// splitIndices is the index form of Split: the index lists of the parts of
// subset.Iota(n).
func splitIndices(n int, rng *rand.Rand, fractions ...float64) ([][]int, error) {
	parts, err := subset.Split(subset.Iota(n), rng, fractions...)
	if err != nil {
		return nil, err
	}
	return indices(parts), nil
}

// splitSizes returns the sizes of the parts of n observations.
func splitSizes(n int, fractions ...float64) ([]int, error) {
	parts, err := subset.Split(subset.Iota(n), nil, fractions...)
	if err != nil {
		return nil, err
	}
	sizes := make([]int, len(parts))
	for k, p := range parts {
		sizes[k] = p.Nobs()
	}
	return sizes, nil
}

// naiveSizes is the documented size rule written from the documentation, as a
// recursion: the first part of n at fraction a has round(a*n) observations
// (half to even, clamped to [0, n]); the other fractions are rescaled to the
// rest (a*n/rest, 0 once nothing is left) and split the same way; the last size
// is what remains. When the fractions sum to 1 (within 1e-9) the remainder goes
// to the last fraction's part instead of a part of its own.
func naiveSizes(n int, fractions []float64) []int {
	sizes := cutSizes(n, fractions)
	sum := 0.0
	for _, a := range fractions {
		sum += a
	}
	if k := len(fractions); k > 0 && sum >= 1-1e-9 {
		sizes[k-1] += sizes[k]
		sizes = sizes[:k]
	}
	return sizes
}

func cutSizes(n int, fractions []float64) []int {
	if len(fractions) == 0 {
		return []int{n}
	}
	n1 := min(max(int(math.RoundToEven(fractions[0]*float64(n))), 0), n)
	rest := n - n1
	scaled := make([]float64, len(fractions)-1)
	for j, b := range fractions[1:] {
		if rest > 0 {
			scaled[j] = b * float64(n) / float64(rest)
		}
	}
	return append([]int{n1}, cutSizes(rest, scaled)...)
}

func TestSplitExamples(t *testing.T) {
	tests := []struct {
		n         int
		fractions []float64
		want      [][]int
	}{
		{10, []float64{0.7}, [][]int{rangeList(0, 7), rangeList(7, 10)}},
		{10, []float64{0.5, 0.3}, [][]int{rangeList(0, 5), rangeList(5, 8), rangeList(8, 10)}},
		{100, []float64{0.1, 0.4}, [][]int{rangeList(0, 10), rangeList(10, 50), rangeList(50, 100)}},
		// Fractions summing to 1 give one part per fraction, no empty rest.
		{10, []float64{1}, [][]int{rangeList(0, 10)}},
		{10, []float64{0, 1}, [][]int{{}, rangeList(0, 10)}},
		{10, []float64{0.5, 0.5}, [][]int{rangeList(0, 5), rangeList(5, 10)}},
		{10, []float64{1, 0}, [][]int{rangeList(0, 10), {}}},
		{10, []float64{0.1, 0.2, 0.7}, [][]int{rangeList(0, 1), rangeList(1, 3), rangeList(3, 10)}},
		{10, []float64{0.7, 0.15, 0.15}, [][]int{rangeList(0, 7), rangeList(7, 9), rangeList(9, 10)}},
		// A fraction of exactly 0 asks for an empty part and gets one.
		{10, []float64{0, 0.6}, [][]int{{}, rangeList(0, 6), rangeList(6, 10)}},
		{10, []float64{0.6, 0.4, 0}, [][]int{rangeList(0, 6), rangeList(6, 10), {}}},
		{2, []float64{0.5, 0.5, 0}, [][]int{{0}, {1}, {}}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.n, tc.fractions), func(t *testing.T) {
			got, err := splitIndices(tc.n, nil, tc.fractions...)
			if err != nil {
				t.Fatalf("Split(%d, %v): %v", tc.n, tc.fractions, err)
			}
			if d := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("Split(%d, %v) mismatch (-want +got):\n%s", tc.n, tc.fractions, d)
			}
		})
	}
}

func TestSplitSizesExamples(t *testing.T) {
	tests := []struct {
		n         int
		fractions []float64
		want      []int
	}{
		{150, []float64{0.7}, []int{105, 45}},
		{150, []float64{0.2, 0.3}, []int{30, 45, 75}},
		{15, []float64{0.7}, []int{10, 5}},          // 10.5 rounds to the even 10
		{5, []float64{0.5}, []int{2, 3}},            // 2.5 -> 2
		{7, []float64{0.5}, []int{4, 3}},            // 3.5 -> 4
		{3, []float64{0.5}, []int{2, 1}},            // 1.5 -> 2
		{10, []float64{0.25, 0.25}, []int{2, 2, 6}}, // 2.5 -> 2; then 0.25*10/8 = 0.3125 of 8 = 2.5 -> 2
		{6, []float64{0.25, 0.25}, []int{2, 2, 2}},  // 1.5 -> 2; then 0.25*6/4 = 0.375 of 4 = 1.5 -> 2
		// Summing to 1: the last fraction's part takes the rounding remainder.
		{7, []float64{0.7, 0.15, 0.15}, []int{5, 1, 1}},
		{20, []float64{0.7, 0.15, 0.15}, []int{14, 3, 3}},
		{10, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, []int{3, 3, 4}}, // 3.3 -> 3 twice; the last takes 3.3 -> 3 and the remainder 1
	}
	for _, tc := range tests {
		got, err := splitSizes(tc.n, tc.fractions...)
		if err != nil {
			t.Fatalf("Split(%d, %v): %v", tc.n, tc.fractions, err)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("Split(%d, %v) sizes mismatch (-want +got):\n%s", tc.n, tc.fractions, d)
		}
		if d := cmp.Diff(tc.want, naiveSizes(tc.n, tc.fractions)); d != "" {
			t.Errorf("naiveSizes(%d, %v) disagrees with the table (-table +naive):\n%s", tc.n, tc.fractions, d)
		}
	}
}

// TestSplitSumsToOne checks that fractions summing to 1 up to floating-point
// rounding (0.7+0.15+0.15 is 0.9999999999999999) give exactly one part per
// fraction, covering every observation, shuffled or not.
func TestSplitSumsToOne(t *testing.T) {
	for _, fr := range [][]float64{{0.7, 0.15, 0.15}, {0.1, 0.2, 0.7}, {0.6, 0.4}, {0.8, 0.2}, {1}} {
		for _, n := range []int{7, 10, 20, 101, 1000} {
			for _, rng := range []*rand.Rand{nil, rand.New(rand.NewPCG(uint64(n), 1))} {
				parts, err := splitIndices(n, rng, fr...)
				if err != nil {
					t.Fatalf("Split(%d, %v): %v", n, fr, err)
				}
				if len(parts) != len(fr) {
					t.Fatalf("Split(%d, %v) gave %d parts, want %d", n, fr, len(parts), len(fr))
				}
				seen := make([]int, n)
				for _, p := range parts {
					for _, i := range p {
						seen[i]++
					}
				}
				for i, c := range seen {
					if c != 1 {
						t.Fatalf("Split(%d, %v): observation %d in %d parts, want 1", n, fr, i, c)
					}
				}
			}
		}
	}
}

func TestSplitErrors(t *testing.T) {
	tests := []struct {
		name      string
		fractions []float64
		names     []any
	}{
		{"none", nil, []any{"no fractions"}},
		{"negative", []float64{-0.1}, []any{-0.1}},
		{"above one", []float64{0.2, 1.5}, []any{1.5, "fractions[1]"}},
		{"NaN", []float64{math.NaN()}, []any{"NaN"}},
		{"infinite", []float64{math.Inf(1)}, []any{"+Inf"}},
		{"sum above one", []float64{0.7, 0.5}, []any{"1.2", "[0.7 0.5]"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := subset.Split(floats(10), nil, tc.fractions...)
			wantErr(t, "Split", err, subset.ErrFraction, append(tc.names, "subset.Split")...)
		})
	}
}

// TestSplitEmptyPart checks that a part whose fraction (or the rest, 1 minus the
// sum) is above 0 but rounds to no observation is an error wrapping ErrEmpty
// naming the part, while a fraction of exactly 0 is not.
func TestSplitEmptyPart(t *testing.T) {
	tests := []struct {
		n         int
		fractions []float64
		names     []any
	}{
		// 9.5 rounds to the even 10: the rest (0.05) would be empty.
		{10, []float64{0.95}, []any{"part 1", "of 10 observations"}},
		{1, []float64{0.5}, []any{"part 0 (fraction 0.5)"}},
		{1, []float64{0.5, 0.5}, []any{"part 0 (fraction 0.5)"}}, // 0.5 -> 0; the first empty part is named
		{0, []float64{0}, []any{"part 1 (fraction 1)"}},
		{0, []float64{0, 1}, []any{"part 1 (fraction 1)"}},
		{0, []float64{0.5}, []any{"part 0", "of 0 observations"}},
		{0, []float64{1}, []any{"part 0 (fraction 1)"}},
		{10, []float64{0.01, 0.5}, []any{"part 0 (fraction 0.01)"}},
		{3, []float64{0.1, 0.1, 0.8}, []any{"part 0"}},
	}
	for _, tc := range tests {
		_, err := subset.Split(subset.Iota(tc.n), nil, tc.fractions...)
		wantErr(t, fmt.Sprintf("Split(%d, %v)", tc.n, tc.fractions), err, container.ErrEmpty, append(tc.names, "subset.Split", "would be empty")...)
		_, err = subset.Split(subset.Iota(tc.n), rand.New(rand.NewPCG(1, 1)), tc.fractions...)
		wantErr(t, fmt.Sprintf("shuffled Split(%d, %v)", tc.n, tc.fractions), err, container.ErrEmpty)
	}
	// 10 observations at 0.94 leave one for the rest.
	if sizes, err := splitSizes(10, 0.94); err != nil || !cmp.Equal(sizes, []int{9, 1}) {
		t.Errorf("Split(10, 0.94) sizes = %v, %v; want [9 1]", sizes, err)
	}
}

func TestSplitCounts(t *testing.T) {
	tests := []struct {
		n      int
		counts []int
		want   [][]int
	}{
		{10, []int{3, 2}, [][]int{rangeList(0, 3), rangeList(3, 5), rangeList(5, 10)}},
		// Counts summing to n: no rest part.
		{10, []int{3, 7}, [][]int{rangeList(0, 3), rangeList(3, 10)}},
		{10, []int{0, 10}, [][]int{{}, rangeList(0, 10)}},
		{10, []int{0}, [][]int{{}, rangeList(0, 10)}},
		{10, nil, [][]int{rangeList(0, 10)}},
		{0, []int{0}, [][]int{{}}},
	}
	for _, tc := range tests {
		parts, err := subset.SplitCounts(subset.Iota(tc.n), nil, tc.counts...)
		if err != nil {
			t.Fatalf("SplitCounts(%d, %v): %v", tc.n, tc.counts, err)
		}
		if d := cmp.Diff(tc.want, indices(parts), cmpopts.EquateEmpty()); d != "" {
			t.Errorf("SplitCounts(%d, %v) mismatch (-want +got):\n%s", tc.n, tc.counts, d)
		}
	}
	_, err := subset.SplitCounts(floats(10), nil, 3, -2)
	wantErr(t, "SplitCounts(3, -2)", err, subset.ErrCount, -2, "counts[1]")
	_, err = subset.SplitCounts(floats(10), nil, 6, 5)
	wantErr(t, "SplitCounts(6, 5)", err, subset.ErrCount, "[6 5]", 10)
}

// TestSplitShuffled checks that a non-nil rng shuffles first: the parts are
// consecutive blocks of rng.Perm(n).
func TestSplitShuffled(t *testing.T) {
	const n = 50
	perm := rand.New(rand.NewPCG(11, 12)).Perm(n)
	parts, err := subset.Split(floats(n), rand.New(rand.NewPCG(11, 12)), 0.6, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := splitIndices(n, rand.New(rand.NewPCG(11, 12)), 0.6, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	counts, err := subset.SplitCounts(floats(n), rand.New(rand.NewPCG(11, 12)), 30, 15)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int{perm[:30], perm[30:45], perm[45:]}
	if d := cmp.Diff(want, indices(parts)); d != "" {
		t.Errorf("Split mismatch (-want +got):\n%s", d)
	}
	if d := cmp.Diff(want, idx); d != "" {
		t.Errorf("Split of Iota mismatch (-want +got):\n%s", d)
	}
	if d := cmp.Diff(want, indices(counts)); d != "" {
		t.Errorf("SplitCounts mismatch (-want +got):\n%s", d)
	}
	// The parts share one permutation and read the data through it.
	for k, p := range parts {
		for i := range p.Nobs() {
			if got := p.GetObs(i); got != float64(want[k][i])+0.5 {
				t.Fatalf("part %d observation %d = %v, want %v", k, i, got, float64(want[k][i])+0.5)
			}
		}
	}
}

// TestSplitProperty checks random splits against the naive size rule: an error
// wrapping ErrEmpty exactly when the rule leaves a part of nonzero fraction
// empty, and otherwise parts of the rule's sizes that partition the data, one
// per fraction (and one for the rest unless the fractions sum to 1), every part
// but the last within 1/2 of a*n.
func TestSplitProperty(t *testing.T) {
	empties := 0
	for seed := range uint64(600) {
		rng := rand.New(rand.NewPCG(seed, 3))
		n := rng.IntN(1000)
		if seed%4 == 0 {
			n = rng.IntN(12)
		}
		fr := make([]float64, 1+rng.IntN(3))
		left := 1.0
		for k := range fr {
			fr[k] = rng.Float64() * left
			left -= fr[k]
		}
		if seed%5 == 0 { // sum to 1 exactly in exact arithmetic
			fr[len(fr)-1] += left
		}
		var shuffle *rand.Rand
		if seed%2 == 1 {
			shuffle = rand.New(rand.NewPCG(seed, 4))
		}
		want := naiveSizes(n, fr)
		wantEmpty := false
		for k, m := range want {
			nominal := 1 - sum(fr)
			if k < len(fr) {
				nominal = fr[k]
			}
			wantEmpty = wantEmpty || (m == 0 && nominal > 1e-9)
		}
		parts, err := subset.Split(floats(n), shuffle, fr...)
		if wantEmpty {
			empties++
			wantErr(t, fmt.Sprintf("Split(%d, %v), sizes %v", n, fr, want), err, container.ErrEmpty)
			continue
		}
		if err != nil {
			t.Fatalf("Split(%d, %v): %v", n, fr, err)
		}
		got := make([]int, len(parts))
		seen := make([]int, n)
		for k, p := range parts {
			got[k] = p.Nobs()
			for _, i := range p.Indices() {
				seen[i]++
			}
			if k < len(parts)-1 {
				if d := math.Abs(float64(p.Nobs()) - fr[k]*float64(n)); d > 0.5+1e-6 {
					t.Errorf("Split(%d, %v): part %d has %d observations, %v from a*n", n, fr, k, p.Nobs(), d)
				}
			}
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("Split(%d, %v) sizes mismatch (-naive +got):\n%s", n, fr, d)
		}
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("Split(%d, %v): index %d is in %d parts, want 1", n, fr, i, c)
			}
		}
	}
	if empties == 0 || empties > 300 {
		t.Errorf("%d of 600 random splits would leave a part empty; the inputs do not test both outcomes", empties)
	}
}

func sum(fr []float64) float64 {
	s := 0.0
	for _, a := range fr {
		s += a
	}
	return s
}

// TestFractionMessages: a percentage given as a fraction says so, and a sum
// prints as the fractions a user wrote add up (issue 14: "fraction 80 (number
// 0)" did not suggest 0.8, and 0.7+0.4 printed as 1.0999999999999999).
func TestFractionMessages(t *testing.T) {
	for _, tc := range []struct {
		fractions []float64
		want      string
	}{
		{[]float64{80, 20}, "subset.Split: fraction 80 (fractions[0]) outside [0, 1] (a fraction is a share of 1, not a percentage: 80% is 0.8): fraction out of range"},
		{[]float64{0.7, 0.4}, "subset.Split: fractions [0.7 0.4] sum to 1.1, more than 1: fraction out of range"},
		{[]float64{-0.5}, "subset.Split: fraction -0.5 (fractions[0]) outside [0, 1]: fraction out of range"},
	} {
		_, err := subset.Split(subset.Iota(10), nil, tc.fractions...)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Split(%v) = %v, want %q", tc.fractions, err, tc.want)
		}
	}
}
