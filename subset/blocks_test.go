package subset_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/subset"
)

// blocked is a slice with blocks (container.Blocked).
type blocked struct {
	container.Slice[int]
	starts []int
}

func (b blocked) BlockStarts() []int { return b.starts }

// TestViewBlocks: a view whose source indices do not decrease has its
// source's blocks, each cut to the observations it selects (empty when it
// selects none); a view in another order, or of a source without blocks, has
// none. Its blocks are checked against the definition: view block k holds
// exactly the view's observations of source block k.
func TestViewBlocks(t *testing.T) {
	src := blocked{container.FromSlice(make([]int, 20)), []int{0, 5, 5, 12, 20}}
	folds, err := subset.KFolds(src, nil, 4) // validation sets [0,5) [5,10) [10,15) [15,20)
	if err != nil {
		t.Fatal(err)
	}
	var trains []*subset.View[int, []int]
	for train := range folds.All() {
		trains = append(trains, train)
	}
	parts, err := subset.Split(src, nil, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		what string
		v    *subset.View[int, []int]
		want []int
	}{
		{"Range(3, 17)", subset.Range(src, 3, 17), []int{0, 2, 2, 9, 14}},
		{"Of in order", subset.Of(src, []int{1, 2, 6, 7, 8, 15}), []int{0, 2, 2, 5, 6}},
		{"Of with repeats", subset.Of(src, []int{1, 1, 13, 13}), []int{0, 2, 2, 2, 4}},
		{"Of of a block only", subset.Of(src, []int{12, 19}), []int{0, 0, 0, 0, 2}},
		{"empty", subset.Of(src, nil), []int{0, 0, 0, 0, 0}},
		{"training set of fold 1 (a gap)", trains[1], []int{0, 5, 5, 7, 15}},
		{"training set of fold 2, a range of a range", subset.Range(trains[2], 2, 12), []int{0, 3, 3, 8, 10}},
		{"first part of a split", parts[0], []int{0, 5, 5, 12, 14}},
		{"Of out of order", subset.Of(src, []int{1, 7, 6}), nil},
		{"Shuffle", subset.Shuffle(src, rand.New(rand.NewPCG(1, 2))), nil},
		{"a view of a source without blocks", subset.Range(src.Slice, 0, 20), nil},
	}
	for _, tc := range tests {
		got := tc.v.BlockStarts()
		if !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("%s: BlockStarts() = %v, want %v", tc.what, got, tc.want)
			continue
		}
		for k := 0; k+1 < len(got); k++ { // block k of the view is the view's part of source block k
			for i := got[k]; i < got[k+1]; i++ {
				if x := tc.v.Index(i); x < src.starts[k] || x >= src.starts[k+1] {
					t.Errorf("%s: view index %d (source %d) in view block %d, outside source block [%d, %d)", tc.what, i, x, k, src.starts[k], src.starts[k+1])
				}
			}
		}
	}
}
