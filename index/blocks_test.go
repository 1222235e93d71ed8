package index_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obskit/obskit/index"
)

// TestBlocksIsALocalPermutation: for random (n, block, window), a Blocks order
// is a permutation whose inverse is Pos, Fill agrees with At, and each window
// of positions holds exactly the elements of its blocks: whole blocks of
// consecutive elements, window blocks at a time.
func TestBlocksIsALocalPermutation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cases := [][3]int{{0, 1, 1}, {1, 1, 1}, {10, 3, 2}, {10, 5, 1}, {10, 20, 4}, {12, 4, 3}, {64, 8, 8}, {65, 8, 100}}
	for range 300 {
		n := rng.IntN(500)
		cases = append(cases, [3]int{n, 1 + rng.IntN(40), 1 + rng.IntN(12)})
	}
	for _, tc := range cases {
		n, block, window := tc[0], tc[1], tc[2]
		b := index.NewBlocks(n, block, window, rng.Uint64(), rng.IntN(10))
		what := fmt.Sprintf("n=%d block=%d window=%d", n, block, window)
		got := make([]int, n)
		for start := 0; start < n; {
			m := min(n-start, 1+rng.IntN(70))
			b.Fill(got[start:start+m], start)
			start += m
		}
		seen := make([]bool, n)
		for i, x := range got {
			if x < 0 || x >= n || seen[x] {
				t.Fatalf("%s: At(%d) = %d, out of range or repeated", what, i, x)
			}
			seen[x] = true
			if a := b.At(i); a != x {
				t.Fatalf("%s: Fill gives %d at %d, At %d", what, x, i, a)
			}
			if p := b.Pos(x); p != i {
				t.Fatalf("%s: Pos(%d) = %d, want %d", what, x, p, i)
			}
		}
		// Cut the positions into windows: each holds whole blocks, at most window.
		span := window * block
		for lo := 0; lo < n; {
			var blocks []int
			hi := lo
			for hi < n && len(blocks) <= window {
				blk := got[hi] / block
				if !slices.Contains(blocks, blk) {
					if len(blocks) == window {
						break
					}
					blocks = append(blocks, blk)
				}
				hi++
			}
			size := 0
			for _, blk := range blocks {
				size += min(block, n-blk*block)
			}
			if hi-lo != size {
				t.Fatalf("%s: positions [%d, %d) hold %d positions of blocks %v, whose size is %d: blocks not whole", what, lo, hi, hi-lo, blocks, size)
			}
			if hi-lo > span {
				t.Fatalf("%s: a window of %d positions, more than %d", what, hi-lo, span)
			}
			lo = hi
		}
	}
}

// TestBlocksExtremes: window 1 keeps each block whole and in order within
// itself is shuffled; one window of every block is a shuffle of everything.
func TestBlocksExtremes(t *testing.T) {
	b := index.NewBlocks(20, 5, 1, 9, 0)
	for i := 0; i < 20; i += 5 {
		var blk []int
		for j := range 5 {
			blk = append(blk, b.At(i+j))
		}
		lo := slices.Min(blk)
		slices.Sort(blk)
		if lo%5 != 0 || !slices.Equal(blk, []int{lo, lo + 1, lo + 2, lo + 3, lo + 4}) {
			t.Errorf("window 1: positions [%d, %d) hold %v, not one block", i, i+5, blk)
		}
	}
	all := index.NewBlocks(1000, 10, 100, 9, 0)
	far := 0 // neighbours from different blocks
	for i := 1; i < 1000; i++ {
		if all.At(i)/10 != all.At(i-1)/10 {
			far++
		}
	}
	if far < 900 {
		t.Errorf("one window of all blocks: only %d of 999 neighbours from different blocks", far)
	}
	wantArgPanic(t, "NewBlocks(10, 0, 1)", "index.NewBlocks", "block", func() { index.NewBlocks(10, 0, 1, 0, 0) })
	wantArgPanic(t, "NewBlocks(10, 1, 0)", "index.NewBlocks", "window", func() { index.NewBlocks(10, 1, 0, 0, 0) })
	wantIndexPanic(t, "At(20)", "index.Blocks.At", 20, 20, func() { b.At(20) })
}

// TestBlocksLarge: sampled positions of a large order come back through Pos.
func TestBlocksLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range [][3]int{{10_000_000_000, 1 << 20, 16}, {1<<40 + 3, 4096, 64}, {999_999_937, 1000, 7}} {
		b := index.NewBlocks(tc[0], tc[1], tc[2], 5, 1)
		for range 1000 {
			i := rng.IntN(tc[0])
			if p := b.Pos(b.At(i)); p != i {
				t.Fatalf("%v: Pos(At(%d)) = %d", tc, i, p)
			}
		}
	}
}
