package tuples_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/transform"
	"github.com/obskit/obskit/tuples"
)

// ys returns the Y of every observation of c, read one observation at a time:
// the reference Labels must agree with.
func ys[X, L any](c container.Container[tuples.Pair[X, L]]) []L {
	out := make([]L, c.Nobs())
	for i := range out {
		out[i] = c.GetObs(i).Y
	}
	return out
}

// TestLabelsOfViews reads the labels of a tuple and of views of it, each with
// features that count their reads: Labels must read Y alone, once per
// observation, and never touch X (no GetObs, no GetObsInto), on every path to
// the tuple (the tuple itself, shuffles, index lists with repeats, ranges, views
// of views, split parts, fold training sets with their gap).
func TestLabelsOfViews(t *testing.T) {
	const n = 12
	xs, ls := make([]int, n), make([]int, n)
	for i := range xs {
		xs[i], ls[i] = 100+i, i*7%5
	}
	x, y := containertest.NewCounting(xs), containertest.NewCounting(ls)
	data, err := tuples.Zip2(x, y)
	if err != nil {
		t.Fatal(err)
	}
	type labeled = container.Batched[tuples.Pair[int, int], tuples.Pair[[]int, []int]]
	rng := rand.New(rand.NewPCG(1, 2))
	parts, err := subset.Split(data, rng, 0.75)
	if err != nil {
		t.Fatal(err)
	}
	folds, err := subset.KFolds(data, rng, 3)
	if err != nil {
		t.Fatal(err)
	}
	train, val := folds.Fold(1)
	for _, tc := range []struct {
		name string
		c    labeled
	}{
		{"tuple", data},
		{"shuffle", subset.Shuffle(data, rng)},
		{"index list with repeats", subset.Of(data, []int{5, 0, 0, 11, 3})},
		{"range", subset.Range(data, 2, 9)},
		{"empty range", subset.Range(data, 4, 4)},
		{"view of a view", subset.Of(subset.Shuffle(data, rng), []int{1, 1, 10, 4})},
		{"split part", parts[1]},
		{"fold training set", train},
		{"fold validation set", val},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x.Reset()
			y.Reset()
			got := tuples.Labels(tc.c)
			if x.Batches() != 0 || x.Singles() != 0 {
				t.Errorf("Labels read X: %d GetObsInto and %d GetObs calls, want none", x.Batches(), x.Singles())
			}
			if y.Batches() != 0 || y.Singles() != tc.c.Nobs() {
				t.Errorf("Labels read Y with %d GetObsInto and %d GetObs calls, want 0 and one per observation (%d)", y.Batches(), y.Singles(), tc.c.Nobs())
			}
			if d := cmp.Diff(ys(tc.c), got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("Labels mismatch (-GetObs(i).Y +Labels):\n%s", d)
			}
		})
	}
}

// TestLabelsOfOtherContainers reads the labels of containers of pairs that are
// not a tuple or a view of one: they come from the observations, with the same
// result.
func TestLabelsOfOtherContainers(t *testing.T) {
	pairs := container.FromSlice([]tuples.Pair[float64, string]{{X: 1, Y: "a"}, {X: 2, Y: "b"}, {X: 3, Y: "c"}})
	a, err := tuples.Zip2(container.FromSlice([]float64{4, 5}), container.FromSlice([]string{"d", "e"}))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		c    container.Batched[tuples.Pair[float64, string], []tuples.Pair[float64, string]]
		want []string
	}{
		{"slice of pairs", pairs, []string{"a", "b", "c"}},
		{"view of a slice of pairs", subset.Of(pairs, []int{2, 0}), []string{"c", "a"}},
		// A join is not an index view: its parts are views of different sources.
		{"join of views of two sources", transform.Join[tuples.Pair[float64, string]](subset.Range(pairs, 1, 3), subset.Of(a, []int{1, 0})), []string{"b", "c", "e", "d"}},
		{"empty", container.FromSlice([]tuples.Pair[float64, string]{}), []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tuples.Labels(tc.c)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("Labels mismatch (-want +got):\n%s", d)
			}
		})
	}
	// A new slice each call: changing it changes neither the data nor the next call.
	got := tuples.Labels(a)
	got[0] = "changed"
	if d := cmp.Diff([]string{"d", "e"}, tuples.Labels(a)); d != "" {
		t.Errorf("Labels after changing an earlier result mismatch (-want +got):\n%s", d)
	}
}

// BenchmarkLabelsOfView reads the labels of a shuffled view of 1,000,000
// labeled observations with Labels, beside the loop a user would write with the
// labels and the permutation in hand (labels[perm[i]]): the cost of finding the
// labels through the view over the random reads themselves.
func BenchmarkLabelsOfView(b *testing.B) {
	const n = 1_000_000
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i * 7 % 10
	}
	data, err := tuples.Zip2(subset.Iota(n), container.FromSlice(labels))
	if err != nil {
		b.Fatal(err)
	}
	v := subset.Shuffle(data, rand.New(rand.NewPCG(1, 2)))
	perm := v.Indices()
	out := make([]int, n)
	var kit, naive time.Duration
	for b.Loop() {
		t0 := time.Now()
		got := tuples.Labels(v)
		t1 := time.Now()
		for i, j := range perm {
			out[i] = labels[j]
		}
		t2 := time.Now()
		if got[n-1] != out[n-1] {
			b.Fatalf("Labels(v)[%d] = %d, want %d", n-1, got[n-1], out[n-1])
		}
		kit += t1.Sub(t0)
		naive += t2.Sub(t1)
	}
	b.ReportMetric(float64(kit)/float64(naive), "x-naive")
	b.ReportMetric(float64(kit.Nanoseconds())/float64(b.N)/n, "ns/obs")
}
