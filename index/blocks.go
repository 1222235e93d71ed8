package index

import (
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/mix"
)

// A Blocks order is a permutation of the positions 0..n-1 for data read from
// disk: a shuffle in two levels that keeps reads local. The positions are cut
// into blocks of consecutive positions (of Block positions each, the last one
// shorter); the blocks are put in a random order; and the positions of each
// window of Window consecutive blocks of that order are shuffled among
// themselves. An epoch then reads its blocks one window at a time, in any order
// within the window, so a file larger than memory is read a window of blocks at
// a time instead of at random (MosaicML's py1b, Grain's window shuffle, a
// shuffle buffer over shards, but indexable and without state).
//
// Window 1 visits the blocks whole (only their order is random); a window of
// all the blocks is a full shuffle. Like a [Cipher], a Blocks order is computed
// position by position, in O(1) memory and expected time, both ways: a loop
// resumes anywhere in an epoch at once. It never changes once made and is safe
// to use from many goroutines.
type Blocks struct {
	n, block, window int
	nblocks          int    // ceil(n / block)
	short            int    // the number of positions of the last block (block when none is short)
	shortAt          int    // the place of the last block in the shuffled order of blocks
	blocks           Cipher // the order of the blocks
	seed             uint64
	epoch            int
}

// domainBlocks and domainWindows keep the keys of the order of blocks and of
// each window apart from each other and from those of a Cipher.
const (
	domainBlocks  = 0x626c6f636b2d6f72 // "block-or"
	domainWindows = 0x77696e646f772d73 // "window-s"
)

// NewBlocks returns the two-level order of n positions of epoch epoch of seed
// seed, in blocks of block positions shuffled within windows of window blocks.
// It panics with a [*container.ArgError] when n is negative or block or window
// is below 1.
func NewBlocks(n, block, window int, seed uint64, epoch int) Blocks {
	container.CheckArg(n >= 0, "index.NewBlocks", "number of positions", n, ">= 0")
	container.CheckArg(block >= 1, "index.NewBlocks", "block", block, ">= 1")
	container.CheckArg(window >= 1, "index.NewBlocks", "window", window, ">= 1")
	nb := ceilDiv(n, block)
	b := Blocks{
		n: n, block: block, window: window,
		nblocks: nb,
		short:   block,
		blocks:  NewCipher(nb, mix.Key(domainBlocks, seed, uint64(epoch)), epoch),
		seed:    seed, epoch: epoch,
	}
	if r := n % block; r != 0 {
		b.short = r
	}
	if nb > 0 {
		b.shortAt = b.blocks.Pos(nb - 1)
	}
	return b
}

// N returns the number of positions.
func (b *Blocks) N() int { return b.n }

// Block returns the number of positions of a block, and Window the number of
// blocks of a window.
func (b *Blocks) Block() int { return b.block }

// Window returns the number of blocks of a window.
func (b *Blocks) Window() int { return b.window }

// windowOf returns the window holding position i, the position where it starts
// and its number of positions.
func (b *Blocks) windowOf(i int) (w, start, size int) {
	span := b.window * b.block // the positions of a window of full blocks
	cut := b.block - b.short   // what the short block lacks
	wShort := b.shortAt / b.window
	// Windows before the short block's are full; from it on they start cut
	// positions earlier.
	if i < wShort*span+span-cut || cut == 0 {
		w = i / span
	} else {
		w = wShort + 1 + (i-(wShort+1)*span+cut)/span
	}
	return w, b.windowStart(w), b.windowSize(w)
}

// windowStart returns the first position of window w.
func (b *Blocks) windowStart(w int) int {
	start := w * b.window * b.block
	if w > b.shortAt/b.window {
		start -= b.block - b.short
	}
	return start
}

// windowSize returns the number of positions of window w.
func (b *Blocks) windowSize(w int) int {
	first := w * b.window
	k := min(b.window, b.nblocks-first) // the blocks of the window
	size := k * b.block
	if b.shortAt >= first && b.shortAt < first+k {
		size -= b.block - b.short
	}
	return size
}

// within returns the permutation of the positions of window w of size
// positions.
func (b *Blocks) within(w, size int) Cipher {
	return NewCipher(size, mix.Key(domainWindows, b.seed, uint64(w)), b.epoch)
}

// element returns the element at offset v of window w: the window's full blocks
// come first, in their shuffled order, then its short block, if it has it.
func (b *Blocks) element(w, v int) int {
	first := w * b.window
	slot := v / b.block
	off := v % b.block
	if b.short < b.block && b.shortAt >= first && b.shortAt < first+b.window {
		full := min(b.window, b.nblocks-first) - 1
		if slot >= full { // the short block, last
			return (b.nblocks-1)*b.block + v - full*b.block
		}
		if first+slot >= b.shortAt {
			slot++
		}
	}
	return b.blocks.At(first+slot)*b.block + off
}

// At returns the element at position i. It panics with a
// [*container.IndexError] when i is outside [0, n).
func (b *Blocks) At(i int) int {
	container.CheckIndex("index.Blocks.At", i, b.n)
	w, start, size := b.windowOf(i)
	c := b.within(w, size)
	return b.element(w, c.At(i-start))
}

// Fill writes the elements at positions start, start+1, ... into dst, len(dst)
// of them: dst[j] = At(start+j), computing each window's permutation once. It
// panics with a [*container.IndexError] when a position is outside [0, n).
func (b *Blocks) Fill(dst []int, start int) {
	if len(dst) == 0 {
		return
	}
	container.CheckIndex("index.Blocks.Fill", start, b.n)
	container.CheckIndex("index.Blocks.Fill", start+len(dst)-1, b.n)
	for len(dst) > 0 {
		w, ws, size := b.windowOf(start)
		m := min(len(dst), ws+size-start)
		c := b.within(w, size)
		c.fill(dst[:m], uint64(start-ws))
		for j, v := range dst[:m] {
			dst[j] = b.element(w, v)
		}
		dst, start = dst[m:], start+m
	}
}

// Pos returns the position of element x, the inverse of At. It panics with a
// [*container.IndexError] when x is outside [0, n).
func (b *Blocks) Pos(x int) int {
	container.CheckIndex("index.Blocks.Pos", x, b.n)
	blk, off := x/b.block, x%b.block
	at := b.blocks.Pos(blk) // the block's place in the shuffled order
	w := at / b.window
	first := w * b.window
	var v int
	switch {
	case blk == b.nblocks-1 && b.short < b.block: // the short block, last in its window
		v = (min(b.window, b.nblocks-first)-1)*b.block + off
	default:
		slot := at - first
		if b.short < b.block && b.shortAt >= first && b.shortAt < at {
			slot-- // the short block's slot is moved to the end
		}
		v = slot*b.block + off
	}
	c := b.within(w, b.windowSize(w))
	return b.windowStart(w) + c.Pos(v)
}
