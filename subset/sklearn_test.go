package subset_test

// The tests named ...Sklearn run scikit-learn's splitters on the inputs given
// to the kit's, through one Python peer shared by the package's tests
// (testdata/sklearn_peer.py under /usr/bin/python3, or PYTHON). Where
// scikit-learn is deterministic and unambiguous the folds must be equal;
// where it draws at random, or breaks ties in the order of NumPy's unstable
// sort, both must have the same properties. They skip, saying so, when
// scikit-learn is not installed, unless OBSKIT_REQUIRE_SKLEARN is set (make
// test sets it, having installed Debian's python3-sklearn), when they fail.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/pypeer"
	"github.com/obskit/obskit/subset"
)

var sk struct {
	once    sync.Once
	peer    *pypeer.Peer
	err     error
	version string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if sk.peer != nil {
		sk.peer.Close()
	}
	os.Exit(code)
}

// sklearn returns the shared peer, starting it on first use; it skips the test
// when scikit-learn cannot be imported, unless OBSKIT_REQUIRE_SKLEARN is set.
func sklearn(t *testing.T) *pypeer.Peer {
	t.Helper()
	sk.once.Do(func() {
		sk.peer, sk.err = pypeer.Launch("sklearn", "testdata/sklearn_peer.py", 1)
		if sk.err == nil {
			var v struct{ Sklearn, Numpy string }
			sk.peer.AskJSON(t, map[string]bool{"version": true}, &v)
			sk.version = fmt.Sprintf("scikit-learn %s, NumPy %s (%s)", v.Sklearn, v.Numpy, pypeer.Python())
		}
	})
	if sk.err != nil {
		if os.Getenv("OBSKIT_REQUIRE_SKLEARN") != "" {
			t.Fatalf("OBSKIT_REQUIRE_SKLEARN is set: %v", sk.err)
		}
		t.Skipf("scikit-learn is not installed (apt-get install python3-sklearn): %v", sk.err)
	}
	t.Log(sk.version)
	return sk.peer
}

// skFold is one (train, test) pair of index lists of scikit-learn.
type skFold [2][]int

// skSplit returns the folds of scikit-learn's model_selection.<cv>(**args) over
// n observations with labels y and groups (either may be nil). The test has
// called sklearn first.
func skSplit(t *testing.T, cv string, args map[string]any, n int, y, groups any) []skFold {
	t.Helper()
	var resp struct{ Folds []skFold }
	sk.peer.AskJSON(t, map[string]any{"cv": cv, "args": args, "n": n, "y": y, "groups": groups}, &resp)
	return resp.Folds
}

// kitFolds returns the folds of fs as (train, test) index lists.
func kitFolds[T, B any](fs *subset.Folds[T, B]) []skFold {
	var out []skFold
	for tr, te := range fs.All() {
		out = append(out, skFold{tr.Indices(), te.Indices()})
	}
	return out
}

// equalFolds checks that the kit's folds are scikit-learn's: the same test
// sets, in order, and the same training sets, compared as sets (the kit lists
// a training set in fold order, scikit-learn sorted).
func equalFolds(t *testing.T, what string, kit, sk []skFold) {
	t.Helper()
	if len(kit) != len(sk) {
		t.Fatalf("%s: %d folds, scikit-learn %d", what, len(kit), len(sk))
	}
	for f := range kit {
		if !slices.Equal(kit[f][1], sk[f][1]) || !slices.Equal(sorted(slices.Clone(kit[f][0])), sk[f][0]) {
			t.Fatalf("%s: fold %d tests on %v and trains on %v, scikit-learn on %v and %v", what, f, kit[f][1], kit[f][0], sk[f][1], sk[f][0])
		}
	}
}

// groupValues returns the ids of ng groups as ints or as strings: distinct,
// in no particular order.
func groupValues(rng *rand.Rand, ng int, strs bool) []any {
	out := make([]any, ng)
	for g, v := range rng.Perm(5 * ng)[:ng] {
		if strs {
			out[g] = fmt.Sprint("g", v) // "g10" sorts before "g9" in both
		} else {
			out[g] = v - 2*ng // negative ones too
		}
	}
	return out
}

// groupsOfSizes returns n = sum(sizes) observations' groups, group g having
// sizes[g] members, in a random order, as the group index and as the value.
func groupsOfSizes(rng *rand.Rand, sizes []int, values []any) (idx []int, vals []any) {
	for g, m := range sizes {
		for range m {
			idx = append(idx, g)
		}
	}
	rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
	for _, g := range idx {
		vals = append(vals, values[g])
	}
	return idx, vals
}

// groupsContainer returns values (all ints or all strings) as a container of
// their type, with the kit's call run on it by call.
func withGroups(values []any, call func(ints []int, strs []string)) {
	if _, ok := values[0].(string); ok {
		s := make([]string, len(values))
		for i, v := range values {
			s[i] = v.(string)
		}
		call(nil, s)
		return
	}
	s := make([]int, len(values))
	for i, v := range values {
		s[i] = v.(int)
	}
	call(s, nil)
}

// groupKFolds runs GroupKFolds on n observations with the given groups.
func groupKFolds(t *testing.T, n int, values []any, k int) []skFold {
	var fs *subset.Folds[int, []int]
	var err error
	withGroups(values, func(ints []int, strs []string) {
		if strs != nil {
			fs, err = subset.GroupKFolds(subset.Iota(n), container.FromSlice(strs), k)
		} else {
			fs, err = subset.GroupKFolds(subset.Iota(n), container.FromSlice(ints), k)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return kitFolds(fs)
}

// TestGroupKFoldSklearn: with distinct group sizes the kit's folds are
// scikit-learn's GroupKFold's; with equal sizes, whose order NumPy's unstable
// sort leaves open in scikit-learn's releases before its pull request 28464,
// the fold sizes and the multiset of group sizes of every fold are the same.
func TestGroupKFoldSklearn(t *testing.T) {
	sklearn(t)
	rng := rand.New(rand.NewPCG(31, 1))
	for trial := range 60 {
		ng := 2 + rng.IntN(25)
		ties := trial%3 == 2
		var sizes []int
		if ties {
			for range ng {
				sizes = append(sizes, 1+rng.IntN(4))
			}
		} else {
			sizes = rng.Perm(60)[:ng]
			for g := range sizes {
				sizes[g]++
			}
		}
		values := groupValues(rng, ng, trial%2 == 1)
		idx, vals := groupsOfSizes(rng, sizes, values)
		n, k := len(idx), 2+rng.IntN(min(ng, 8)-1)
		kit := groupKFolds(t, n, vals, k)
		theirs := skSplit(t, "GroupKFold", map[string]any{"n_splits": k}, n, nil, vals)
		what := fmt.Sprintf("trial %d: %d groups of sizes %v in %d folds", trial, ng, sizes, k)
		if !ties {
			equalFolds(t, what, kit, theirs)
			continue
		}
		for _, folds := range [][]skFold{kit, theirs} {
			for _, f := range folds {
				in := map[int]bool{}
				for _, i := range f[1] {
					in[idx[i]] = true
				}
				for _, i := range f[0] {
					if in[idx[i]] {
						t.Fatalf("%s: a group in both sets", what)
					}
				}
			}
		}
		// Group sizes of each fold, sorted: the same multisets, fold by fold.
		profile := func(folds []skFold) [][]int {
			out := make([][]int, len(folds))
			for f, fold := range folds {
				seen := map[int]bool{}
				for _, i := range fold[1] {
					if !seen[idx[i]] {
						seen[idx[i]] = true
						out[f] = append(out[f], sizes[idx[i]])
					}
				}
				slices.Sort(out[f])
			}
			return out
		}
		if a, b := profile(kit), profile(theirs); !gocmp.Equal(a, b) {
			t.Fatalf("%s: group sizes per fold differ (-scikit-learn +kit):\n%s", what, gocmp.Diff(b, a))
		}
	}
}

// TestStratifiedGroupKFoldSklearn: without a shuffle, the kit's folds are
// scikit-learn's StratifiedGroupKFold's, bit for bit of its floating-point
// rule: 1 to 12 classes (the means over more than 8 take NumPy's pairwise
// sum, as do the deviations of one class over 8 folds or more), classes tied
// to groups or not.
func TestStratifiedGroupKFoldSklearn(t *testing.T) {
	sklearn(t)
	rng := rand.New(rand.NewPCG(32, 1))
	for trial := 0; trial < 80; {
		nc := 2 + rng.IntN(3)
		if trial%4 == 3 {
			nc = 5 + rng.IntN(8)
		}
		ng := 4 + rng.IntN(40)
		n := ng + rng.IntN(200)
		k := 2 + rng.IntN(4)
		if trial%8 == 7 { // one class, many folds: NumPy sums a one-column matrix pairwise
			nc, k = 1, 8+rng.IntN(5)
			ng = k + rng.IntN(30)
		}
		groups := randomGroups(rng, n, ng)
		classOf := map[int]int{} // a group's usual class
		y := make([]int, n)
		tied := rng.Float64() // how often an observation takes its group's class
		for i, g := range groups {
			if _, ok := classOf[g]; !ok {
				classOf[g] = rng.IntN(nc)
			}
			y[i] = classOf[g]
			if rng.Float64() > tied {
				y[i] = rng.IntN(nc)
			}
		}
		count := map[int]int{}
		for _, c := range y {
			count[c]++
		}
		small := false
		for _, m := range count {
			small = small || m < k
		}
		if small || k > ng {
			continue // the kit refuses these (a class smaller than k); drawn again
		}
		fs, err := subset.StratifiedGroupKFolds(withLabels(t, y), nil, container.FromSlice(groups), k)
		if err != nil {
			t.Fatal(err)
		}
		what := fmt.Sprintf("trial %d: %d observations, %d classes, %d groups, %d folds", trial, n, len(count), ng, k)
		equalFolds(t, what, kitFolds(fs), skSplit(t, "StratifiedGroupKFold", map[string]any{"n_splits": k}, n, y, groups))
		trial++
	}
}

// TestPairwiseSumNumPy: the kit's copy of NumPy's pairwise summation, on
// which StratifiedGroupKFolds' choices rest, is np.sum to the last bit, for
// every length up to 300 (the 8 accumulators, the leftovers and the halves).
func TestPairwiseSumNumPy(t *testing.T) {
	p := sklearn(t)
	rng := rand.New(rand.NewPCG(33, 1))
	for n := range 300 {
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(12)-6))
		}
		var resp struct{ Sum float64 }
		p.AskJSON(t, map[string]any{"sum": x}, &resp)
		if got := subset.PairwiseSum(x); got != resp.Sum && !(n == 0 && got == 0) {
			t.Fatalf("%d values: %v (%#x), np.sum %v (%#x)", n, got, math.Float64bits(got), resp.Sum, math.Float64bits(resp.Sum))
		}
	}
}

// TestLeaveOneGroupOutSklearn: the kit's folds are scikit-learn's
// LeaveOneGroupOut's, in its order.
func TestLeaveOneGroupOutSklearn(t *testing.T) {
	sklearn(t)
	rng := rand.New(rand.NewPCG(34, 1))
	for trial := range 30 {
		ng := 2 + rng.IntN(12)
		sizes := make([]int, ng)
		for g := range sizes {
			sizes[g] = 1 + rng.IntN(6)
		}
		_, vals := groupsOfSizes(rng, sizes, groupValues(rng, ng, trial%2 == 1))
		n := len(vals)
		var fs *subset.Folds[int, []int]
		var err error
		withGroups(vals, func(ints []int, strs []string) {
			if strs != nil {
				fs, err = subset.LeaveOneGroupOut(subset.Iota(n), container.FromSlice(strs))
			} else {
				fs, err = subset.LeaveOneGroupOut(subset.Iota(n), container.FromSlice(ints))
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		equalFolds(t, fmt.Sprintf("trial %d", trial), kitFolds(fs), skSplit(t, "LeaveOneGroupOut", nil, n, nil, vals))
	}
}

// TestLeavePGroupsOutSklearn: the kit's folds are scikit-learn's
// LeavePGroupsOut's, in its order, training sets included.
func TestLeavePGroupsOutSklearn(t *testing.T) {
	sklearn(t)
	rng := rand.New(rand.NewPCG(35, 1))
	for trial := range 30 {
		ng := 2 + rng.IntN(7)
		p := 1 + rng.IntN(min(ng-1, 3))
		sizes := make([]int, ng)
		for g := range sizes {
			sizes[g] = 1 + rng.IntN(5)
		}
		_, vals := groupsOfSizes(rng, sizes, groupValues(rng, ng, trial%2 == 1))
		n := len(vals)
		var fs *subset.Folds[int, []int]
		var err error
		withGroups(vals, func(ints []int, strs []string) {
			if strs != nil {
				fs, err = subset.LeavePGroupsOut(subset.Iota(n), container.FromSlice(strs), p)
			} else {
				fs, err = subset.LeavePGroupsOut(subset.Iota(n), container.FromSlice(ints), p)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		kit, theirs := kitFolds(fs), skSplit(t, "LeavePGroupsOut", map[string]any{"n_groups": p}, n, nil, vals)
		if !gocmp.Equal(kit, theirs) {
			t.Fatalf("trial %d: %d groups, p = %d: folds differ (-scikit-learn +kit):\n%s", trial, ng, p, gocmp.Diff(theirs, kit))
		}
	}
}

// partition checks that the test sets of folds[lo:hi] cover n observations
// once and that each fold's sets are disjoint and cover them.
func partition(t *testing.T, what string, folds []skFold, n int) {
	t.Helper()
	var all []int
	for _, f := range folds {
		if got := sorted(append(slices.Clone(f[0]), f[1]...)); !slices.Equal(got, iota(n)) {
			t.Fatalf("%s: a fold's sets do not cover the data once", what)
		}
		all = append(all, f[1]...)
	}
	if !slices.Equal(sorted(all), iota(n)) {
		t.Fatalf("%s: the test sets do not cover the data once", what)
	}
}

// TestRepeatedKFoldSklearn: RepeatedKFold and RepeatedStratifiedKFold draw at
// random; the kit's and scikit-learn's repetitions are both partitions with
// the same fold sizes, and every class puts floor(m/k) or ceil(m/k) of its m
// members in each stratified fold.
func TestRepeatedKFoldSklearn(t *testing.T) {
	sklearn(t)
	rng := rand.New(rand.NewPCG(36, 1))
	for trial := range 20 {
		n, k, repeats := 10+rng.IntN(90), 2+rng.IntN(5), 1+rng.IntN(4)
		y := make([]int, n)
		for i := range y {
			y[i] = rng.IntN(3)
		}
		count := map[int]int{}
		for _, c := range y {
			count[c]++
		}
		args := map[string]any{"n_splits": k, "n_repeats": repeats, "random_state": trial}
		plain, err := subset.RepeatedKFolds(subset.Iota(n), uint64(trial), repeats, k)
		if err != nil {
			t.Fatal(err)
		}
		strat, err := subset.RepeatedStratifiedKFolds(withLabels(t, y), uint64(trial), repeats, k)
		stratOK := err == nil
		for _, tc := range []struct {
			cv  string
			kit []skFold
		}{
			{"RepeatedKFold", kitFolds(plain)},
			{"RepeatedStratifiedKFold", func() []skFold {
				if !stratOK {
					return nil
				}
				return kitFolds(strat)
			}()},
		} {
			if tc.kit == nil {
				continue // a class smaller than k: refused here, warned there
			}
			theirs := skSplit(t, tc.cv, args, n, y, nil)
			what := fmt.Sprintf("trial %d %s: %d observations, %d folds, %d repeats", trial, tc.cv, n, k, repeats)
			for r := range repeats {
				partition(t, what, tc.kit[r*k:(r+1)*k], n)
				partition(t, what+" (scikit-learn)", theirs[r*k:(r+1)*k], n)
			}
			for f := range tc.kit {
				if len(tc.kit[f][1]) != len(theirs[f][1]) {
					t.Fatalf("%s: fold %d tests on %d observations, scikit-learn on %d", what, f, len(tc.kit[f][1]), len(theirs[f][1]))
				}
				if tc.cv != "RepeatedStratifiedKFold" {
					continue
				}
				for _, folds := range [][]skFold{tc.kit, theirs} {
					in := map[int]int{}
					for _, i := range folds[f][1] {
						in[y[i]]++
					}
					for c, m := range count {
						if in[c] != m/k && in[c] != (m+k-1)/k {
							t.Fatalf("%s: fold %d holds %d of class %d's %d", what, f, in[c], c, m)
						}
					}
				}
			}
		}
	}
}

// TestShuffleSplitSklearn: ShuffleSplit, StratifiedShuffleSplit and
// GroupShuffleSplit draw at random and round differently (scikit-learn floors
// the train part and ceils the test part; the kit rounds half to even, as
// Split does); the sets are disjoint in both, their sizes (of observations,
// or of groups for GroupShuffleSplit) within one of scikit-learn's, every
// class within half an observation of its share in the kit's stratified
// training sets, and no group is in both sets of a group split.
func TestShuffleSplitSklearn(t *testing.T) {
	sklearn(t)
	rng := rand.New(rand.NewPCG(37, 1))
	disjoint := func(what string, f skFold) {
		t.Helper()
		if len(f[0]) == 0 || len(f[1]) == 0 || slices.ContainsFunc(f[0], func(i int) bool { return slices.Contains(f[1], i) }) {
			t.Fatalf("%s: train %v and test %v empty or not disjoint", what, f[0], f[1])
		}
	}
	for trial := range 20 {
		n, repeats := 30+rng.IntN(100), 1+rng.IntN(5)
		train := 0.3 + 0.5*rng.Float64()
		test := (1 - train) * (0.5 + 0.5*rng.Float64())
		y := make([]int, n)
		for i := range y {
			y[i] = rng.IntN(3)
		}
		groups := randomGroups(rng, n, 5+rng.IntN(20))
		args := map[string]any{"n_splits": repeats, "train_size": train, "test_size": test, "random_state": trial}
		what := fmt.Sprintf("trial %d: %d observations at %.3f/%.3f", trial, n, train, test)

		plain, err := subset.ShuffleSplits(subset.Iota(n), uint64(trial), repeats, train, test)
		if err != nil {
			t.Fatal(err)
		}
		strat, err := subset.StratifiedShuffleSplits(withLabels(t, y), uint64(trial), repeats, train, test)
		if err != nil {
			t.Fatal(err)
		}
		grouped, err := subset.GroupShuffleSplits(subset.Iota(n), uint64(trial), container.FromSlice(groups), repeats, train, test)
		if err != nil {
			t.Fatal(err)
		}
		count := map[int]int{}
		for _, c := range y {
			count[c]++
		}
		for _, tc := range []struct {
			cv  string
			kit []skFold
		}{{"ShuffleSplit", kitFolds(plain)}, {"StratifiedShuffleSplit", kitFolds(strat)}, {"GroupShuffleSplit", kitFolds(grouped)}} {
			theirs := skSplit(t, tc.cv, args, n, y, groups)
			w := what + " " + tc.cv
			if len(tc.kit) != repeats || len(theirs) != repeats {
				t.Fatalf("%s: %d and %d splits, want %d", w, len(tc.kit), len(theirs), repeats)
			}
			for r := range repeats {
				disjoint(w, tc.kit[r])
				disjoint(w+" (scikit-learn)", theirs[r])
				size := func(s []int) int { return len(s) }
				slack := 1
				switch tc.cv {
				case "GroupShuffleSplit":
					size = func(s []int) int {
						in := map[int]bool{}
						for _, i := range s {
							in[groups[i]] = true
						}
						return len(in)
					}
					for _, f := range []skFold{tc.kit[r], theirs[r]} {
						in := map[int]bool{}
						for _, i := range f[1] {
							in[groups[i]] = true
						}
						for _, i := range f[0] {
							if in[groups[i]] {
								t.Fatalf("%s: group %d in both sets", w, groups[i])
							}
						}
					}
				case "StratifiedShuffleSplit":
					slack = 1 + len(count)/2 // the kit rounds each class, scikit-learn the total
					in := map[int]int{}
					for _, i := range tc.kit[r][0] {
						in[y[i]]++
					}
					for c, m := range count {
						if math.Abs(float64(in[c])-train*float64(m)) > 0.5 {
							t.Fatalf("%s: class %d puts %d of %d in training, want %.1f within 0.5", w, c, in[c], m, train*float64(m))
						}
					}
				}
				for s := range 2 {
					if d := size(tc.kit[r][s]) - size(theirs[r][s]); d < -slack || d > slack {
						t.Fatalf("%s: set %d holds %d, scikit-learn's %d", w, s, size(tc.kit[r][s]), size(theirs[r][s]))
					}
				}
			}
		}
	}
}
