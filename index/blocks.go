package index

import (
	"fmt"
	"math"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/mix"
)

// A Blocks order is a permutation of the positions 0..n-1 for data read from
// disk: a shuffle in two levels that keeps reads local. The positions are cut
// into blocks of consecutive positions; the blocks are put in a random order;
// and the positions of each window of Window consecutive blocks of that order
// are shuffled among themselves. An epoch then reads its blocks one window at a
// time, in any order within the window, so a file larger than memory is read a
// window of blocks at a time instead of at random, and a reader that caches a
// window of decoded blocks decodes each block once per epoch (MosaicML's py1b,
// Grain's window shuffle, a shuffle buffer over shards, but indexable and
// without state).
//
// The blocks are of one size ([NewBlocks]: the last one may be shorter, for
// data with no blocks of its own, such as a memory-mapped array) or of any
// sizes, given by their starts ([NewBlocksAt]: Parquet row groups, Arrow record
// batches, shards; empty blocks are allowed). Both are one algorithm: blocks of
// one size are blocks of any sizes whose starts are computed rather than
// stored, and the same starts give the same order whichever constructor took
// them. Window 1 visits the blocks whole (only their order is random); a window
// of all the blocks is a full shuffle.
//
// Like a [Cipher], a Blocks order is computed position by position, both ways,
// from its blocks, window, seed and epoch alone: a loop resumes anywhere in an
// epoch at once. Blocks of one size take O(1) memory and O(1) expected time per
// position. Blocks of any sizes keep their starts (not copied) and a table of
// the epoch's blocks, len(starts) ints, built in O(blocks) time when the order
// is made or [Blocks.Reset], and find a position's block by binary search, in
// O(log blocks) time. An order's methods are safe to use from many goroutines,
// but Reset, which changes the order in place.
type Blocks struct {
	n, window, nblocks int
	// The blocks: starts[k] is the first position of block k and
	// starts[nblocks] is n; nil for blocks of block positions, the last one of
	// short (1 to block).
	starts       []int
	block, short int
	// The epoch: slot q of its order of blocks holds block blocks.At(q).
	seed    uint64
	epoch   int
	blocks  Cipher
	shortAt int   // blocks of one size: the slot of the last block
	before  []int // blocks of any sizes: before[q] is the positions of slots 0..q-1
}

// domainBlocks and domainWindows keep the keys of the order of blocks and of
// each window apart from each other and from those of a Cipher.
const (
	domainBlocks  = 0x626c6f636b2d6f72 // "block-or"
	domainWindows = 0x77696e646f772d73 // "window-s"
)

// NewBlocks returns the two-level order of n positions of epoch epoch of seed
// seed, in blocks of block positions (the last one the rest, when block does not
// divide n) shuffled within windows of window blocks. It panics with a
// [*container.ArgError] when n is negative, block or window is below 1, or n
// is so close to math.MaxInt that its blocks, rounded up, would not fit an int.
func NewBlocks(n, block, window int, seed uint64, epoch int) Blocks {
	container.CheckArg(n >= 0, "index.NewBlocks", "number of positions", n, ">= 0")
	container.CheckArg(block >= 1, "index.NewBlocks", "block", block, ">= 1")
	container.CheckArg(window >= 1, "index.NewBlocks", "window", window, ">= 1")
	container.CheckArg(n <= math.MaxInt-block+1, "index.NewBlocks", "number of positions", n, fmt.Sprintf("<= %d: whole blocks of %d within an int", math.MaxInt-block+1, block))
	return equalBlocks(n, block, window, seed, epoch)
}

func equalBlocks(n, block, window int, seed uint64, epoch int) Blocks {
	nb := ceilDiv(n, block)
	b := Blocks{n: n, window: window, nblocks: nb, block: block, short: block}
	if nb > 0 {
		b.short = n - (nb-1)*block
	}
	b.Reset(seed, epoch)
	return b
}

// NewBlocksAt returns the two-level order of epoch epoch of seed seed over
// blocks of any sizes, shuffled within windows of window blocks: starts holds
// the first position of each block and, last, the number of positions n, so
// that block k holds the positions starts[k] to starts[k+1]-1 (none when they
// are equal). starts is not copied and must not change while the order is in
// use. When the blocks are of one size but the last, which is not longer, the
// order is NewBlocks(n, size, window, seed, epoch), with its O(1) memory.
//
// NewBlocksAt panics with a [*container.ArgError] when window is below 1,
// starts is empty, starts[0] is not 0 or a start is below the one before it.
func NewBlocksAt(starts []int, window int, seed uint64, epoch int) Blocks {
	checkStarts("index.NewBlocksAt", starts)
	container.CheckArg(window >= 1, "index.NewBlocksAt", "window", window, ">= 1")
	if size, ok := equalSize(starts); ok {
		return equalBlocks(starts[len(starts)-1], size, window, seed, epoch)
	}
	return tableBlocks(starts, window, seed, epoch)
}

// tableBlocks is NewBlocksAt of checked starts, with the table whatever the
// sizes.
func tableBlocks(starts []int, window int, seed uint64, epoch int) Blocks {
	nb := len(starts) - 1
	b := Blocks{n: starts[nb], window: window, nblocks: nb, starts: starts, before: make([]int, nb+1)}
	b.Reset(seed, epoch)
	return b
}

// checkStarts panics, for op, when starts are not the starts of blocks.
func checkStarts(op string, starts []int) {
	container.CheckArg(len(starts) >= 1, op, "starts", "[]", "the first position of each block, then the number of positions")
	container.CheckArg(starts[0] == 0, op, "starts[0]", starts[0], "0")
	for k := 1; k < len(starts); k++ {
		if starts[k] < starts[k-1] {
			panic(&container.ArgError{Op: op, Arg: fmt.Sprintf("starts[%d]", k), Value: starts[k], Want: fmt.Sprintf(">= starts[%d], %d", k-1, starts[k-1])})
		}
	}
}

// equalSize returns the size of blocks whose starts are those of NewBlocks:
// one size but the last, which is not empty and not longer.
func equalSize(starts []int) (size int, ok bool) {
	nb := len(starts) - 1
	if nb == 0 {
		return 1, true
	}
	size = starts[1]
	if size < 1 {
		return 0, false
	}
	for k := 1; k < nb; k++ {
		if starts[k] != k*size {
			return 0, false
		}
	}
	last := starts[nb] - starts[nb-1]
	// The blocks, rounded up, must fit an int, as NewBlocks requires.
	return size, last >= 1 && last <= size && starts[nb-1] <= math.MaxInt-size
}

// Reset makes b the order of epoch epoch of seed seed over the same blocks and
// window, in place: it reuses the table of blocks of any sizes, so that a loop
// walking through epochs allocates nothing. Copies of b share that table and
// change with it: Reset an order that no other goroutine reads.
func (b *Blocks) Reset(seed uint64, epoch int) {
	b.seed, b.epoch = seed, epoch
	b.blocks = NewCipher(b.nblocks, mix.Key(domainBlocks, seed, uint64(epoch)), epoch)
	if b.starts == nil {
		if b.nblocks > 0 {
			b.shortAt = b.blocks.Pos(b.nblocks - 1)
		}
		return
	}
	// The blocks of the slots, then the positions before each slot.
	t := b.before
	t[0] = 0
	b.blocks.fill(t[1:], 0)
	for q := 1; q <= b.nblocks; q++ {
		k := t[q]
		t[q] = t[q-1] + b.starts[k+1] - b.starts[k]
	}
}

// N returns the number of positions.
func (b *Blocks) N() int { return b.n }

// Window returns the number of blocks of a window.
func (b *Blocks) Window() int { return b.window }

// The layout of the blocks, the one place where the two forms differ.

// first returns the first position of block k.
func (b *Blocks) first(k int) int {
	if b.starts == nil {
		return k * b.block
	}
	return b.starts[k]
}

// blockOf returns the block holding position x.
func (b *Blocks) blockOf(x int) int {
	if b.starts == nil {
		return x / b.block
	}
	return search(b.starts, x, 0, b.nblocks)
}

// positions returns the positions of the slots 0..q-1 of the epoch's order of
// blocks.
func (b *Blocks) positions(q int) int {
	if b.starts == nil {
		p := q * b.block
		if q > b.shortAt {
			p -= b.block - b.short
		}
		return p
	}
	return b.before[q]
}

// slot returns the slot of the epoch's order of blocks holding position p of
// the epoch, a slot in [lo, hi) when p is in one.
func (b *Blocks) slot(p, lo, hi int) int {
	if b.starts == nil {
		if p < b.shortAt*b.block+b.short {
			return p / b.block
		}
		return (p + b.block - b.short) / b.block
	}
	return search(b.before, p, lo, hi)
}

// search returns the last q in [lo, hi) with t[q] <= p, for t not decreasing
// and t[lo] <= p < t[hi]: the non-empty block or slot holding p.
func search(t []int, p, lo, hi int) int {
	t = t[lo:hi]
	base := 0
	for n := len(t); n > 1; { // t[base] <= p: halve the candidates
		half := n / 2
		if t[base+half] <= p {
			base += half
		}
		n -= half
	}
	return lo + base
}

// The order, the same for both forms.

// windowOf returns the window holding position i of the epoch: its number,
// its slots [lo, hi), the position where it starts and its number of
// positions.
func (b *Blocks) windowOf(i int) (w, lo, hi, start, size int) {
	w = b.slot(i, 0, b.nblocks) / b.window
	lo = w * b.window
	hi = lo + min(b.window, b.nblocks-lo)
	start = b.positions(lo)
	return w, lo, hi, start, b.positions(hi) - start
}

// within returns the permutation of the positions of window w of size
// positions.
func (b *Blocks) within(w, size int) Cipher {
	return NewCipher(size, mix.Key(domainWindows, b.seed, uint64(w)), b.epoch)
}

// element returns the element at position p of the epoch before the shuffle
// within windows, p in the window of slots [lo, hi): the window's blocks are
// laid out in their slots' order.
func (b *Blocks) element(p, lo, hi int) int {
	q := b.slot(p, lo, hi)
	return b.first(int(b.blocks.at(uint64(q)))) + p - b.positions(q)
}

// At returns the element at position i. It panics with a
// [*container.IndexError] when i is outside [0, n).
func (b *Blocks) At(i int) int {
	container.CheckIndex("index.Blocks.At", i, b.n)
	w, lo, hi, start, size := b.windowOf(i)
	c := b.within(w, size)
	return b.element(start+c.At(i-start), lo, hi)
}

// Fill writes the elements at positions start, start+1, ... into dst, len(dst)
// of them: dst[j] = At(start+j), computing each window's permutation once (and
// the blocks of a window of up to 64 blocks once). It panics with a
// [*container.IndexError] when a position is outside [0, n).
func (b *Blocks) Fill(dst []int, start int) {
	if len(dst) == 0 {
		return
	}
	container.CheckIndex("index.Blocks.Fill", start, b.n)
	container.CheckIndex("index.Blocks.Fill", start+len(dst)-1, b.n)
	var blocks [64]int // the blocks of the window's slots
	for len(dst) > 0 {
		w, lo, hi, ws, size := b.windowOf(start)
		m := min(len(dst), ws+size-start)
		c := b.within(w, size)
		c.fill(dst[:m], uint64(start-ws))
		if hi-lo > len(blocks) {
			for j, v := range dst[:m] {
				dst[j] = b.element(ws+v, lo, hi)
			}
		} else {
			ids := blocks[:hi-lo]
			b.blocks.fill(ids, uint64(lo))
			for j, v := range dst[:m] {
				p := ws + v
				q := b.slot(p, lo, hi)
				dst[j] = b.first(ids[q-lo]) + p - b.positions(q)
			}
		}
		dst, start = dst[m:], start+m
	}
}

// Pos returns the position of element x, the inverse of At. It panics with a
// [*container.IndexError] when x is outside [0, n).
func (b *Blocks) Pos(x int) int {
	container.CheckIndex("index.Blocks.Pos", x, b.n)
	k := b.blockOf(x)
	q := b.blocks.Pos(k) // the block's slot in the epoch's order
	w := q / b.window
	lo := w * b.window
	hi := lo + min(b.window, b.nblocks-lo)
	start := b.positions(lo)
	c := b.within(w, b.positions(hi)-start)
	return start + c.Pos(b.positions(q)-start+x-b.first(k))
}
