package subset_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

func floats(n int) container.Slice[float64] {
	s := make([]float64, n)
	for i := range s {
		s[i] = float64(i) + 0.5
	}
	return s
}

func TestViewConformance(t *testing.T) {
	cfg := containertest.SliceConfig[float64]()
	for _, n := range []int{0, 1, 7, 300} {
		src := floats(n)
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		views := map[string]*subset.View[float64, []float64]{
			"Of":       subset.Of(src, rng.Perm(n)),
			"OfOf":     subset.Of(subset.Of(src, rng.Perm(n)), rng.Perm(n)),
			"Range":    subset.Range(src, n/3, n),
			"Shuffle":  subset.Shuffle(src, rng),
			"Repeated": subset.Of(src, append(rng.Perm(n), rng.Perm(n)...)),
			"Plain":    subset.Of(container.AsBatched[float64](container.FromFunc(n, func(i int) float64 { return float64(i) })), iota(n)),
		}
		if n >= 2 {
			folds, err := subset.KFolds(src, rng, 2)
			if err != nil {
				t.Fatal(err)
			}
			train, val := folds.Fold(1)
			views["FoldTrain"], views["FoldVal"] = train, val
			folds, err = subset.KFolds(src, nil, 2)
			if err != nil {
				t.Fatal(err)
			}
			train, _ = folds.Fold(0)
			views["FoldTrainRange"] = train
			views["RangeOfTrain"] = subset.Range(train, 0, train.Nobs())
		}
		for name, v := range views {
			t.Run(name+"/"+strconv.Itoa(n), func(t *testing.T) { containertest.Run(t, v, cfg) })
		}
	}
}

func TestOfFlattens(t *testing.T) {
	src := floats(10)
	a := []int{9, 8, 7, 6, 5, 4}
	b := []int{5, 0, 0, 2}
	v := subset.Of(subset.Of(src, a), b)
	if _, ok := v.Source().(container.Slice[float64]); !ok {
		t.Errorf("Of(Of(src)).Source() is %T, want the original container.Slice", v.Source())
	}
	if d := cmp.Diff([]int{4, 9, 9, 7}, v.Indices()); d != "" {
		t.Errorf("Of(Of(src, a), b).Indices() mismatch (-want +got):\n%s", d)
	}
	r := subset.Range(subset.Shuffle(v, rand.New(rand.NewPCG(1, 2))), 1, 3)
	if _, ok := r.Source().(container.Slice[float64]); !ok {
		t.Errorf("Range(Shuffle(view)).Source() is %T, want the original container.Slice", r.Source())
	}
}

func TestOfCopiesIndices(t *testing.T) {
	idx := []int{1, 2}
	v := subset.Of(floats(3), idx)
	idx[0] = 0
	if got := v.Index(0); got != 1 {
		t.Errorf("after changing the caller's list, Index(0) = %d, want 1", got)
	}
}

func TestOfOutOfRange(t *testing.T) {
	src := floats(10)
	wantIndexPanic(t, "Of(src, [3 12])", "subset.Of", 12, 10, func() { subset.Of(src, []int{3, 12}) })
	wantIndexPanic(t, "Of(src, [-1])", "subset.Of", -1, 10, func() { subset.Of(src, []int{-1}) })
	v := subset.Of(src, []int{1, 2, 3})
	wantIndexPanic(t, "Of(view, [3])", "subset.Of", 3, 3, func() { subset.Of(v, []int{3}) })
	wantIndexPanic(t, "view.MapIndices", "subset.View.MapIndices", 5, 3, func() { v.MapIndices(nil, []int{0, 5}) })
	wantIndexPanic(t, "view.Index", "subset.View.Index", 3, 3, func() { v.Index(3) })
}

// TestRangePanics checks that Range refuses bounds as a slice expression does,
// with typed panic values: a *container.IndexError naming the first bound
// outside [0, n] (its Nobs is n+1, the number of valid bounds) and a
// *container.ArgError for hi < lo.
func TestRangePanics(t *testing.T) {
	src := floats(10)
	v := subset.Of(src, []int{1, 2, 3})
	tests := []struct {
		name        string
		c           container.Batched[float64, []float64]
		lo, hi      int
		index, nobs int // the IndexError expected; nobs 0 for an ArgError
	}{
		{"lo below 0", src, -1, 2, -1, 11},
		{"hi past n", src, 0, 11, 11, 11},
		{"both out", src, 12, 14, 12, 11},
		{"hi below 0", src, 0, -1, -1, 11},
		{"view hi past n", v, 1, 4, 4, 4},
		{"hi < lo", src, 3, 2, 0, 0},
		{"view hi < lo", v, 3, 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			what := fmt.Sprintf("Range(%d, %d)", tc.lo, tc.hi)
			f := func() { subset.Range(tc.c, tc.lo, tc.hi) }
			if tc.nobs == 0 {
				wantArgPanic(t, what, "subset.Range", "range", f)
				return
			}
			wantIndexPanic(t, what, "subset.Range", tc.index, tc.nobs, f)
		})
	}
	// The full range and empty ranges at both ends are fine.
	for _, r := range [][2]int{{0, 10}, {0, 0}, {10, 10}, {4, 4}} {
		if got := subset.Range(src, r[0], r[1]); got.Nobs() != r[1]-r[0] {
			t.Errorf("Range(%d, %d) has %d observations", r[0], r[1], got.Nobs())
		}
	}
}

// reversed is a minimal container.IndexView: observation i is observation n-1-i
// of its source.
type reversed struct{ src container.Slice[float64] }

var _ container.IndexView[float64, []float64] = reversed{}

func (r reversed) Nobs() int { return len(r.src) }
func (r reversed) GetObs(i int) float64 {
	container.CheckIndex("reversed.GetObs", i, len(r.src))
	return r.src[len(r.src)-1-i]
}
func (r reversed) GetObsInto(dst []float64, idx []int) []float64 {
	return r.src.GetObsInto(dst, r.MapIndices(nil, idx))
}
func (r reversed) Source() container.Batched[float64, []float64] { return r.src }
func (r reversed) MapIndices(dst, idx []int) []int {
	dst = container.Resize(dst, len(idx))
	for j, i := range idx {
		container.CheckIndex("reversed.MapIndices", i, len(r.src))
		dst[j] = len(r.src) - 1 - i
	}
	return dst
}

// TestOfFlattensIndexView checks that views of any container.IndexView, not
// only of Views, index straight into its source.
func TestOfFlattensIndexView(t *testing.T) {
	src := floats(6)
	r := reversed{src}
	containertest.Run(t, r, containertest.SliceConfig[float64]())
	views := []struct {
		name string
		v    *subset.View[float64, []float64]
		want []int
	}{
		{"Of", subset.Of(r, []int{0, 2, 2}), []int{5, 3, 3}},
		{"Range", subset.Range(r, 1, 4), []int{4, 3, 2}},
		{"Shuffle", subset.Shuffle(r, rand.New(rand.NewPCG(1, 1))), nil},
	}
	perm := rand.New(rand.NewPCG(1, 1)).Perm(6)
	for _, i := range perm {
		views[2].want = append(views[2].want, 5-i)
	}
	for _, tc := range views {
		if _, ok := tc.v.Source().(container.Slice[float64]); !ok {
			t.Errorf("%s of an IndexView: Source() is %T, want the IndexView's source", tc.name, tc.v.Source())
		}
		if d := cmp.Diff(tc.want, tc.v.Indices()); d != "" {
			t.Errorf("%s of an IndexView: Indices mismatch (-want +got):\n%s", tc.name, d)
		}
	}
	wantIndexPanic(t, "Of(IndexView, [6])", "reversed.MapIndices", 6, 6, func() { subset.Of(r, []int{6}) })
}

func TestGetObsIntoGathersThroughSource(t *testing.T) {
	tens := make([]int, 20)
	for i := range tens {
		tens[i] = 10 * i
	}
	src := containertest.NewCounting(tens)
	folds, err := subset.KFolds(src, rand.New(rand.NewPCG(3, 4)), 4)
	if err != nil {
		t.Fatal(err)
	}
	train, _ := folds.Fold(2)
	v := subset.Of(train, []int{0, 14, 3, 3})
	want := v.Indices()
	got := v.GetObsInto(nil, []int{3, 0, 1})
	if src.Batches() != 1 || src.Singles() != 0 {
		t.Errorf("GetObsInto made %d GetObsInto and %d GetObs calls on the source, want 1 and 0", src.Batches(), src.Singles())
	}
	if d := cmp.Diff([]int{want[3], want[0], want[1]}, src.Last()); d != "" {
		t.Errorf("indices passed to the source mismatch (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]int{10 * want[3], 10 * want[0], 10 * want[1]}, got); d != "" {
		t.Errorf("GetObsInto mismatch (-want +got):\n%s", d)
	}
}

func TestViewZeroAllocs(t *testing.T) {
	src := floats(1000)
	v := subset.Shuffle(src, rand.New(rand.NewPCG(5, 6)))
	idx := rangeList(100, 228)
	buf := make([]float64, 0, 128)
	scratch := make([]int, 0, 128)
	if a := testing.AllocsPerRun(100, func() {
		scratch = v.MapIndices(scratch, idx)
		buf = v.Source().GetObsInto(buf, scratch)
	}); a != 0 {
		t.Errorf("MapIndices + Source().GetObsInto with capacity: %v allocs per batch, want 0", a)
	}
	if raceEnabled {
		t.Log("GetObsInto allocation pin skipped: sync.Pool drops items at random under -race")
		return
	}
	buf = v.GetObsInto(buf, idx)
	if a := testing.AllocsPerRun(100, func() { buf = v.GetObsInto(buf, idx) }); a != 0 {
		t.Errorf("GetObsInto with capacity: %v allocs per batch, want 0", a)
	}
}

// TestViewLabelsPassThrough checks that tuples.Labels reads the labels of a
// view of a view of labeled data through the views, from the label member
// alone: the features are not read, one by one or in batches.
func TestViewLabelsPassThrough(t *testing.T) {
	labels := []string{"a", "b", "c", "d"}
	x := containertest.NewCounting(iota(4))
	data, err := tuples.Zip2(x, container.FromSlice(labels))
	if err != nil {
		t.Fatal(err)
	}
	v := subset.Of(subset.Shuffle(data, rand.New(rand.NewPCG(1, 1))), []int{3, 1, 2, 2})
	x.Reset()
	got := tuples.Labels(v)
	if x.Singles() != 0 || x.Batches() != 0 {
		t.Errorf("Labels of a view read the features: %d GetObs and %d GetObsInto calls, want none", x.Singles(), x.Batches())
	}
	want := make([]string, v.Nobs())
	for i, j := range v.Indices() {
		want[i] = labels[j]
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Labels through a view mismatch (-want +got):\n%s", d)
	}
	// The labels are those of the observations.
	for i := range v.Nobs() {
		if o := v.GetObs(i); o.Y != got[i] || labels[o.X] != o.Y {
			t.Fatalf("observation %d of the view is %+v, label %q", i, o, got[i])
		}
	}
}

// TestViewsOfViewsMemory checks that a view of a view holds memory in proportion
// to its own length, not to the source's.
func TestViewsOfViewsMemory(t *testing.T) {
	const n = 1 << 20
	src := floats(n)
	big := subset.Shuffle(src, rand.New(rand.NewPCG(7, 8)))
	folds, err := subset.KFolds(big, nil, 4)
	if err != nil {
		t.Fatal(err)
	}
	train, _ := folds.Fold(1)
	idx := []int{5, 6, 7, 8, 9, 10, 11, 12}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 100 {
		v := subset.Of(subset.Range(subset.Of(train, idx), 2, 6), []int{0, 1, 2})
		if v.Nobs() != 3 {
			t.Fatal("wrong length")
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / 100; per > 4096 {
		t.Errorf("a view of views of %d observations allocates %d bytes, want O(len(idx)) (< 4096)", n, per)
	}
}

// TestViewProperty builds random chains of views and checks them against a naive
// list of source indices.
func TestViewProperty(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 42))
		n := rng.IntN(40)
		src := floats(n)
		var v container.Batched[float64, []float64] = subset.Range(src, 0, n)
		ref := iota(n) // source index of each position of v
		for range rng.IntN(6) {
			m := len(ref)
			switch rng.IntN(4) {
			case 0:
				idx := make([]int, rng.IntN(2*m+1))
				if m == 0 {
					idx = nil
				}
				for j := range idx {
					idx[j] = rng.IntN(m)
				}
				v = subset.Of(v, idx)
				next := make([]int, len(idx))
				for j, i := range idx {
					next[j] = ref[i]
				}
				ref = next
			case 1:
				lo := rng.IntN(m + 1)
				hi := lo + rng.IntN(m-lo+1)
				v = subset.Range(v, lo, hi)
				ref = append([]int(nil), ref[lo:hi]...)
			case 2:
				p := rand.New(rand.NewPCG(seed, 9)).Perm(m)
				v = subset.Shuffle(v, rand.New(rand.NewPCG(seed, 9)))
				next := make([]int, m)
				for j, i := range p {
					next[j] = ref[i]
				}
				ref = next
			case 3:
				if m < 2 {
					continue
				}
				k := 2 + rng.IntN(m-1)
				f := rng.IntN(k)
				folds, err := subset.KFolds(v, nil, k)
				if err != nil {
					t.Fatal(err)
				}
				train, _ := folds.Fold(f)
				v = train
				lo, hi := index.Chunk(m, k, f)
				ref = append(append([]int(nil), ref[:lo]...), ref[hi:]...)
			}
		}
		w := v.(*subset.View[float64, []float64])
		if d := cmp.Diff(ref, w.Indices(), cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("seed %d: Indices mismatch (-want +got):\n%s", seed, d)
		}
		all := iota(len(ref))
		got := w.GetObsInto(nil, all)
		for j, i := range ref {
			if got[j] != src[i] {
				t.Fatalf("seed %d: observation %d = %v, want %v", seed, j, got[j], src[i])
			}
		}
	}
}
