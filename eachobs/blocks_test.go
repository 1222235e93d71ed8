package eachobs_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/transform"
	"github.com/obskit/obskit/tuples"
)

// TestShuffleBlocksRefusesOtherBlocks: a position of a loop over the blocks of
// its container is restored into a loop over the same blocks (another
// container value, batch size, number of workers), and refused, with
// container.ErrState naming the option, by a loop over other blocks of as many
// observations, a loop with another window, and a loop over blocks of a size
// (ShuffleBlocksOf) even of the same starts.
func TestShuffleBlocksRefusesOtherBlocks(t *testing.T) {
	const n = 40
	starts := blocksOf(n)
	l := eachobs.NewLoader(blockedTens(n), 4, eachobs.ShuffleBlocks(9, 2))
	it := l.Iter()
	for range 3 {
		it.Next()
	}
	saved, err := it.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	it.Close()
	if order := it.Pos().Order; !strings.HasPrefix(order, "blocks 16@") || !strings.HasSuffix(order, "x2") || len(order) != len("blocks 16@0123456789abcdefx2") {
		t.Errorf("the order of 16 blocks in windows of 2 is named %q, want blocks 16@<16 hex digits>x2", order)
	}
	other := slices.Clone(starts)
	other[3]++ // one observation moved from block 3 to block 2
	moved := blocked[int]{tens(n), other}
	equal := blocked[int]{tens(n), []int{0, 10, 20, 30, 40}}
	tests := []struct {
		what, option string
		l            *eachobs.Loader[[]int]
	}{
		{"the same blocks", "", eachobs.NewLoader(blocked[int]{tens(n), slices.Clone(starts)}, 3, eachobs.ShuffleBlocks(9, 2), eachobs.Workers(3))},
		{"a block boundary moved", "ShuffleBlocks:", eachobs.NewLoader(moved, 4, eachobs.ShuffleBlocks(9, 2))},
		{"another window", "ShuffleBlocks:", eachobs.NewLoader(blockedTens(n), 4, eachobs.ShuffleBlocks(9, 3))},
		{"another seed", "ShuffleBlocks: the position's seed", eachobs.NewLoader(blockedTens(n), 4, eachobs.ShuffleBlocks(8, 2))},
		{"blocks of a size", "ShuffleBlocksOf:", eachobs.NewLoader(blockedTens(n), 4, eachobs.ShuffleBlocksOf(9, 10, 2))},
		{"no shuffle", "no shuffle:", eachobs.NewLoader(blockedTens(n), 4)},
	}
	for _, tc := range tests {
		err := tc.l.Iter().UnmarshalBinary(saved)
		if tc.option == "" {
			if err != nil {
				t.Errorf("%s: %v, want the rest of the epoch", tc.what, err)
			}
			continue
		}
		if !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), tc.option) {
			t.Errorf("%s: error %v, want container.ErrState naming %q", tc.what, err, tc.option)
		}
		if order := strings.Contains(err.Error(), "order"); order && !strings.Contains(err.Error(), "(ShuffleBlocks)") {
			t.Errorf("%s: error %v does not name the position's option, ShuffleBlocks", tc.what, err)
		}
	}
	// Blocks of one size given by the container and cut by ShuffleBlocksOf
	// make the same order, but their names differ: positions do not cross.
	a := collect(eachobs.NewLoader(equal, 5, eachobs.ShuffleBlocks(9, 2)).Epoch(1))
	b := collect(eachobs.NewLoader(equal, 5, eachobs.ShuffleBlocksOf(9, 10, 2)).Epoch(1))
	for k := range a {
		if !slices.Equal(a[k].Indices, b[k].Indices) {
			t.Fatalf("batch %d: %v over the container's blocks of 10, %v over blocks of 10", k, a[k].Indices, b[k].Indices)
		}
	}
}

// TestShuffleBlocksPanics: the loop refuses ShuffleBlocks over a container
// with no blocks or with starts that are not starts of its observations, at
// the call that builds it.
func TestShuffleBlocksPanics(t *testing.T) {
	tests := []struct {
		what, op, arg string
		f             func()
	}{
		{"window 0", "eachobs.ShuffleBlocks", "window", func() { eachobs.ShuffleBlocks(1, 0) }},
		{"no blocks", "eachobs.NewLoader", "container", func() { eachobs.NewLoader(tens(10), 2, eachobs.ShuffleBlocks(1, 2)) }},
		{"nil blocks", "eachobs.Batches", "container", func() { eachobs.Batches(blocked[int]{tens(10), nil}, 2, eachobs.ShuffleBlocks(1, 2)) }},
		{"Obs, no blocks", "eachobs.Obs", "container", func() { eachobs.Obs(tens(10), eachobs.ShuffleBlocks(1, 2)) }},
		{"empty starts", "eachobs.NewLoader", "container's block starts", func() {
			eachobs.NewLoader(blocked[int]{tens(10), []int{}}, 2, eachobs.ShuffleBlocks(1, 2))
		}},
		{"first not 0", "eachobs.NewLoader", "container's block starts", func() {
			eachobs.NewLoader(blocked[int]{tens(10), []int{1, 10}}, 2, eachobs.ShuffleBlocks(1, 2))
		}},
		{"last not n", "eachobs.NewLoader", "container's block starts", func() {
			eachobs.NewLoader(blocked[int]{tens(10), []int{0, 5, 9}}, 2, eachobs.ShuffleBlocks(1, 2))
		}},
		{"decreasing", "eachobs.NewLoader", "container's block starts", func() {
			eachobs.NewLoader(blocked[int]{tens(10), []int{0, 6, 5, 10}}, 2, eachobs.ShuffleBlocks(1, 2))
		}},
		{"two shuffles", "eachobs.NewLoader", "options", func() {
			eachobs.NewLoader(blockedTens(10), 2, eachobs.ShuffleBlocks(1, 2), eachobs.ShuffleBlocksOf(1, 2, 2))
		}},
		{"ShuffleBlocksOf block 0", "eachobs.ShuffleBlocksOf", "block", func() { eachobs.ShuffleBlocksOf(1, 0, 2) }},
	}
	for _, tc := range tests {
		if ae := argPanic(tc.f); ae == nil || ae.Op != tc.op || ae.Arg != tc.arg {
			t.Errorf("%s: panic %v, want a *container.ArgError of %s about the %s", tc.what, ae, tc.op, tc.arg)
		}
	}
	// A container of no observations in no blocks or in empty ones: no batch.
	for _, starts := range [][]int{{0}, {0, 0, 0}} {
		for b := range eachobs.Batches(blocked[int]{tens(0), starts}, 2, eachobs.ShuffleBlocks(1, 2)) {
			t.Errorf("blocks %v of no observations: batch %v", starts, b.Indices)
		}
	}
}

// TestShuffleBlocksWindows: every batch of an epoch over the container's
// blocks, cut into windows of whole blocks, holds observations of at most
// window blocks; the loop reads its blocks a window at a time.
func TestShuffleBlocksWindows(t *testing.T) {
	const n, window = 200, 3
	starts := blocksOf(n)
	blockOf := func(i int) int {
		k, _ := slices.BinarySearch(starts, i+1)
		for starts[k] > i {
			k--
		}
		return k
	}
	l := eachobs.NewLoader(blockedTens(n), 7, eachobs.ShuffleBlocks(3, window), eachobs.Workers(2))
	for e := range 3 {
		var order []int
		for b := range l.Epoch(e) {
			order = append(order, b.Indices...)
		}
		want := index.NewBlocksAt(starts, window, 3, e)
		for i, x := range order {
			if want.At(i) != x {
				t.Fatalf("epoch %d position %d: index %d, the order says %d", e, i, x, want.At(i))
			}
		}
		// The blocks in the order they are first read: each run of positions
		// over which every block begun is complete holds at most window.
		left := map[int]int{}
		for _, x := range order {
			k := blockOf(x)
			if _, ok := left[k]; !ok {
				left[k] = starts[k+1] - starts[k]
			}
			left[k]--
			if left[k] == 0 {
				delete(left, k)
			}
			if len(left) > window {
				t.Fatalf("epoch %d: blocks %v read at once, more than a window of %d", e, left, window)
			}
		}
	}
}

// TestShuffleBlocksThroughWrappers: a loop over a tuple of a container with
// blocks and labels, over a map of it or a view of it in order, takes the
// container's blocks; over a shuffled view of it (which has none)
// ShuffleBlocks is refused.
func TestShuffleBlocksThroughWrappers(t *testing.T) {
	const n = 30
	x := blockedTens(n)
	labels := container.FromSlice(iota(n))
	pair := must(tuples.Zip2(x, labels))
	mapped := transform.Map(x, func(v int) int { return v + 1 })
	want := index.NewBlocksAt(blocksOf(n), 2, 4, 1)
	check := func(what string, idx []int) {
		t.Helper()
		for i, got := range idx {
			if w := want.At(i); got != w {
				t.Fatalf("%s: position %d of epoch 1 visits %d, the order of the blocks %d", what, i, got, w)
			}
		}
	}
	var idx []int
	for b := range eachobs.NewLoader(pair, 4, eachobs.ShuffleBlocks(4, 2)).Epoch(1) {
		idx = append(idx, b.Indices...)
	}
	check("tuple", idx)
	idx = idx[:0]
	for b := range eachobs.NewLoader(mapped, 4, eachobs.ShuffleBlocks(4, 2)).Epoch(1) {
		idx = append(idx, b.Indices...)
	}
	check("map", idx)
	idx = idx[:0]
	for b := range eachobs.NewLoader(subset.Range(x, 0, n), 4, eachobs.ShuffleBlocks(4, 2)).Epoch(1) {
		idx = append(idx, b.Indices...)
	}
	check("a view of all, in order", idx)
	shuffled := subset.Shuffle(x, rand.New(rand.NewPCG(1, 1)))
	if ae := argPanic(func() { eachobs.NewLoader(shuffled, 4, eachobs.ShuffleBlocks(4, 2)) }); ae == nil || ae.Arg != "container" {
		t.Errorf("a shuffled view: panic %v, want a *container.ArgError about the container", ae)
	}
}
