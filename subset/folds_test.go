package subset_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/subset"
)

func foldLists[T, B any](fs *subset.Folds[T, B]) (train, val [][]int) {
	for tr, va := range fs.All() {
		train = append(train, tr.Indices())
		val = append(val, va.Indices())
	}
	return train, val
}

func complement(n int, block []int) []int {
	in := make([]bool, n)
	for _, i := range block {
		in[i] = true
	}
	var out []int
	for i := range n {
		if !in[i] {
			out = append(out, i)
		}
	}
	return out
}

func TestKFoldsExamples(t *testing.T) {
	tests := []struct {
		n, k int
		val  [][]int
	}{
		{10, 5, [][]int{rangeList(0, 2), rangeList(2, 4), rangeList(4, 6), rangeList(6, 8), rangeList(8, 10)}},
		{10, 3, [][]int{rangeList(0, 4), rangeList(4, 7), rangeList(7, 10)}},
		{2, 2, [][]int{{0}, {1}}},
		{7, 7, [][]int{{0}, {1}, {2}, {3}, {4}, {5}, {6}}},
		{11, 4, [][]int{rangeList(0, 3), rangeList(3, 6), rangeList(6, 9), rangeList(9, 11)}},
	}
	for _, tc := range tests {
		t.Run(strconv.Itoa(tc.n)+"/"+strconv.Itoa(tc.k), func(t *testing.T) {
			fs, err := subset.KFolds(floats(tc.n), nil, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			idx, err := subset.KFolds(subset.Iota(tc.n), nil, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			for _, folds := range []struct {
				name        string
				train, vals [][]int
			}{{"KFolds", nil, nil}, {"KFolds of Iota", nil, nil}} {
				if folds.name == "KFolds" {
					folds.train, folds.vals = foldLists(fs)
				} else {
					folds.train, folds.vals = foldLists(idx)
				}
				if d := cmp.Diff(tc.val, folds.vals); d != "" {
					t.Errorf("%s(%d, %d) validation mismatch (-want +got):\n%s", folds.name, tc.n, tc.k, d)
				}
				for f, v := range tc.val {
					if d := cmp.Diff(complement(tc.n, v), folds.train[f], cmpopts.EquateEmpty()); d != "" {
						t.Errorf("%s(%d, %d) fold %d training mismatch (-want +got):\n%s", folds.name, tc.n, tc.k, f, d)
					}
				}
			}
		})
	}
}

func TestKFoldsErrors(t *testing.T) {
	for _, tc := range []struct{ n, k int }{{10, 1}, {10, 11}, {10, 0}, {1, 2}, {0, 2}, {10, -3}} {
		_, err := subset.KFolds(floats(tc.n), nil, tc.k)
		wantErr(t, "KFolds", err, subset.ErrFolds, "k = "+strconv.Itoa(tc.k), strconv.Itoa(tc.n)+" observations")
	}
	for _, tc := range []struct{ n, p int }{{10, 0}, {10, 6}, {1, 1}, {10, -1}} {
		_, err := subset.LeaveOut(floats(tc.n), nil, tc.p)
		wantErr(t, "LeaveOut", err, subset.ErrFolds, "p = "+strconv.Itoa(tc.p))
	}
}

func TestLeaveOut(t *testing.T) {
	fs, err := subset.LeaveOut(floats(10), nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	_, val := foldLists(fs)
	if d := cmp.Diff([][]int{rangeList(0, 4), rangeList(4, 7), rangeList(7, 10)}, val); d != "" {
		t.Errorf("LeaveOut(10, 3) validation mismatch (-want +got):\n%s", d)
	}
	fs, err = subset.LeaveOut(floats(5), nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if fs.Len() != 5 {
		t.Errorf("LeaveOut(5, 1) has %d folds, want 5 (leave-one-out)", fs.Len())
	}
}

func TestKFoldsShuffled(t *testing.T) {
	const n, k = 23, 4
	perm := rand.New(rand.NewPCG(5, 5)).Perm(n)
	fs, err := subset.KFolds(floats(n), rand.New(rand.NewPCG(5, 5)), k)
	if err != nil {
		t.Fatal(err)
	}
	train, val := foldLists(fs)
	for f := range k {
		lo, hi := index.Chunk(n, k, f)
		if d := cmp.Diff(perm[lo:hi], val[f]); d != "" {
			t.Errorf("fold %d validation mismatch (-want +got):\n%s", f, d)
		}
		want := append(slices.Clone(perm[:lo]), perm[hi:]...)
		if d := cmp.Diff(want, train[f]); d != "" {
			t.Errorf("fold %d training mismatch (-want +got):\n%s", f, d)
		}
	}
}

func TestFoldsAccess(t *testing.T) {
	fs, err := subset.KFolds(floats(9), nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	wantIndexPanic(t, "Fold(3)", "subset.Folds.Fold", 3, 3, func() { fs.Fold(3) })
	wantIndexPanic(t, "Fold(-1)", "subset.Folds.Fold", -1, 3, func() { fs.Fold(-1) })
	count := 0
	for range fs.All() {
		count++
		break
	}
	if count != 1 {
		t.Errorf("break after the first fold visited %d folds", count)
	}
}

// TestKFoldsProperty checks on random inputs that each fold's training and
// validation sets are disjoint and cover the data, that the validation sets
// partition it, and that fold sizes differ by at most one, larger first.
func TestKFoldsProperty(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 8))
		n := 2 + rng.IntN(200)
		k := 2 + rng.IntN(n-1)
		var shuffle *rand.Rand
		if seed%2 == 0 {
			shuffle = rand.New(rand.NewPCG(seed, 9))
		}
		fs, err := subset.KFolds(floats(n), shuffle, k)
		if err != nil {
			t.Fatal(err)
		}
		checkFolds(t, "KFolds", n, fs)
		prev := n + 1
		for _, val := range fs.All() {
			if m := val.Nobs(); m > prev || m < n/k || m > n/k+1 {
				t.Fatalf("KFolds(%d, %d): validation size %d after %d, want n/k or n/k+1, larger first", n, k, m, prev)
			} else {
				prev = m
			}
		}
	}
}

// checkFolds checks that every fold's sets are disjoint and cover 0..n-1 and
// that the validation sets partition 0..n-1.
func checkFolds[T, B any](t *testing.T, what string, n int, fs *subset.Folds[T, B]) {
	t.Helper()
	valCount := make([]int, n)
	for train, val := range fs.All() {
		seen := make([]int, n)
		for _, i := range train.Indices() {
			seen[i]++
		}
		for _, i := range val.Indices() {
			seen[i] += 2
			valCount[i]++
		}
		for i, c := range seen {
			if c != 1 && c != 2 {
				t.Fatalf("%s: index %d appears %d times in training and %d in validation, want once in one", what, i, c%2, c/2)
			}
		}
	}
	for i, c := range valCount {
		if c != 1 {
			t.Fatalf("%s: index %d is in %d validation sets, want 1", what, i, c)
		}
	}
}
