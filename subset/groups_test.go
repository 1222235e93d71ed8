package subset_test

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/subset"
)

// randomGroups returns n group ids drawn from ng values spread over [0, 3*ng),
// every value used at least once when n >= ng, in a random order.
func randomGroups(rng *rand.Rand, n, ng int) []int {
	values := rng.Perm(3 * ng)[:ng]
	g := make([]int, n)
	for i := range g {
		if i < ng {
			g[i] = values[i]
		} else {
			g[i] = values[rng.IntN(ng)]
		}
	}
	rng.Shuffle(n, func(i, j int) { g[i], g[j] = g[j], g[i] })
	return g
}

// checkGroupFolds checks the folds of a container that is not a view (so that
// a view's indices are positions in it) against the group of each observation:
// every observation in exactly one validation set, training and validation
// sets complementary, no group in both sets of a fold; it returns the
// validation sets.
func checkGroupFolds[T, B any](t *testing.T, fs *subset.Folds[T, B], groups []int) [][]int {
	t.Helper()
	n := len(groups)
	seen := make([]int, n)
	var vals [][]int
	for train, val := range fs.All() {
		tr, va := train.Indices(), val.Indices()
		if got, want := sorted(append(slices.Clone(tr), va...)), iota(n); !slices.Equal(got, want) {
			t.Fatalf("a fold's train and validation sets do not cover the data once: %v + %v", tr, va)
		}
		in := map[int]bool{}
		for _, i := range va {
			in[groups[i]] = true
			seen[i]++
		}
		for _, i := range tr {
			if in[groups[i]] {
				t.Fatalf("group %d is in both sets of a fold", groups[i])
			}
		}
		vals = append(vals, va)
	}
	for i, m := range seen {
		if m != 1 {
			t.Fatalf("observation %d is in %d validation sets, want 1", i, m)
		}
	}
	return vals
}

func sorted(s []int) []int { slices.Sort(s); return s }

// groupKFoldsReference is scikit-learn's GroupKFold with a stable sort,
// transcribed: the groups sorted by size, stably, reversed; each dealt to
// np.argmin of the loads.
func groupKFoldsReference(groups []int, k int) [][]int {
	uniq := slices.Compact(sorted(slices.Clone(groups)))
	rank := map[int]int{}
	for r, g := range uniq {
		rank[g] = r
	}
	size := make([]int, len(uniq))
	for _, g := range groups {
		size[rank[g]]++
	}
	order := iota(len(uniq))
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(size[a], size[b]) })
	slices.Reverse(order)
	load := make([]int, k)
	fold := make([]int, len(uniq))
	for _, g := range order {
		f := 0
		for j := range load {
			if load[j] < load[f] {
				f = j
			}
		}
		load[f] += size[g]
		fold[g] = f
	}
	vals := make([][]int, k)
	for i, g := range groups {
		vals[fold[rank[g]]] = append(vals[fold[rank[g]]], i)
	}
	return vals
}

func TestGroupKFoldsExample(t *testing.T) {
	// scikit-learn's GroupKFold docstring: groups 0, 0, 2, 2, 3, 3 in 2 folds
	// validate on [0 1 4 5] and [2 3].
	groups := container.FromSlice([]int{0, 0, 2, 2, 3, 3})
	fs, err := subset.GroupKFolds(subset.Iota(6), groups, 2)
	if err != nil {
		t.Fatal(err)
	}
	_, val := foldLists(fs)
	if want := [][]int{{0, 1, 4, 5}, {2, 3}}; !gocmp.Equal(val, want) {
		t.Errorf("validation sets mismatch (-want +got):\n%s", gocmp.Diff(want, val))
	}
}

// TestGroupKFoldsProperties: on random groups, the folds are the reference
// transcription's, no group is split, and fold sizes differ by at most the
// largest group.
func TestGroupKFoldsProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 1))
	for trial := range 300 {
		n := 1 + rng.IntN(120)
		ng := 1 + rng.IntN(n)
		groups := randomGroups(rng, n, ng)
		k := 2 + rng.IntN(8)
		fs, err := subset.GroupKFolds(subset.Iota(n), container.FromSlice(groups), k)
		if k > ng {
			wantErr(t, fmt.Sprint("trial ", trial), err, subset.ErrFolds, fmt.Sprintf("k = %d folds", k), fmt.Sprintf("for %d groups", ng))
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		vals := checkGroupFolds(t, fs, groups)
		if want := groupKFoldsReference(groups, k); !gocmp.Equal(vals, want) {
			t.Fatalf("trial %d: groups %v in %d folds: validation sets mismatch (-want +got):\n%s", trial, groups, k, gocmp.Diff(want, vals))
		}
		largest, lo, hi := 0, n, 0
		count := map[int]int{}
		for _, g := range groups {
			count[g]++
			largest = max(largest, count[g])
		}
		for _, v := range vals {
			lo, hi = min(lo, len(v)), max(hi, len(v))
		}
		if hi-lo > largest {
			t.Fatalf("trial %d: fold sizes from %d to %d, more apart than the largest group (%d)", trial, lo, hi, largest)
		}
	}
}

// TestGroupFoldsOfView: groups are given in the order of the container passed,
// a shuffled view here, and the folds index its source.
func TestGroupFoldsOfView(t *testing.T) {
	labels := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	v := subset.Shuffle(container.FromSlice(labels), rand.New(rand.NewPCG(1, 2)))
	// Group of a view position: the source letter's index / 3 (a-c, d-f, g-i, j).
	groupOf := func(s string) int { return int(s[0]-'a') / 3 }
	groups := container.FromFunc(v.Nobs(), func(i int) int { return groupOf(v.GetObs(i)) })
	for name, build := range map[string]func() (*subset.Folds[string, []string], error){
		"GroupKFolds":      func() (*subset.Folds[string, []string], error) { return subset.GroupKFolds(v, groups, 3) },
		"LeaveOneGroupOut": func() (*subset.Folds[string, []string], error) { return subset.LeaveOneGroupOut(v, groups) },
		"LeavePGroupsOut":  func() (*subset.Folds[string, []string], error) { return subset.LeavePGroupsOut(v, groups, 2) },
	} {
		fs, err := build()
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for train, val := range fs.All() {
			in := map[int]bool{}
			for _, s := range container.Collect(val) {
				in[groupOf(s)] = true
			}
			for _, s := range container.Collect(train) {
				if in[groupOf(s)] {
					t.Errorf("%s: group %d in both sets", name, groupOf(s))
				}
			}
			if train.Nobs()+val.Nobs() != 10 {
				t.Errorf("%s: %d + %d observations, want 10", name, train.Nobs(), val.Nobs())
			}
			total += val.Nobs()
		}
		if name != "LeavePGroupsOut" && total != 10 {
			t.Errorf("%s: validation sets hold %d observations, want 10", name, total)
		}
	}
}

func TestLeaveOneGroupOut(t *testing.T) {
	groups := container.FromSlice([]string{"b", "a", "b", "c", "a"})
	fs, err := subset.LeaveOneGroupOut(subset.Iota(5), groups)
	if err != nil {
		t.Fatal(err)
	}
	train, val := foldLists(fs)
	// Groups in sorted order: a, b, c.
	if want := [][]int{{1, 4}, {0, 2}, {3}}; !gocmp.Equal(val, want) {
		t.Errorf("validation sets mismatch (-want +got):\n%s", gocmp.Diff(want, val))
	}
	for f := range train {
		if want := complement(5, val[f]); !slices.Equal(sorted(train[f]), want) {
			t.Errorf("fold %d trains on %v, want %v", f, train[f], want)
		}
	}
	// NaN is a group of its own, sorted last as NumPy's unique sorts it.
	nan := math.NaN()
	fs2, err := subset.LeaveOneGroupOut(subset.Iota(4), container.FromSlice([]float64{nan, 2, nan, 1}))
	if err != nil {
		t.Fatal(err)
	}
	_, val = foldLists(fs2)
	if want := [][]int{{3}, {1}, {0, 2}}; !gocmp.Equal(val, want) {
		t.Errorf("NaN groups: validation sets mismatch (-want +got):\n%s", gocmp.Diff(want, val))
	}
	_, err = subset.LeaveOneGroupOut(subset.Iota(3), container.FromSlice([]int{7, 7, 7}))
	wantErr(t, "one group", err, subset.ErrFolds, "1 groups, fewer than 2")
}

// combinations returns the p-element subsets of 0..n-1 in lexicographic order.
func combinations(n, p int) [][]int {
	var out [][]int
	var rec func(start int, cur []int)
	rec = func(start int, cur []int) {
		if len(cur) == p {
			out = append(out, slices.Clone(cur))
			return
		}
		for x := start; x < n; x++ {
			rec(x+1, append(cur, x))
		}
	}
	rec(0, nil)
	return out
}

func TestLeavePGroupsOut(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for trial := range 100 {
		n := 2 + rng.IntN(40)
		ng := 2 + rng.IntN(min(n, 9)-1)
		groups := randomGroups(rng, n, ng)
		uniq := slices.Compact(sorted(slices.Clone(groups)))
		p := 1 + rng.IntN(ng-1)
		fs, err := subset.LeavePGroupsOut(subset.Iota(n), container.FromSlice(groups), p)
		if err != nil {
			t.Fatal(err)
		}
		combos := combinations(len(uniq), p)
		if fs.Len() != len(combos) {
			t.Fatalf("trial %d: Len %d, want C(%d, %d) = %d", trial, fs.Len(), len(uniq), p, len(combos))
		}
		for f, combo := range combos {
			train, val := fs.Fold(f)
			var wantVal, wantTrain []int
			for i, g := range groups {
				if slices.ContainsFunc(combo, func(r int) bool { return uniq[r] == g }) {
					wantVal = append(wantVal, i)
				} else {
					wantTrain = append(wantTrain, i)
				}
			}
			if !slices.Equal(val.Indices(), wantVal) || !slices.Equal(train.Indices(), wantTrain) {
				t.Fatalf("trial %d fold %d (groups %v): %v / %v, want %v / %v", trial, f, combo, train.Indices(), val.Indices(), wantTrain, wantVal)
			}
		}
	}
	groups := container.FromSlice([]int{1, 2, 3})
	_, err := subset.LeavePGroupsOut(subset.Iota(3), groups, 3)
	wantErr(t, "p = G", err, subset.ErrFolds, "p = 3 groups outside [1, 2] for 3 groups")
	_, err = subset.LeavePGroupsOut(subset.Iota(3), groups, 0)
	wantErr(t, "p = 0", err, subset.ErrFolds, "p = 0")
}

// TestLeavePGroupsOutCount: Len is C(G, p) whenever it fits an int, computed
// without overflow, and a count that does not fit is refused; the folds of
// 7.2e18 combinations are enumerated lazily, the last one at once.
func TestLeavePGroupsOutCount(t *testing.T) {
	maxInt := big.NewInt(math.MaxInt)
	for ng := 2; ng <= 70; ng++ {
		ids := subset.Iota(ng)
		for p := 1; p < ng; p++ {
			fs, err := subset.LeavePGroupsOut(ids, ids, p)
			want := new(big.Int).Binomial(int64(ng), int64(p))
			if want.Cmp(maxInt) > 0 {
				wantErr(t, fmt.Sprintf("C(%d, %d)", ng, p), err, subset.ErrFolds, fmt.Sprintf("C(%d, %d) folds, more than the largest int", ng, p))
				continue
			}
			if err != nil {
				t.Fatalf("C(%d, %d): %v", ng, p, err)
			}
			if int64(fs.Len()) != want.Int64() {
				t.Fatalf("C(%d, %d): Len %d, want %v", ng, p, fs.Len(), want)
			}
		}
	}
	ids := subset.Iota(66)
	fs, err := subset.LeavePGroupsOut(ids, ids, 33)
	if err != nil {
		t.Fatal(err)
	}
	if fs.Len() != 7219428434016265740 {
		t.Fatalf("C(66, 33): Len %d", fs.Len())
	}
	_, val := fs.Fold(fs.Len() - 1)
	if want := rangeList(33, 66); !slices.Equal(val.Indices(), want) {
		t.Errorf("last fold validates on %v, want %v", val.Indices(), want)
	}
	_, val = fs.Fold(1)
	if want := append(rangeList(0, 32), 33); !slices.Equal(val.Indices(), want) {
		t.Errorf("fold 1 validates on %v, want %v", val.Indices(), want)
	}
}

func TestGroupArgs(t *testing.T) {
	data := subset.Iota(5)
	short := container.FromSlice([]int{1, 2, 3})
	for _, tc := range []struct {
		op string
		f  func()
	}{
		{"subset.GroupKFolds", func() { subset.GroupKFolds(data, short, 2) }},
		{"subset.LeaveOneGroupOut", func() { subset.LeaveOneGroupOut(data, short) }},
		{"subset.LeavePGroupsOut", func() { subset.LeavePGroupsOut(data, short, 1) }},
		{"subset.GroupShuffleSplits", func() { subset.GroupShuffleSplits(data, 1, short, 3, 0.5, 0.5) }},
		{"subset.StratifiedGroupKFolds", func() { subset.StratifiedGroupKFolds(withLabels(t, []int{0, 1, 0, 1, 0}), nil, short, 2) }},
	} {
		r := mustPanic(t, tc.op, tc.f)
		ae, ok := r.(*container.ArgError)
		if !ok || ae.Op != tc.op || ae.Arg != "groups.Nobs()" || ae.Value != 3 {
			t.Errorf("%s: panic %v, want *container.ArgError for groups.Nobs() 3", tc.op, r)
		} else if want := "groups.Nobs() 3, want 5, one group per observation of the data"; !strings.Contains(ae.Error(), want) {
			t.Errorf("%s: %q does not say %q", tc.op, ae.Error(), want)
		}
	}
	var none container.Container[int]
	wantArgPanic(t, "nil groups", "subset.GroupKFolds", "groups", func() { subset.GroupKFolds(data, none, 2) })
	_, err := subset.GroupKFolds(data, container.FromSlice([]int{1, 1, 2, 2, 3}), 4)
	wantErr(t, "more folds than groups", err, subset.ErrFolds, "k = 4 folds outside [2, 3] for 3 groups")
	_, err = subset.GroupKFolds(data, container.FromSlice([]int{1, 1, 2, 2, 3}), 1)
	wantErr(t, "k = 1", err, subset.ErrFolds, "k = 1")
}
