package subset_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/subset"
)

// TestRepeatedKFolds: fold r*k+f is fold f of KFolds with the repetition's
// generator, rand.New(rand.NewPCG(seed, r)), in any order of visits, also
// from several goroutines at once.
func TestRepeatedKFolds(t *testing.T) {
	const n, k, repeats, seed = 23, 4, 5, 42
	data := subset.Iota(n)
	fs, err := subset.RepeatedKFolds(data, seed, repeats, k)
	if err != nil {
		t.Fatal(err)
	}
	if fs.Len() != repeats*k {
		t.Fatalf("Len %d, want %d", fs.Len(), repeats*k)
	}
	var wantTrain, wantVal [][]int
	for r := range repeats {
		one, err := subset.KFolds(data, rand.New(rand.NewPCG(seed, uint64(r))), k)
		if err != nil {
			t.Fatal(err)
		}
		tr, va := foldLists(one)
		wantTrain, wantVal = append(wantTrain, tr...), append(wantVal, va...)
		// Each repetition is a partition.
		var all []int
		for _, v := range va {
			all = append(all, v...)
		}
		if !slices.Equal(sorted(all), iota(n)) {
			t.Fatalf("repetition %d does not validate on every observation once", r)
		}
	}
	train, val := foldLists(fs)
	if !gocmp.Equal(train, wantTrain) || !gocmp.Equal(val, wantVal) {
		t.Fatalf("folds differ from KFolds with each repetition's generator (-want +got):\n%s", gocmp.Diff(wantVal, val))
	}
	// Out of order and concurrently: the same views.
	var wg sync.WaitGroup
	errs := make(chan string, 4*fs.Len())
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			order := rand.New(rand.NewPCG(uint64(w), 1)).Perm(fs.Len())
			for _, i := range order {
				tr, va := fs.Fold(i)
				if !slices.Equal(tr.Indices(), wantTrain[i]) || !slices.Equal(va.Indices(), wantVal[i]) {
					errs <- fmt.Sprintf("worker %d: fold %d differs", w, i)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if slices.Equal(val[0], val[k]) {
		t.Error("repetitions 0 and 1 validate on the same first fold")
	}
}

func TestRepeatedStratifiedKFolds(t *testing.T) {
	labels := []string{"a", "b", "a", "a", "c", "b", "c", "a", "b", "c", "a", "b"}
	data := withLabels(t, labels)
	fs, err := subset.RepeatedStratifiedKFolds(data, 7, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	_, val := foldLists(fs)
	for r := range 3 {
		one, err := subset.StratifiedKFolds(data, rand.New(rand.NewPCG(7, uint64(r))), 3)
		if err != nil {
			t.Fatal(err)
		}
		_, want := foldLists(one)
		if !gocmp.Equal(val[3*r:3*r+3], want) {
			t.Errorf("repetition %d differs from StratifiedKFolds with its generator", r)
		}
	}
	_, err = subset.RepeatedStratifiedKFolds(data, 7, 3, 4)
	wantErr(t, "class smaller than k", err, subset.ErrClassSize, "subset.RepeatedStratifiedKFolds", "fewer than k = 4")
}

// TestShuffleSplits: repetition r is the first two parts of Split with its
// generator; train+test < 1 leaves the third part out of both.
func TestShuffleSplits(t *testing.T) {
	data := subset.Iota(20)
	for _, fr := range [][2]float64{{0.8, 0.2}, {0.5, 0.25}, {0.75, 0.25}} {
		fs, err := subset.ShuffleSplits(data, 3, 6, fr[0], fr[1])
		if err != nil {
			t.Fatal(err)
		}
		if fs.Len() != 6 {
			t.Fatalf("Len %d, want 6", fs.Len())
		}
		for r := range 6 {
			parts, err := subset.Split(data, rand.New(rand.NewPCG(3, uint64(r))), fr[0], fr[1])
			if err != nil {
				t.Fatal(err)
			}
			train, test := fs.Fold(r)
			if !slices.Equal(train.Indices(), parts[0].Indices()) || !slices.Equal(test.Indices(), parts[1].Indices()) {
				t.Fatalf("%v repetition %d: %v / %v, want %v / %v", fr, r, train.Indices(), test.Indices(), parts[0].Indices(), parts[1].Indices())
			}
		}
	}
	_, err := subset.ShuffleSplits(subset.Iota(10), 1, 3, 0.96, 0.04)
	wantErr(t, "empty test part", err, container.ErrEmpty, "the test part (fraction 0.04) of 10 observations")
	_, err = subset.ShuffleSplits(subset.Iota(10), 1, 3, 0.7, 0.4)
	wantErr(t, "fractions above 1", err, subset.ErrFraction, "sum to 1.1")
	// A third part of nothing is no error: only train and test must hold some.
	if _, err := subset.ShuffleSplits(subset.Iota(10), 1, 3, 0.5, 0.49); err != nil {
		t.Errorf("0.5, 0.49 of 10: %v", err)
	}
	wantArgPanic(t, "0 repeats", "subset.ShuffleSplits", "repeats", func() { subset.ShuffleSplits(data, 1, 0, 0.5, 0.5) })
	wantArgPanic(t, "0 repeats", "subset.RepeatedKFolds", "repeats", func() { subset.RepeatedKFolds(data, 1, 0, 2) })
	_, err = subset.RepeatedKFolds(data, 1, math.MaxInt/2, 4)
	wantErr(t, "too many folds", err, subset.ErrFolds, "more than the largest int")
}

// TestStratifiedShuffleSplits: repetition r is the first two parts of
// StratifiedSplit with its generator, so every class's count in the training
// set is within half an observation of its fraction.
func TestStratifiedShuffleSplits(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	labels := make([]int, 101)
	for i := range labels {
		labels[i] = rng.IntN(4)
	}
	data := withLabels(t, labels)
	const train, test = 0.7, 0.2
	fs, err := subset.StratifiedShuffleSplits(data, 11, 5, train, test)
	if err != nil {
		t.Fatal(err)
	}
	count := map[int]int{}
	for _, l := range labels {
		count[l]++
	}
	for r := range 5 {
		parts, err := subset.StratifiedSplit(data, rand.New(rand.NewPCG(11, uint64(r))), train, test)
		if err != nil {
			t.Fatal(err)
		}
		tr, te := fs.Fold(r)
		if !slices.Equal(tr.Indices(), parts[0].Indices()) || !slices.Equal(te.Indices(), parts[1].Indices()) {
			t.Fatalf("repetition %d differs from StratifiedSplit with its generator", r)
		}
		in := map[int]int{}
		for _, i := range tr.Indices() {
			in[labels[i]]++
		}
		for c, m := range count {
			if math.Abs(float64(in[c])-train*float64(m)) > 0.5 {
				t.Errorf("repetition %d: class %d puts %d of %d in training", r, c, in[c], m)
			}
		}
	}
}

// TestGroupShuffleSplits: repetition r trains on the groups of the first part
// of Split over the sorted groups with its generator, tests on the second,
// and no group is in both.
func TestGroupShuffleSplits(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	groups := randomGroups(rng, 90, 17)
	uniq := slices.Compact(sorted(slices.Clone(groups)))
	fs, err := subset.GroupShuffleSplits(subset.Iota(90), 5, container.FromSlice(groups), 8, 0.6, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	for r := range 8 {
		parts, err := subset.Split(subset.Iota(len(uniq)), rand.New(rand.NewPCG(5, uint64(r))), 0.6, 0.3)
		if err != nil {
			t.Fatal(err)
		}
		var wantTrain, wantTest []int
		for i, g := range groups {
			rank, _ := slices.BinarySearch(uniq, g)
			switch {
			case slices.Contains(parts[0].Indices(), rank):
				wantTrain = append(wantTrain, i)
			case slices.Contains(parts[1].Indices(), rank):
				wantTest = append(wantTest, i)
			}
		}
		tr, te := fs.Fold(r)
		if !slices.Equal(tr.Indices(), wantTrain) || !slices.Equal(te.Indices(), wantTest) {
			t.Fatalf("repetition %d: %v / %v, want %v / %v", r, tr.Indices(), te.Indices(), wantTrain, wantTest)
		}
	}
	_, err = subset.GroupShuffleSplits(subset.Iota(4), 5, container.FromSlice([]int{1, 1, 2, 2}), 3, 0.8, 0.2)
	wantErr(t, "no test group", err, container.ErrEmpty, "the test part (fraction 0.2) of 2 groups would be empty")
}
