package subset_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/transform"
	"github.com/obskit/obskit/tuples"
)

func TestClasses(t *testing.T) {
	labels := []string{"a", "c", "c", "a", "b"}
	want := []subset.Class[string]{{"a", []int{0, 3}}, {"c", []int{1, 2}}, {"b", []int{4}}}
	data := withLabels(t, labels)
	if d := cmp.Diff(want, subset.Classes(data)); d != "" {
		t.Errorf("Classes mismatch (-want +got):\n%s", d)
	}
	if d := cmp.Diff(want, subset.Classes(subset.Range(data, 0, 5))); d != "" {
		t.Errorf("Classes of a range of the tuple mismatch (-want +got):\n%s", d)
	}
	classes := subset.Classes(data)
	_ = append(classes[0].Indices, 99)
	if classes[1].Indices[0] != 1 {
		t.Error("append to one class's indices overwrote the next class")
	}
	if got := subset.Classes(withLabels(t, []int{})); len(got) != 0 {
		t.Errorf("Classes of nothing = %v, want none", got)
	}

	// The indices are positions of the container given: of a view, positions
	// in the view.
	v := subset.Shuffle(data, rand.New(rand.NewPCG(5, 5)))
	vl := tuples.Labels(v)
	total := 0
	for _, c := range subset.Classes(v) {
		for _, i := range c.Indices {
			if vl[i] != c.Label {
				t.Errorf("class %q of a shuffled view holds position %d, labeled %q", c.Label, i, vl[i])
			}
		}
		total += len(c.Indices)
	}
	if total != 5 {
		t.Errorf("classes of a shuffled view hold %d positions, want 5", total)
	}

	// Every NaN label is one class (a map cannot find NaN keys).
	nan := math.NaN()
	got := subset.Classes(withLabels(t, []float64{nan, 1, nan, 1, 2}))
	wantF := []subset.Class[float64]{{nan, []int{0, 2}}, {1, []int{1, 3}}, {2, []int{4}}}
	if d := cmp.Diff(wantF, got, cmpopts.EquateNaNs()); d != "" {
		t.Errorf("Classes with NaN labels mismatch (-want +got):\n%s", d)
	}
}

// naiveClasses groups labels with a map, in order of first appearance.
func naiveClasses[L int | string](labels []L) []subset.Class[L] {
	var out []subset.Class[L]
	at := map[L]int{}
	for i, l := range labels {
		k, ok := at[l]
		if !ok {
			k = len(out)
			at[l] = k
			out = append(out, subset.Class[L]{Label: l})
		}
		out[k].Indices = append(out[k].Indices, i)
	}
	return out
}

// pairs is a container of pairs that is not a tuple: Labels reads it through
// its observations.
func pairs(labels []string) container.Slice[tuples.Pair[float64, string]] {
	out := make([]tuples.Pair[float64, string], len(labels))
	for i, l := range labels {
		out[i] = tuples.Pair[float64, string]{X: float64(i), Y: l}
	}
	return out
}

// TestLabelsEveryShape checks that the labels this package reads (tuples.Labels,
// which goes straight to a tuple's label member where it can) are the Y of
// every observation, one by one, on every shape of labeled container; and that
// Classes groups them as a naive grouping does.
func TestLabelsEveryShape(t *testing.T) {
	labels := []string{"x", "y", "y", "z", "x", "y"}
	tup, err := tuples.Zip2(floats(6), container.FromSlice(labels))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(6, 6))
	folds, err := subset.KFolds(subset.Shuffle(tup, rng), nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	train, val := folds.Fold(1)
	mapped := transform.Map(tup, func(p tuples.Pair[float64, string]) tuples.Pair[float64, string] {
		return tuples.Pair[float64, string]{X: -p.X, Y: p.Y + "!"}
	})
	sameLabels(t, "tuple", tup)
	sameLabels(t, "shuffle of tuple", subset.Shuffle(tup, rng))
	sameLabels(t, "view of tuple", subset.Of(tup, []int{5, 0, 0, 3}))
	sameLabels(t, "fold training set", train)
	sameLabels(t, "fold validation set", val)
	sameLabels(t, "range of a training set", subset.Range(train, 1, 3))
	sameLabels(t, "slice of pairs", pairs(labels))
	sameLabels(t, "view of a slice of pairs", subset.Shuffle(pairs(labels), rng))
	sameLabels(t, "map of tuple", mapped)
	sameLabels(t, "view of a map of a tuple", subset.Shuffle(mapped, rng))
	sameLabels(t, "filter of a tuple", transform.Filter(tup, func(p tuples.Pair[float64, string]) bool { return p.Y != "y" }))
}

func sameLabels[X, B any](t *testing.T, name string, c container.Batched[tuples.Pair[X, string], B]) {
	t.Helper()
	want := make([]string, c.Nobs())
	for i := range want {
		want[i] = c.GetObs(i).Y
	}
	if d := cmp.Diff(want, tuples.Labels(c), cmpopts.EquateEmpty()); d != "" {
		t.Errorf("%s: Labels mismatch (-GetObs(i).Y +Labels):\n%s", name, d)
	}
	if d := cmp.Diff(naiveClasses(want), subset.Classes(c), cmpopts.EquateEmpty()); d != "" {
		t.Errorf("%s: Classes mismatch (-naive +got):\n%s", name, d)
	}
}

// TestLabeledFunctionsReadNoFeatures checks the labeled functions on labeled
// data (tuples.Zip2 of features and labels) and on views of it (shuffles, split
// parts, fold training sets, ranges of shuffles): each gives the naive result on
// the labels of the container it is given, mapped to source indices, and none
// reads the features, which are a counting container.
func TestLabeledFunctionsReadNoFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const n = 60
	labels := make([]int, n)
	for i := range labels {
		labels[i] = rng.IntN(3) * rng.IntN(3) // classes 0, 1, 2, 4; 0 the largest
	}
	x := containertest.NewCounting(iota(n))
	data, err := tuples.Zip2(x, container.FromSlice(labels))
	if err != nil {
		t.Fatal(err)
	}
	split, err := subset.Split(data, rng, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	folds, err := subset.KFolds(data, rng, 3)
	if err != nil {
		t.Fatal(err)
	}
	train, _ := folds.Fold(2)
	views := []struct {
		name string
		v    container.Batched[tuples.Pair[int, int], tuples.Pair[[]int, []int]]
		idx  []int // the source index of each position
	}{
		{"tuple", data, iota(n)},
		{"shuffle", subset.Shuffle(data, rng), nil},
		{"split part", split[1], nil},
		{"fold training set", train, nil},
		{"range of a shuffle", subset.Range(subset.Shuffle(data, rng), 10, 50), nil},
	}
	for _, tc := range views {
		t.Run(tc.name, func(t *testing.T) {
			v, idx := tc.v, tc.idx
			if idx == nil {
				idx = v.(*subset.View[tuples.Pair[int, int], tuples.Pair[[]int, []int]]).Indices()
			}
			vl := make([]int, len(idx))
			for i, j := range idx {
				vl[i] = labels[j]
			}
			mapped := func(pos []int) []int {
				out := make([]int, len(pos))
				for k, p := range pos {
					out[k] = idx[p]
				}
				return out
			}
			x.Reset()
			defer func() {
				if x.Singles() != 0 || x.Batches() != 0 {
					t.Errorf("the features were read: %d GetObs and %d GetObsInto calls, want none", x.Singles(), x.Batches())
				}
			}()

			if d := cmp.Diff(vl, tuples.Labels(v)); d != "" {
				t.Errorf("Labels mismatch (-want +got):\n%s", d)
			}
			if d := cmp.Diff(naiveClasses(vl), subset.Classes(v)); d != "" {
				t.Errorf("Classes mismatch (-naive +got):\n%s", d)
			}
			parts, err := subset.StratifiedSplit(v, nil, 0.7)
			if err != nil {
				t.Fatal(err)
			}
			var want [][]int
			for _, p := range naiveStratified(vl, []float64{0.7}) {
				want = append(want, mapped(p))
			}
			if d := cmp.Diff(want, indices(parts)); d != "" {
				t.Errorf("StratifiedSplit mismatch (-naive +got):\n%s", d)
			}
			k := 2
			sf, err := subset.StratifiedKFolds(v, nil, k)
			if err != nil {
				t.Fatal(err)
			}
			for f, w := range sklearnValidation(vl, k) {
				_, val := sf.Fold(f)
				if d := cmp.Diff(mapped(w), val.Indices()); d != "" {
					t.Errorf("StratifiedKFolds fold %d mismatch (-scikit-learn +got):\n%s", f, d)
				}
			}
			over, err := subset.Oversample(v, nil, 1)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(mapped(naiveOversample(vl, 1)), over.Indices()); d != "" {
				t.Errorf("Oversample mismatch (-naive +got):\n%s", d)
			}
			under := subset.Undersample(v, nil)
			if d := cmp.Diff(mapped(naiveUndersample(vl)), under.Indices()); d != "" {
				t.Errorf("Undersample mismatch (-naive +got):\n%s", d)
			}
			// Shuffled forms read no features either, and stay labeled.
			if _, err := subset.StratifiedSplit(v, rng, 0.5); err != nil {
				t.Fatal(err)
			}
			if o, err := subset.Oversample(v, rng, 1); err != nil || len(tuples.Labels(o)) != o.Nobs() {
				t.Fatalf("shuffled Oversample: %v", err)
			}
		})
	}
}

// TestShuffleTuple checks that a shuffled tuple keeps its members together and
// that its labels follow the shuffle.
func TestShuffleTuple(t *testing.T) {
	x := floats(50)
	y := make([]string, 50)
	for i := range y {
		y[i] = strconv.Itoa(i)
	}
	data, err := tuples.Zip2(x, container.FromSlice(y))
	if err != nil {
		t.Fatal(err)
	}
	v := subset.Shuffle(data, rand.New(rand.NewPCG(3, 3)))
	b := v.GetObsInto(tuples.Pair[[]float64, []string]{}, rangeList(0, 50))
	for i := range 50 {
		if j, _ := strconv.Atoi(b.Y[i]); b.X[i] != x[j] {
			t.Fatalf("shuffled tuple: observation %d pairs x=%v with y=%s", i, b.X[i], b.Y[i])
		}
	}
	if d := cmp.Diff(b.Y, tuples.Labels(v)); d != "" {
		t.Errorf("labels of a shuffled tuple mismatch (-batch +Labels):\n%s", d)
	}
}
