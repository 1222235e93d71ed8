package subset_test

import (
	"fmt"
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

// stratIndices is the index form of StratifiedSplit for labels in a slice.
func stratIndices[L int | string](t *testing.T, labels []L, rng *rand.Rand, fractions ...float64) ([][]int, error) {
	t.Helper()
	parts, err := subset.StratifiedSplit(withLabels(t, labels), rng, fractions...)
	if err != nil {
		return nil, err
	}
	return indices(parts), nil
}

func TestStratifiedSplitExamples(t *testing.T) {
	tests := []struct {
		labels    []int
		fractions []float64
		want      [][]int
	}{
		{[]int{0, 0, 0, 0, 1, 1, 1, 1, 1, 1}, []float64{0.5}, [][]int{{0, 1, 4, 5, 6}, {2, 3, 7, 8, 9}}},
		// Classes interleaved: each part keeps data order.
		{[]int{1, 0, 1, 0, 1, 0, 1, 0}, []float64{0.5}, [][]int{{0, 1, 2, 3}, {4, 5, 6, 7}}},
		{[]int{7, 7, 7, 7, 7, 7, 7, 7, 7, 7}, []float64{0.5, 0.3}, [][]int{{0, 1, 2, 3, 4}, {5, 6, 7}, {8, 9}}},
		// 3 members at 0.5: 1.5 rounds to 2; 1 member: 0.5 rounds to 0.
		{[]int{2, 2, 2, 5}, []float64{0.5}, [][]int{{0, 1}, {2, 3}}},
		// Fractions summing to 1: one part each.
		{[]int{0, 0, 0, 0, 1, 1, 1, 1, 1, 1}, []float64{0.5, 0.5}, [][]int{{0, 1, 4, 5, 6}, {2, 3, 7, 8, 9}}},
		{[]int{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}, []float64{0.7, 0.15, 0.15},
			[][]int{rangeList(0, 14), {14, 15, 16, 17}, {18, 19}}},
		// A fraction of exactly 0: an empty part, no error.
		{[]int{3, 3, 4, 4}, []float64{0, 0.5}, [][]int{{}, {0, 2}, {1, 3}}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.labels, tc.fractions), func(t *testing.T) {
			got, err := stratIndices(t, tc.labels, nil, tc.fractions...)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("StratifiedSplit(%v, %v) mismatch (-want +got):\n%s", tc.labels, tc.fractions, d)
			}
		})
	}
}

func TestStratifiedErrors(t *testing.T) {
	labels := withLabels(t, []string{"a", "b", "a", "b", "b"})
	_, err := subset.StratifiedSplit(labels, nil, 1.5)
	wantErr(t, "StratifiedSplit(1.5)", err, subset.ErrFraction, 1.5, "subset.StratifiedSplit")
	_, err = subset.StratifiedSplit(labels, nil)
	wantErr(t, "StratifiedSplit()", err, subset.ErrFraction, "no fractions")
	_, err = subset.StratifiedSplit(withLabels(t, []string{"a"}), nil, -1)
	wantErr(t, "StratifiedSplit(-1)", err, subset.ErrFraction, -1)
	_, err = subset.StratifiedKFolds(labels, nil, 3)
	wantErr(t, "StratifiedKFolds(3)", err, subset.ErrClassSize, "class a has 2 members", "k = 3")
	_, err = subset.StratifiedKFolds(labels, nil, 6)
	wantErr(t, "StratifiedKFolds(6)", err, subset.ErrFolds, "k = 6")
	_, err = subset.StratifiedKFolds(labels, nil, 1)
	wantErr(t, "StratifiedKFolds(1)", err, subset.ErrFolds, "k = 1")
}

// TestStratifiedTooSmall checks that a stratified split whose classes are too
// small to put anything in a part of nonzero fraction is refused, as
// scikit-learn refuses it, with an error wrapping ErrEmpty that names the
// largest class and its size.
func TestStratifiedTooSmall(t *testing.T) {
	tests := []struct {
		labels    []string
		fractions []float64
		names     []any // named with or without a shuffle
		largest   string
	}{
		// Each class has one member: every member goes to the 0.8 part. All
		// classes are the largest; the first (in the order read) is named.
		{[]string{"a", "b", "c"}, []float64{0.8, 0.2}, []any{"part 1 (fraction 0.2)", "has 1"}, "the largest, class a, has 1"},
		{[]string{"a", "b", "c"}, []float64{0.8}, []any{"part 1", "has 1"}, "the largest, class a, has 1"},
		// The largest class need not come first: 1.6 rounds to 2 of 2.
		{[]string{"a", "b", "b", "c"}, []float64{0.8}, []any{"the largest, class b, has 2"}, ""},
		{[]string{"a", "b"}, []float64{0.2, 0.8}, []any{"part 0 (fraction 0.2)", "has 1"}, "class a, has 1"},
		{nil, []float64{0.5}, []any{"part 0", "of 0 observations"}, ""},
	}
	for _, tc := range tests {
		what := fmt.Sprintf("StratifiedSplit(%v, %v)", tc.labels, tc.fractions)
		_, err := subset.StratifiedSplit(withLabels(t, tc.labels), nil, tc.fractions...)
		wantErr(t, what, err, container.ErrEmpty, append(tc.names, "subset.StratifiedSplit", tc.largest)...)
		_, err = subset.StratifiedSplit(withLabels(t, tc.labels), rand.New(rand.NewPCG(1, 2)), tc.fractions...)
		wantErr(t, "shuffled "+what, err, container.ErrEmpty, tc.names...)
	}
	// A class smaller than the number of parts is absent from some parts; the
	// parts are not empty, so that is no error.
	got, err := stratIndices(t, []string{"a", "a", "a", "a", "b"}, nil, 0.5)
	if err != nil || !cmp.Equal(got, [][]int{{0, 1}, {2, 3, 4}}) {
		t.Errorf("StratifiedSplit with a one-member class = %v, %v; want [[0 1] [2 3 4]]", got, err)
	}
}

// TestStratifiedShuffleFirst checks the package rule: a non-nil rng gives the
// result of the same call on Shuffle(c, rng).
func TestStratifiedShuffleFirst(t *testing.T) {
	labels := make([]int, 40)
	for i := range labels {
		labels[i] = i % 3
	}
	l := withLabels(t, labels)
	parts, err := subset.StratifiedSplit(l, rand.New(rand.NewPCG(4, 4)), 0.7)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := subset.StratifiedSplit(subset.Shuffle(l, rand.New(rand.NewPCG(4, 4))), nil, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(indices(ref), indices(parts)); d != "" {
		t.Errorf("parts mismatch (-Shuffle first +rng):\n%s", d)
	}
	folds, err := subset.StratifiedKFolds(l, rand.New(rand.NewPCG(4, 4)), 4)
	if err != nil {
		t.Fatal(err)
	}
	refFolds, err := subset.StratifiedKFolds(subset.Shuffle(l, rand.New(rand.NewPCG(4, 4))), nil, 4)
	if err != nil {
		t.Fatal(err)
	}
	a, b := foldLists(folds)
	c, d := foldLists(refFolds)
	if !cmp.Equal(a, c) || !cmp.Equal(b, d) {
		t.Error("StratifiedKFolds with rng differs from StratifiedKFolds of Shuffle(c, rng)")
	}
}

// sklearnStratifiedFolds is a direct transcription of scikit-learn's
// StratifiedKFold._make_test_folds (shuffle=False): the fold of every position.
func sklearnStratifiedFolds[L comparable](labels []L, k int) []int {
	// y_encoded: classes numbered in order of first appearance.
	code := map[L]int{}
	enc := make([]int, len(labels))
	for i, l := range labels {
		if _, ok := code[l]; !ok {
			code[l] = len(code)
		}
		enc[i] = code[l]
	}
	order := slices.Clone(enc)
	slices.Sort(order)
	nc := len(code)
	alloc := make([][]int, k) // alloc[f][c] = bincount(y_order[f::k])
	for f := range k {
		alloc[f] = make([]int, nc)
		for q := f; q < len(order); q += k {
			alloc[f][order[q]]++
		}
	}
	test := make([]int, len(labels))
	for c := range nc {
		var folds []int // np.arange(k).repeat(alloc[:, c])
		for f := range k {
			for range alloc[f][c] {
				folds = append(folds, f)
			}
		}
		j := 0
		for i := range labels {
			if enc[i] == c {
				test[i] = folds[j]
				j++
			}
		}
	}
	return test
}

// sklearnValidation returns the validation sets of the scikit-learn folds.
func sklearnValidation[L comparable](labels []L, k int) [][]int {
	val := make([][]int, k)
	for i, f := range sklearnStratifiedFolds(labels, k) {
		val[f] = append(val[f], i)
	}
	return val
}

func TestStratifiedKFoldsMatchesScikitLearn(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 13))
		k := 2 + rng.IntN(5)
		nclass := 1 + rng.IntN(4)
		n := k*nclass + rng.IntN(60)
		labels := make([]int, n)
		for i := range labels {
			labels[i] = 10 * rng.IntN(nclass)
		}
		// Every class needs k members: the first k*nclass labels cover them.
		for c := range nclass {
			for j := range k {
				labels[c*k+j] = 10 * c
			}
		}
		rng.Shuffle(n, func(i, j int) { labels[i], labels[j] = labels[j], labels[i] })
		data := withLabels(t, labels)
		folds, err := subset.StratifiedKFolds(data, nil, k)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkFolds(t, "StratifiedKFolds", n, folds)
		want := sklearnValidation(labels, k)
		for f := range k {
			_, val := folds.Fold(f)
			if d := cmp.Diff(want[f], val.Indices(), cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("seed %d (n=%d, k=%d): validation set %d mismatch (-scikit-learn +got):\n%s", seed, n, k, f, d)
			}
			if m := val.Nobs(); m < n/k || m > n/k+1 || (f > 0 && m > foldSize(folds, f-1)) {
				t.Fatalf("seed %d: validation set %d has %d observations, want n/k or n/k+1, larger first", seed, f, m)
			}
		}
		// Every class is spread evenly: n_c/k or n_c/k+1 members per fold.
		for _, c := range subset.Classes(data) {
			for f := range k {
				_, val := folds.Fold(f)
				m := 0
				for _, l := range tuples.Labels(val) {
					if l == c.Label {
						m++
					}
				}
				if nc := len(c.Indices); m < nc/k || m > nc/k+1 {
					t.Fatalf("seed %d: class %d (%d members) has %d in fold %d, want %d or %d", seed, c.Label, nc, m, f, nc/k, nc/k+1)
				}
			}
		}
	}
}

func foldSize[T, B any](fs *subset.Folds[T, B], f int) int {
	_, val := fs.Fold(f)
	return val.Nobs()
}

// naiveStratified is the reference: each class's members in data order
// (grouped here with a map, not with the package's classes) are cut by the naive
// size rule, and each part is the sorted union.
func naiveStratified[L comparable](labels []L, fractions []float64) [][]int {
	members := map[L][]int{}
	for i, l := range labels {
		members[l] = append(members[l], i)
	}
	parts := make([][]int, len(naiveSizes(0, fractions)))
	for _, class := range members {
		lo := 0
		for k, m := range naiveSizes(len(class), fractions) {
			parts[k] = append(parts[k], class[lo:lo+m]...)
			lo += m
		}
	}
	for _, p := range parts {
		slices.Sort(p)
	}
	return parts
}

// TestStratifiedSplitProperty checks random stratified splits against the naive
// reference, including when it refuses (a part of nonzero fraction left empty),
// class counts within one of proportional, and shuffled splits against the
// class counts of the unshuffled one.
func TestStratifiedSplitProperty(t *testing.T) {
	refused := 0
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 17))
		n := rng.IntN(300)
		if seed%4 == 0 {
			n = rng.IntN(8)
		}
		nclass := 1 + rng.IntN(5)
		labels := make([]int, n)
		for i := range labels {
			labels[i] = rng.IntN(nclass) * rng.IntN(2) // skewed classes
		}
		fr := make([]float64, 1+rng.IntN(2))
		left := 1.0
		for k := range fr {
			fr[k] = rng.Float64() * left
			left -= fr[k]
		}
		if seed%3 == 0 {
			fr[len(fr)-1] += left
			left = 0
		}
		want := naiveStratified(labels, fr)
		empty := false
		for k, p := range want {
			nominal := left
			if k < len(fr) {
				nominal = fr[k]
			}
			empty = empty || (len(p) == 0 && nominal > 1e-9)
		}
		got, err := stratIndices(t, labels, nil, fr...)
		if empty {
			refused++
			wantErr(t, fmt.Sprintf("seed %d: StratifiedSplit(%v)", seed, fr), err, container.ErrEmpty)
			continue
		}
		if err != nil {
			t.Fatalf("seed %d: StratifiedSplit(%v): %v", seed, fr, err)
		}
		if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("seed %d: StratifiedSplit(%v) mismatch (-reference +got):\n%s", seed, fr, d)
		}
		// Class counts within one of proportional.
		all := append(slices.Clone(fr), left)
		for _, c := range subset.Classes(withLabels(t, labels)) {
			for k, p := range got {
				m := classCounts(labels, p)[c.Label]
				if d := math.Abs(float64(m) - all[k]*float64(len(c.Indices))); d > 1+1e-9 && !(k == len(fr)-1 && left == 0) {
					t.Fatalf("seed %d: class %d has %d of %d members in part %d of fraction %v", seed, c.Label, m, len(c.Indices), k, all[k])
				}
			}
		}
		// Shuffled: still a partition with the same class counts per part.
		sh, err := stratIndices(t, labels, rand.New(rand.NewPCG(seed, 1)), fr...)
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]int, n)
		for k, p := range sh {
			if d := cmp.Diff(classCounts(labels, got[k]), classCounts(labels, p)); d != "" {
				t.Fatalf("seed %d: part %d class counts mismatch (-unshuffled +shuffled):\n%s", seed, k, d)
			}
			for _, i := range p {
				seen[i]++
			}
		}
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("seed %d: shuffled stratified split has index %d %d times", seed, i, c)
			}
		}
	}
	if refused == 0 || refused > 150 {
		t.Errorf("%d of 300 random stratified splits refused; the inputs do not test both outcomes", refused)
	}
}

// classCounts returns the number of members of each label among labels[idx].
func classCounts(labels, idx []int) map[int]int {
	counts := map[int]int{}
	for _, i := range idx {
		counts[labels[i]]++
	}
	return counts
}
