package index_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obskit/obskit/index"
)

// randomStarts returns the starts of nb blocks of random sizes below max, with
// empty blocks (a size of 0) about one time in four.
func randomStarts(rng *rand.Rand, nb, max int) []int {
	starts := make([]int, nb+1)
	for k := range nb {
		size := 0
		if rng.IntN(4) > 0 {
			size = rng.IntN(max)
		}
		starts[k+1] = starts[k] + size
	}
	return starts
}

// equalStarts returns the starts of NewBlocks(n, block, ...).
func equalStarts(n, block int) []int {
	starts := []int{0}
	for s := block; s < n; s += block {
		starts = append(starts, s)
	}
	if n > 0 {
		starts = append(starts, n)
	}
	return starts
}

// checkBlocks checks b, the order of the blocks of starts, against the naive
// reference: At, Fill from random places and Pos; then that each window of
// positions holds whole blocks, at most window of them.
func checkBlocks(t *testing.T, what string, b index.Blocks, starts []int, window int, seed uint64, epoch int, rng *rand.Rand) {
	t.Helper()
	n := starts[len(starts)-1]
	want := index.NaiveBlocks(starts, window, seed, epoch)
	if b.N() != n || len(want) != n {
		t.Fatalf("%s: N() = %d, the reference has %d positions, want %d", what, b.N(), len(want), n)
	}
	got := make([]int, n)
	for start := 0; start < n; {
		m := min(n-start, 1+rng.IntN(70))
		b.Fill(got[start:start+m], start)
		start += m
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%s: Fill gives\n%v\nthe reference\n%v", what, got, want)
	}
	for i, x := range want {
		if a := b.At(i); a != x {
			t.Fatalf("%s: At(%d) = %d, the reference %d", what, i, a, x)
		}
		if p := b.Pos(x); p != i {
			t.Fatalf("%s: Pos(%d) = %d, want %d", what, x, p, i)
		}
	}
	// Cut the positions where every block begun is complete: each run holds
	// whole blocks, and lies within one window, so it holds at most window.
	blockOf := func(x int) int {
		k, _ := slices.BinarySearch(starts, x+1)
		for starts[k] > x { // the last block starting at or before x
			k--
		}
		return k
	}
	open, lo := 0, 0
	var blocks []int
	for i, x := range got {
		k := blockOf(x)
		if !slices.Contains(blocks, k) {
			blocks = append(blocks, k)
			open += starts[k+1] - starts[k]
		}
		open--
		if open == 0 {
			if len(blocks) > window {
				t.Fatalf("%s: positions [%d, %d) hold blocks %v, more than a window of %d", what, lo, i+1, blocks, window)
			}
			blocks, lo = blocks[:0], i+1
		}
	}
	if open != 0 {
		t.Fatalf("%s: blocks %v are not whole at the end", what, blocks)
	}
}

// TestBlocksAgainstNaive: for random blocks of any sizes (empty ones
// included), windows, seeds and epochs, NewBlocksAt is the naive reference's
// permutation, and so are NewBlocks for random (n, block, window) and the order
// of the same starts kept in a table.
func TestBlocksAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 400 {
		seed, epoch := rng.Uint64(), rng.IntN(10)
		window := 1 + rng.IntN(12)
		starts := randomStarts(rng, rng.IntN(30), 1+rng.IntN(40))
		if trial < 4 {
			starts = [][]int{{0}, {0, 0}, {0, 0, 0, 3, 3}, {0, 1}}[trial]
		}
		what := fmt.Sprintf("starts %v, window %d", starts, window)
		checkBlocks(t, what, index.NewBlocksAt(starts, window, seed, epoch), starts, window, seed, epoch, rng)

		n, block := rng.IntN(500), 1+rng.IntN(40)
		eq := equalStarts(n, block)
		what = fmt.Sprintf("n=%d block=%d window=%d", n, block, window)
		b := index.NewBlocks(n, block, window, seed, epoch)
		checkBlocks(t, what, b, eq, window, seed, epoch, rng)
		if at := index.NewBlocksAt(eq, window, seed, epoch); at.Tabled() {
			t.Fatalf("%s: NewBlocksAt(%v) keeps a table: blocks of one size are computed", what, eq)
		}
		checkBlocks(t, what+" in a table", index.TableBlocks(eq, window, seed, epoch), eq, window, seed, epoch, rng)
	}
}

// TestBlocksOneAlgorithm: blocks of one size computed (NewBlocks) and the same
// blocks looked up in a table give the same order, position by position, at
// sizes too large for the reference.
func TestBlocksOneAlgorithm(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 30 {
		n, block, window := rng.IntN(200_000), 1+rng.IntN(5000), 1+rng.IntN(20)
		seed, epoch := rng.Uint64(), rng.IntN(100)
		computed := index.NewBlocks(n, block, window, seed, epoch)
		table := index.TableBlocks(equalStarts(n, block), window, seed, epoch)
		a, b := make([]int, n), make([]int, n)
		if n > 0 {
			computed.Fill(a, 0)
			table.Fill(b, 0)
		}
		if !slices.Equal(a, b) {
			t.Fatalf("n=%d block=%d window=%d: computed and table orders differ", n, block, window)
		}
	}
}

// TestBlocksResetAndPurity: an order is a function of (blocks, window, seed,
// epoch) alone: orders made apart agree, and an order Reset to another epoch
// is the order made for it, with no allocation.
func TestBlocksResetAndPurity(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	starts := randomStarts(rng, 200, 300)
	n := starts[len(starts)-1]
	b := index.NewBlocksAt(starts, 4, 11, 0)
	got, want := make([]int, n), make([]int, n)
	for _, e := range []int{3, 0, 3, 17} {
		b.Reset(11, e)
		fresh := index.NewBlocksAt(slices.Clone(starts), 4, 11, e)
		b.Fill(got, 0)
		fresh.Fill(want, 0)
		if !slices.Equal(got, want) {
			t.Fatalf("epoch %d: the order Reset to it is not the order made for it", e)
		}
	}
	b.Reset(12, 3)
	b.Fill(got, 0)
	if slices.Equal(got, want) {
		t.Fatalf("seeds 11 and 12 give the same order of epoch 3")
	}
	if a := testing.AllocsPerRun(20, func() { b.Reset(11, 5) }); a != 0 {
		t.Errorf("Reset allocates %v times, want 0", a)
	}
	eq := index.NewBlocks(1000, 7, 3, 1, 0)
	if a := testing.AllocsPerRun(20, func() { eq.Reset(1, 9) }); a != 0 {
		t.Errorf("Reset of blocks of one size allocates %v times, want 0", a)
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
	wantArgPanic(t, "NewBlocks(-1, 1, 1)", "index.NewBlocks", "number of positions", func() { index.NewBlocks(-1, 1, 1, 0, 0) })
	wantArgPanic(t, "NewBlocks(MaxInt, 2, 1)", "index.NewBlocks", "number of positions", func() { index.NewBlocks(1<<63-1, 2, 1, 0, 0) })
	wantIndexPanic(t, "At(20)", "index.Blocks.At", 20, 20, func() { b.At(20) })
	wantIndexPanic(t, "Pos(-1)", "index.Blocks.Pos", -1, 20, func() { b.Pos(-1) })
	wantIndexPanic(t, "Fill past the end", "index.Blocks.Fill", 20, 20, func() { b.Fill(make([]int, 3), 18) })
	wantArgPanic(t, "NewBlocksAt(nil)", "index.NewBlocksAt", "starts", func() { index.NewBlocksAt(nil, 1, 0, 0) })
	wantArgPanic(t, "NewBlocksAt([1 2])", "index.NewBlocksAt", "starts[0]", func() { index.NewBlocksAt([]int{1, 2}, 1, 0, 0) })
	wantArgPanic(t, "NewBlocksAt([0 5 3 9])", "index.NewBlocksAt", "starts[2]", func() { index.NewBlocksAt([]int{0, 5, 3, 9}, 1, 0, 0) })
	wantArgPanic(t, "NewBlocksAt window 0", "index.NewBlocksAt", "window", func() { index.NewBlocksAt([]int{0, 5}, 0, 0, 0) })
}

// TestBlocksLarge: sampled positions of large orders come back through Pos,
// blocks of one size and of any sizes.
func TestBlocksLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	orders := []index.Blocks{
		index.NewBlocks(10_000_000_000, 1<<20, 16, 5, 1),
		index.NewBlocks(1<<40+3, 4096, 64, 5, 1),
		index.NewBlocks(999_999_937, 1000, 7, 5, 1),
		index.NewBlocksAt(randomStarts(rng, 100_000, 1<<24), 16, 5, 1), // about 6*10^11 positions
	}
	for _, b := range orders {
		for range 1000 {
			i := rng.IntN(b.N())
			if p := b.Pos(b.At(i)); p != i {
				t.Fatalf("n=%d: Pos(At(%d)) = %d", b.N(), i, p)
			}
		}
	}
}

// FuzzBlocks: blocks whose sizes are the fuzzer's bytes (0 an empty block), a
// window, a seed and an epoch give the naive reference's permutation, its
// inverse, and windows of whole blocks.
func FuzzBlocks(f *testing.F) {
	f.Add([]byte{4, 2, 3}, uint8(2), uint64(7), uint8(0))
	f.Add([]byte{0, 0, 5, 0}, uint8(1), uint64(1), uint8(3))
	f.Add([]byte{8, 8, 8, 8, 3}, uint8(3), uint64(9), uint8(1))
	f.Add([]byte{}, uint8(1), uint64(0), uint8(0))
	f.Fuzz(func(t *testing.T, sizes []byte, window uint8, seed uint64, epoch uint8) {
		if len(sizes) > 64 {
			sizes = sizes[:64]
		}
		starts := []int{0}
		for _, s := range sizes {
			starts = append(starts, starts[len(starts)-1]+int(s%64))
		}
		w := 1 + int(window%16)
		rng := rand.New(rand.NewPCG(seed, 0))
		checkBlocks(t, fmt.Sprintf("starts %v window %d", starts, w), index.NewBlocksAt(starts, w, seed, int(epoch)), starts, w, seed, int(epoch), rng)
	})
}
