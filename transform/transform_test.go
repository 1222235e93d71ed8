package transform_test

import (
	"errors"
	"math/rand/v2"
	"slices"
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

func ints(lo, hi int) container.Slice[int] {
	s := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		s = append(s, i)
	}
	return s
}

// newCounting returns a containertest.Counting of the ints lo..hi-1.
func newCounting(lo, hi int) *containertest.Counting { return containertest.NewCounting(ints(lo, hi)) }

// plain has only the two required methods.
type plain struct{ lo, n int }

func (p plain) Nobs() int { return p.n }
func (p plain) GetObs(i int) int {
	container.CheckIndex("plain.GetObs", i, p.n)
	return p.lo + i
}

func TestConformance(t *testing.T) {
	for _, n := range []int{0, 1, 9, 250} {
		src := ints(0, n)
		name := strconv.Itoa(n)
		t.Run("Map/"+name, func(t *testing.T) {
			containertest.Run(t, transform.Map(src, func(x int) string { return strconv.Itoa(x * x) }), containertest.SliceConfig[string]())
		})
		t.Run("MapBatches/"+name, func(t *testing.T) {
			m := transform.MapBatches(src, func(x int) float64 { return float64(x) / 2 }, halves)
			containertest.Run(t, m, containertest.SliceConfig[float64]())
		})
		t.Run("Join/"+name, func(t *testing.T) {
			j := transform.Join(ints(0, n/3), plain{1000, n / 4}, ints(0, 0), transform.Join(ints(-n, 0), subset.Shuffle(src, rand.New(rand.NewPCG(1, 1)))))
			containertest.Run(t, j, containertest.SliceConfig[int]())
		})
		t.Run("Filter/"+name, func(t *testing.T) {
			containertest.Run(t, transform.Filter(src, func(x int) bool { return x%3 != 1 }), containertest.SliceConfig[int]())
		})
		t.Run("GroupBy/"+name, func(t *testing.T) {
			for _, g := range transform.GroupBy(src, func(x int) int { return x % 4 }) {
				containertest.Run(t, g.View, containertest.SliceConfig[int]())
			}
		})
		for _, ws := range [][2]int{{1, 1}, {3, 2}, {4, 4}, {7, 1}} {
			t.Run("Windows/"+name+"/"+strconv.Itoa(ws[0])+"x"+strconv.Itoa(ws[1]), func(t *testing.T) {
				w := transform.Windows(src, ws[0], ws[1])
				containertest.Run(t, w, containertest.SliceConfig[[]int]())
			})
		}
	}
}

func halves(dst []float64, src []int) []float64 {
	dst = container.Resize(dst, len(src))
	for j, x := range src {
		dst[j] = float64(x) / 2
	}
	return dst
}

// TestLabelsThroughTransforms checks the typed-label rules of the package doc:
// mapping the features member before linking keeps the labels out of the map
// (tuples.Labels and the stratified functions never call it), and filters and
// groups of labeled data are views that stay labeled, whose labels are read
// without gathering the features.
func TestLabelsThroughTransforms(t *testing.T) {
	x := newCounting(0, 6)
	calls := 0
	features := transform.Map(x, func(v int) int { calls++; return v * 10 })
	data, err := tuples.Zip2(features, container.FromSlice([]string{"a", "b", "a", "b", "a", "b"}))
	if err != nil {
		t.Fatal(err)
	}
	parts, err := subset.StratifiedSplit(data, nil, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 0 || x.Singles() != 0 || x.Batches() != 0 {
		t.Errorf("StratifiedSplit read the features: %d map calls, %d GetObs, %d GetObsInto; want none", calls, x.Singles(), x.Batches())
	}
	got := parts[0].GetObsInto(tuples.Pair[[]int, []string]{}, []int{0, 1, 2})
	want := tuples.Pair[[]int, []string]{X: []int{0, 10, 20}, Y: []string{"a", "b", "a"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("first part of a stratified split of a mapped tuple mismatch (-want +got):\n%s", d)
	}

	// A filter (of a shuffle) and the groups of labeled data stay labeled. The
	// predicate and the key read the observations; Labels then reads none.
	shuffled := subset.Shuffle(data, rand.New(rand.NewPCG(2, 3)))
	odd := transform.Filter(shuffled, func(p tuples.Pair[int, string]) bool { return p.X%20 == 10 })
	x.Reset()
	calls = 0
	if labels := tuples.Labels(odd); !slices.Equal(labels, []string{"b", "b", "b"}) {
		t.Errorf("Labels of a filter = %v, want [b b b]", labels)
	}
	if calls != 0 || x.Singles() != 0 || x.Batches() != 0 {
		t.Errorf("Labels of a filter read the features: %d map calls, %d GetObs, %d GetObsInto", calls, x.Singles(), x.Batches())
	}
	for _, g := range transform.GroupBy(data, func(p tuples.Pair[int, string]) string { return p.Y }) {
		x.Reset()
		labels := tuples.Labels(g.View)
		if x.Singles() != 0 || x.Batches() != 0 {
			t.Errorf("Labels of group %q read the features: %d GetObs, %d GetObsInto", g.Key, x.Singles(), x.Batches())
		}
		if len(labels) != 3 || slices.ContainsFunc(labels, func(l string) bool { return l != g.Key }) {
			t.Errorf("Labels of group %q = %v, want its key three times", g.Key, labels)
		}
	}

	// A map whose observations are pairs is labeled too; its labels are read
	// through its observations.
	relabeled := transform.Map(data, func(p tuples.Pair[int, string]) tuples.Pair[int, int] {
		return tuples.Pair[int, int]{X: p.X, Y: len(p.Y) + p.X}
	})
	if labels := tuples.Labels(relabeled); !slices.Equal(labels, []int{1, 11, 21, 31, 41, 51}) {
		t.Errorf("Labels of a map to pairs = %v, want [1 11 21 31 41 51]", labels)
	}
}

func TestMapBatchesGathersOnce(t *testing.T) {
	src := newCounting(0, 100)
	m := transform.MapBatches(src, func(x int) float64 { return float64(x) / 2 }, halves)
	idx := []int{5, 99, 0, 5}
	got := m.GetObsInto(nil, idx)
	if src.Batches() != 1 || src.Singles() != 0 {
		t.Errorf("MapBatches.GetObsInto: %d source GetObsInto and %d GetObs calls, want 1 and 0", src.Batches(), src.Singles())
	}
	if d := cmp.Diff([]float64{2.5, 49.5, 0, 2.5}, got); d != "" {
		t.Errorf("MapBatches.GetObsInto mismatch (-want +got):\n%s", d)
	}
	if !raceEnabled {
		if a := testing.AllocsPerRun(100, func() { got = m.GetObsInto(got, idx) }); a != 0 {
			t.Errorf("MapBatches.GetObsInto with capacity: %v allocs, want 0", a)
		}
	}
}

func TestJoin(t *testing.T) {
	a, b, c := ints(0, 3), ints(10, 12), ints(20, 24)
	j := transform.Join(transform.Join(a, ints(0, 0)), transform.Join(b, c))
	if got := len(j.Parts()); got != 4 {
		t.Errorf("join of joins has %d parts, want 4 (flattened)", got)
	}
	if d := cmp.Diff([]int{0, 1, 2, 10, 11, 20, 21, 22, 23}, container.Collect[int](j)); d != "" {
		t.Errorf("Join mismatch (-want +got):\n%s", d)
	}
	if got := j.GetObs(4); got != 11 {
		t.Errorf("GetObs(4) = %d, want 11 (index 1 of the second part)", got)
	}
	if e := transform.Join[int](); e.Nobs() != 0 {
		t.Errorf("empty join has %d observations", e.Nobs())
	}
}

// TestJoinProperty checks Parts, GetObs and GetObsInto (on random, unsorted
// indices) of random joins, empty parts included, against the concatenated
// slice: GetObs reads the one part holding the index, once, and each batched
// part the indices of GetObsInto touch is read with one GetObsInto call whatever
// the order of the indices.
func TestJoinProperty(t *testing.T) {
	for seed := range uint64(100) {
		rng := rand.New(rand.NewPCG(seed, 5))
		var parts []container.Container[int]
		var ref []int
		var counters []*containertest.Counting
		for p := range rng.IntN(8) {
			lo := 100 * p
			m := rng.IntN(6)
			c := newCounting(lo, lo+m)
			counters = append(counters, c)
			parts = append(parts, c)
			ref = append(ref, c.Slice...)
		}
		j := transform.Join(parts...)
		if j.Nobs() != len(ref) {
			t.Fatalf("seed %d: Nobs %d, want %d", seed, j.Nobs(), len(ref))
		}
		if got := j.Parts(); len(got) != len(parts) || !slices.EqualFunc(got, parts, func(a, b container.Container[int]) bool { return a == b }) {
			t.Fatalf("seed %d: Parts() is not the %d parts given, in order", seed, len(parts))
		}
		for i, w := range ref {
			for _, c := range counters {
				c.Reset()
			}
			if got := j.GetObs(i); got != w {
				t.Fatalf("seed %d: GetObs(%d) = %d, want %d", seed, i, got, w)
			}
			for p, c := range counters {
				if want := map[bool]int{true: 1}[p == w/100]; c.Singles() != want || c.Batches() != 0 {
					t.Fatalf("seed %d: GetObs(%d) read part %d with %d GetObs and %d GetObsInto calls, want %d and 0", seed, i, p, c.Singles(), c.Batches(), want)
				}
			}
		}
		if len(ref) == 0 {
			continue
		}
		idx := make([]int, rng.IntN(30))
		for k := range idx {
			idx[k] = rng.IntN(len(ref))
		}
		for _, c := range counters {
			c.Reset()
		}
		got := j.GetObsInto(nil, idx)
		want := make([]int, len(idx))
		touched := map[int]bool{}
		for k, i := range idx {
			want[k] = ref[i]
			touched[ref[i]/100] = true
		}
		if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("seed %d: GetObsInto mismatch (-want +got):\n%s", seed, d)
		}
		for p, c := range counters {
			if w := map[bool]int{true: 1}[touched[p]]; c.Batches() != w || c.Singles() != 0 {
				t.Fatalf("seed %d: part %d read with %d GetObsInto and %d GetObs calls, want %d and 0", seed, p, c.Batches(), c.Singles(), w)
			}
		}
	}
}

func TestJoinZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items at random under -race")
	}
	j := transform.Join(ints(0, 100), ints(100, 300))
	idx := []int{299, 5, 6, 150, 0}
	buf := j.GetObsInto(nil, idx)
	if a := testing.AllocsPerRun(100, func() { buf = j.GetObsInto(buf, idx) }); a != 0 {
		t.Errorf("Join.GetObsInto with capacity: %v allocs, want 0", a)
	}
}

func TestFilterAndGroupBy(t *testing.T) {
	src := container.FromSlice([]string{"apple", "bob", "avocado", "cat", "banana"})
	f := transform.Filter(src, func(s string) bool { return len(s) > 3 })
	if d := cmp.Diff([]int{0, 2, 4}, f.Indices()); d != "" {
		t.Errorf("Filter mismatch (-want +got):\n%s", d)
	}
	groups := transform.GroupBy(src, func(s string) byte { return s[0] })
	var keys []byte
	var members [][]int
	for _, g := range groups {
		keys = append(keys, g.Key)
		members = append(members, g.View.Indices())
	}
	if d := cmp.Diff([]byte("abc"), keys); d != "" {
		t.Errorf("GroupBy keys mismatch (-want +got):\n%s", d)
	}
	if d := cmp.Diff([][]int{{0, 2}, {1, 4}, {3}}, members); d != "" {
		t.Errorf("GroupBy members mismatch (-want +got):\n%s", d)
	}
}

func TestWindows(t *testing.T) {
	tests := []struct {
		n, size, stride int
		want            [][]int
	}{
		{10, 3, 2, [][]int{{0, 1, 2}, {2, 3, 4}, {4, 5, 6}, {6, 7, 8}}},
		{10, 5, 5, [][]int{{0, 1, 2, 3, 4}, {5, 6, 7, 8, 9}}},
		{10, 4, 3, [][]int{{0, 1, 2, 3}, {3, 4, 5, 6}, {6, 7, 8, 9}}},
		{3, 4, 1, nil},
		{4, 4, 9, [][]int{{0, 1, 2, 3}}},
	}
	for _, tc := range tests {
		w := transform.Windows(ints(0, tc.n), tc.size, tc.stride)
		if d := cmp.Diff(tc.want, container.Collect[[]int](w), cmpopts.EquateEmpty()); d != "" {
			t.Errorf("Windows(%d, %d, %d) mismatch (-want +got):\n%s", tc.n, tc.size, tc.stride, d)
		}
		for i := range w.Nobs() {
			if w.Start(i) != tc.want[i][0] {
				t.Errorf("Start(%d) = %d, want %d", i, w.Start(i), tc.want[i][0])
			}
		}
	}
	for _, bad := range [][2]int{{0, 1}, {1, 0}, {-1, 2}} {
		func() {
			defer func() {
				r := recover()
				err, _ := r.(error)
				var ae *container.ArgError
				if !errors.As(err, &ae) || ae.Op != "transform.Windows" {
					t.Errorf("Windows(size %d, stride %d) panicked with %v (%T), want a *container.ArgError from transform.Windows", bad[0], bad[1], r, r)
				}
			}()
			transform.Windows(ints(0, 5), bad[0], bad[1])
		}()
	}
	w := transform.Windows(ints(0, 1000), 16, 8)
	idx := []int{0, 7, 3}
	buf := w.GetObsInto(nil, idx)
	if !raceEnabled {
		if a := testing.AllocsPerRun(100, func() { buf = w.GetObsInto(buf, idx) }); a != 0 {
			t.Errorf("Windows.GetObsInto reusing windows: %v allocs, want 0", a)
		}
		if a := testing.AllocsPerRun(100, func() { _ = w.GetObs(7) }); a != 1 {
			t.Errorf("Windows.GetObs: %v allocs, want 1 (the new window)", a)
		}
	}
	if buf[1][0] != 56 {
		t.Errorf("window 7 starts with %d, want 56", buf[1][0])
	}
}

// TestArgumentsCheckedAtTheCall: a nil container or function panics with a
// *container.ArgError when the transform is built, naming the function and the
// argument, instead of at the first read (issue 14: Map, MapBatches, Filter,
// GroupBy and Join checked nothing when called).
func TestArgumentsCheckedAtTheCall(t *testing.T) {
	c := container.Slice[int]{1, 2, 3}
	double := func(v int) int { return 2 * v }
	tests := []struct {
		op, arg string
		call    func()
	}{
		{"transform.Map", "function", func() { transform.Map[int, int](c, nil) }},
		{"transform.Map", "container", func() { transform.Map(container.Container[int](nil), double) }},
		{"transform.MapBatches", "batch function", func() { transform.MapBatches[int, []int, int, []int](c, double, nil) }},
		{"transform.MapRand", "function", func() { transform.MapRand[int, int](c, nil) }},
		{"transform.Filter", "keep function", func() { transform.Filter(c, nil) }},
		{"transform.GroupBy", "key function", func() { transform.GroupBy[int](c, nil) }},
		{"transform.Join", "part 1", func() { transform.Join(container.Container[int](c), nil) }},
	}
	for _, tc := range tests {
		func() {
			defer func() {
				var ae *container.ArgError
				if err, _ := recover().(error); !errors.As(err, &ae) || ae.Op != tc.op || ae.Arg != tc.arg {
					t.Errorf("%s with a nil %s: panic %v, want an ArgError naming both", tc.op, tc.arg, err)
				}
			}()
			tc.call()
		}()
	}
}
