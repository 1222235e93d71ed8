package subset_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

func TestResampleExamples(t *testing.T) {
	x := withLabels(t, []string{"a", "c", "c", "a", "b"})
	over, err := subset.Oversample(x, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{0, 1, 2, 3, 4, 4}, over.Indices()); d != "" {
		t.Errorf("Oversample mismatch (-want +got):\n%s", d)
	}
	under := subset.Undersample(x, nil)
	if d := cmp.Diff([]int{0, 1, 4}, under.Indices()); d != "" {
		t.Errorf("Undersample mismatch (-want +got):\n%s", d)
	}

	tests := []struct {
		labels   []int
		fraction float64
		want     []int
	}{
		// Whole copies while more than a class is missing, then the first members.
		{[]int{0, 0, 0, 0, 0, 0, 0, 1, 1}, 1, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 7, 8, 7, 8, 7}},
		// fraction 0.5 of 7 = 3.5 -> 4: class 1 gets 2 more.
		{[]int{0, 0, 0, 0, 0, 0, 0, 1, 1}, 0.5, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 7, 8}},
		// fraction 0: nothing added, nothing removed.
		{[]int{0, 1, 1}, 0, []int{0, 1, 2}},
		{nil, 1, nil},
	}
	for _, tc := range tests {
		v, err := subset.Oversample(withLabels(t, tc.labels), nil, tc.fraction)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tc.want, v.Indices(), cmpopts.EquateEmpty()); d != "" {
			t.Errorf("Oversample(%v, %v) mismatch (-want +got):\n%s", tc.labels, tc.fraction, d)
		}
	}
	for _, f := range []float64{-1, math.NaN(), math.Inf(1), 1e300} {
		_, err := subset.Oversample(x, nil, f)
		wantErr(t, "Oversample", err, subset.ErrFraction, "subset.Oversample")
	}
	if v := subset.Undersample(withLabels(t, []int{}), nil); v.Nobs() != 0 {
		t.Errorf("Undersample of nothing = %v, %v; want an empty view", v, err)
	}
}

// naiveOversample is the documented rule of Oversample without an rng, written
// from the documentation: every position once, then class by class (in order of
// first appearance) whole copies of the class while more than a class's worth is
// missing, then its first members.
func naiveOversample(labels []int, fraction float64) []int {
	var order []int
	members := map[int][]int{}
	for i, l := range labels {
		if members[l] == nil {
			order = append(order, l)
		}
		members[l] = append(members[l], i)
	}
	largest := 0
	for _, m := range members {
		largest = max(largest, len(m))
	}
	want := int(math.RoundToEven(fraction * float64(largest)))
	out := iota(len(labels))
	for _, l := range order {
		class := members[l]
		for need := want - len(class); need > 0; need -= len(class) {
			out = append(out, class[:min(need, len(class))]...)
		}
	}
	return out
}

// naiveUndersample keeps the first min-count members of every class, in data
// order.
func naiveUndersample(labels []int) []int {
	counts := map[int]int{}
	for _, l := range labels {
		counts[l]++
	}
	smallest := len(labels)
	for _, c := range counts {
		smallest = min(smallest, c)
	}
	kept := map[int]int{}
	var out []int
	for i, l := range labels {
		if kept[l] < smallest {
			kept[l]++
			out = append(out, i)
		}
	}
	return out
}

// TestResampleProperty checks on random labels that resampled class counts are
// exact, that oversampling keeps every original once before the copies and that
// undersampling repeats nothing; with and without a shuffle.
func TestResampleProperty(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 21))
		n := 1 + rng.IntN(200)
		labels := make([]int, n)
		for i := range labels {
			labels[i] = rng.IntN(1 + rng.IntN(5))
		}
		counts := countLabels(labels)
		largest, smallest := 0, n
		for _, c := range counts {
			largest, smallest = max(largest, c), min(smallest, c)
		}
		fraction := []float64{1, 0.5, 1.7}[seed%3]
		want := int(math.RoundToEven(fraction * float64(largest)))
		var shuffle *rand.Rand
		if seed%2 == 1 {
			shuffle = rand.New(rand.NewPCG(seed, 22))
		}
		l := withLabels(t, labels)
		over, err := subset.Oversample(l, shuffle, fraction)
		if err != nil {
			t.Fatal(err)
		}
		under := subset.Undersample(l, shuffle)
		for label, c := range countLabels(tuples.Labels(over)) {
			if w := max(want, counts[label]); c != w {
				t.Fatalf("seed %d: oversampled class %d has %d members, want %d", seed, label, c, w)
			}
		}
		for label, c := range countLabels(tuples.Labels(under)) {
			if c != smallest {
				t.Fatalf("seed %d: undersampled class %d has %d members, want %d", seed, label, c, smallest)
			}
		}
		oi := over.Indices()
		if shuffle == nil {
			if d := cmp.Diff(naiveOversample(labels, fraction), oi); d != "" {
				t.Fatalf("seed %d: Oversample(%v) mismatch (-reference +got):\n%s", seed, fraction, d)
			}
			if d := cmp.Diff(naiveUndersample(labels), under.Indices(), cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("seed %d: Undersample mismatch (-reference +got):\n%s", seed, d)
			}
			if !slices.Equal(oi[:n], rangeList(0, n)) {
				t.Fatalf("seed %d: oversampling without shuffle does not start with the originals in order", seed)
			}
		} else {
			seen := make([]bool, n)
			for _, i := range oi {
				seen[i] = true
			}
			if slices.Contains(seen, false) {
				t.Fatalf("seed %d: shuffled oversampling lost an original", seed)
			}
		}
		ui := under.Indices()
		sorted := slices.Clone(ui)
		slices.Sort(sorted)
		if len(slices.Compact(sorted)) != len(ui) {
			t.Fatalf("seed %d: undersampling repeated an observation: %v", seed, ui)
		}
		if shuffle == nil && !slices.IsSorted(ui) {
			t.Fatalf("seed %d: undersampling without shuffle is not in data order: %v", seed, ui)
		}
	}
}

// countLabels counts the members of each label.
func countLabels(labels []int) map[int]int {
	counts := map[int]int{}
	for _, l := range labels {
		counts[l]++
	}
	return counts
}

func TestResampleDeterministic(t *testing.T) {
	labels := make([]int, 100)
	for i := range labels {
		labels[i] = i % 7 % 3
	}
	l := withLabels(t, labels)
	a, _ := subset.Oversample(l, rand.New(rand.NewPCG(9, 9)), 1)
	b, _ := subset.Oversample(l, rand.New(rand.NewPCG(9, 9)), 1)
	if !slices.Equal(a.Indices(), b.Indices()) {
		t.Error("Oversample with the same seed gave different results")
	}
	c := subset.Undersample(l, rand.New(rand.NewPCG(9, 9)))
	d := subset.Undersample(l, rand.New(rand.NewPCG(9, 9)))
	if !slices.Equal(c.Indices(), d.Indices()) {
		t.Error("Undersample with the same seed gave different results")
	}
}

func TestRandObs(t *testing.T) {
	src := floats(10)
	v, err := subset.RandObs(src, rand.New(rand.NewPCG(1, 1)), 1000)
	if err != nil {
		t.Fatal(err)
	}
	ref := rand.New(rand.NewPCG(1, 1))
	seen := make([]int, 10)
	for i, j := range v.Indices() {
		if w := ref.IntN(10); j != w {
			t.Fatalf("RandObs index %d = %d, want rng.IntN(10) = %d", i, j, w)
		}
		seen[j]++
	}
	for i, c := range seen {
		if c < 50 {
			t.Errorf("index %d drawn %d times of 1000, want about 100", i, c)
		}
	}
	if e, err := subset.RandObs(floats(0), rand.New(rand.NewPCG(1, 1)), 0); err != nil || e.Nobs() != 0 {
		t.Errorf("RandObs(empty, 0) = %v, %v; want an empty view", e, err)
	}
	_, err = subset.RandObs(floats(0), rand.New(rand.NewPCG(1, 1)), 3)
	wantErr(t, "RandObs(empty, 3)", err, container.ErrEmpty, 3)
	wantArgPanic(t, "RandObs(-1)", "subset.RandObs", "count", func() { subset.RandObs(src, rand.New(rand.NewPCG(1, 1)), -1) })
	wantArgPanic(t, "RandObs(nil rng)", "subset.RandObs", "rng", func() { subset.RandObs(src, nil, 1) })
}

func TestBootstrap(t *testing.T) {
	for _, n := range []int{0, 1, 500} {
		sample, oob := subset.Bootstrap(floats(n), rand.New(rand.NewPCG(2, uint64(n))))
		if sample.Nobs() != n {
			t.Fatalf("Bootstrap(%d): sample of %d", n, sample.Nobs())
		}
		drawn := make([]bool, n)
		for _, i := range sample.Indices() {
			drawn[i] = true
		}
		var want []int
		for i, d := range drawn {
			if !d {
				want = append(want, i)
			}
		}
		if d := cmp.Diff(want, oob.Indices(), cmpopts.EquateEmpty()); d != "" {
			t.Errorf("Bootstrap(%d) out-of-bag mismatch (-want +got):\n%s", n, d)
		}
		if n == 500 && (len(want) < 140 || len(want) > 230) {
			t.Errorf("Bootstrap(500): %d out of bag, want about 184", len(want))
		}
	}
	wantArgPanic(t, "Bootstrap(nil rng)", "subset.Bootstrap", "rng", func() { subset.Bootstrap(floats(3), nil) })
	wantArgPanic(t, "Shuffle(nil rng)", "subset.Shuffle", "rng", func() { subset.Shuffle(floats(3), nil) })
}
