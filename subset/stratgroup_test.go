package subset_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/subset"
)

// sgkfExample is scikit-learn's StratifiedGroupKFold docstring: 17 observations
// of 2 classes in 8 groups, 3 folds.
var sgkfExample = struct {
	y, groups []int
	val       [][]int
}{
	y:      []int{0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	groups: []int{1, 1, 2, 2, 3, 3, 3, 4, 5, 5, 5, 5, 6, 6, 7, 8, 8},
	val:    [][]int{{4, 5, 6, 12, 13, 14}, {0, 1, 2, 3, 15, 16}, {7, 8, 9, 10, 11}},
}

func TestStratifiedGroupKFoldsExample(t *testing.T) {
	ex := sgkfExample
	fs, err := subset.StratifiedGroupKFolds(withLabels(t, ex.y), nil, container.FromSlice(ex.groups), 3)
	if err != nil {
		t.Fatal(err)
	}
	train, val := foldLists(fs)
	if !gocmp.Equal(val, ex.val) {
		t.Errorf("validation sets mismatch (-want +got):\n%s", gocmp.Diff(ex.val, val))
	}
	for f := range train {
		if want := complement(len(ex.y), val[f]); !slices.Equal(sorted(train[f]), want) {
			t.Errorf("fold %d trains on %v, want %v", f, train[f], want)
		}
	}
	// Relabelling the classes does not change the folds (scikit-learn's
	// invariance), nor does a shuffle of the data, given the groups in the
	// shuffled order.
	names := make([]string, len(ex.y))
	for i, y := range ex.y {
		names[i] = []string{"sad", "happy"}[y]
	}
	fs2, err := subset.StratifiedGroupKFolds(withLabels(t, names), nil, container.FromSlice(ex.groups), 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, val2 := foldLists(fs2); !gocmp.Equal(val2, ex.val) {
		t.Errorf("relabelled: validation sets mismatch (-want +got):\n%s", gocmp.Diff(ex.val, val2))
	}
}

// TestStratifiedGroupKFoldsRand: a non-nil rng changes which of the groups of
// equal spread go where, never the rule's guarantees, and the same seed gives
// the same folds.
func TestStratifiedGroupKFoldsRand(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	n := 120
	groups := randomGroups(rng, n, 40)
	y := make([]int, n)
	for i := range y {
		y[i] = rng.IntN(3)
	}
	data := withLabels(t, y)
	var first [][]int
	differs := false
	for seed := range uint64(6) {
		fs, err := subset.StratifiedGroupKFolds(data, rand.New(rand.NewPCG(seed, 0)), container.FromSlice(groups), 4)
		if err != nil {
			t.Fatal(err)
		}
		vals := checkGroupFolds(t, fs, groups)
		again, _ := subset.StratifiedGroupKFolds(data, rand.New(rand.NewPCG(seed, 0)), container.FromSlice(groups), 4)
		if _, v2 := foldLists(again); !gocmp.Equal(vals, v2) {
			t.Fatalf("seed %d: two calls gave different folds", seed)
		}
		if first == nil {
			first = vals
		} else if !gocmp.Equal(first, vals) {
			differs = true
		}
	}
	if !differs {
		t.Error("six seeds gave the same folds")
	}
}

func TestStratifiedGroupKFoldsErrors(t *testing.T) {
	data := withLabels(t, []int{0, 0, 0, 1, 1, 1, 1})
	_, err := subset.StratifiedGroupKFolds(data, nil, container.FromSlice([]int{1, 1, 2, 2, 3, 3, 4}), 4)
	wantErr(t, "class of 3 in 4 folds", err, subset.ErrClassSize, "class 0 has 3 members, fewer than k = 4 folds")
	_, err = subset.StratifiedGroupKFolds(data, nil, container.FromSlice([]int{1, 1, 1, 2, 2, 2, 2}), 3)
	wantErr(t, "2 groups in 3 folds", err, subset.ErrFolds, "k = 3 folds outside [2, 2] for 2 groups")
}
