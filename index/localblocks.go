package index

import (
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/mix"
)

// A LocalBlocks order is a two-level order over blocks of any sizes whose
// positions, dealt to parts in turn, come each from that part's own blocks:
// the order for P processes that each read their share of a sharded data set
// (blocks are shards) mostly from shards no other process reads, so that
// each downloads about 1/P of the data per epoch rather than every shard of
// every window (MosaicML Streaming's canonical nodes).
//
// An epoch lays out the blocks in a random order (that of [Blocks] of the
// same starts, seed and epoch), cuts that sequence of positions into parts
// runs of about n/parts positions ([Chunk]: sizes differ by at most one; a
// block at a cut is shared by two runs), and shuffles each run on its own as
// a [Blocks] order does (its blocks, or the parts of blocks at its ends, in a
// random order, positions shuffled within windows of window of them). Then
// the runs are interleaved: position g of the epoch is position g/parts of
// run g%parts, and the positions past parts*(n/parts), one for each of the
// first n%parts runs, come last in run order. So the positions a strided
// partition of parts parts deals to part p (every parts-th position from p:
// eachobs.Partition with Strided) are run p's, in run p's own two-level
// order; a partition into P parts, P dividing parts, deals part p the runs
// p, p+P, ...: still 1/P of the blocks each. Other numbers of parts read
// the same order, each position once, with less locality.
//
// Like [Blocks] it is computed position by position, both ways, from its
// blocks, window, parts, seed and epoch: a loop resumes anywhere in an epoch.
// It keeps a table of the epoch's blocks and of each run's, O(blocks + parts)
// ints, built in O(blocks + parts) time by [NewLocalBlocks] and
// [LocalBlocks.Reset] (which reuses them), and finds a position in O(log
// blocks) time. Its methods are safe to use from many goroutines, but Reset.
type LocalBlocks struct {
	all    Blocks // the epoch's order of blocks: its slots lay out the positions
	parts  int
	starts []int    // the blocks' starts, not copied
	runs   []Blocks // the order within each run, over its pieces
	// pieces holds every run's starts of its pieces of blocks, relative to
	// the run's first position, back to back; before, each run's table.
	pieces, before []int
}

// domainParts keeps the keys of the runs' orders apart from the others.
const domainParts = 0x70617274732d6f72 // "parts-or"

// NewLocalBlocks returns the order of epoch epoch of seed seed over the
// blocks that starts gives (as [NewBlocksAt] takes them, not copied), dealt
// to parts runs, each shuffled within windows of window of its blocks. It
// panics with a [*container.ArgError] when window or parts is below 1,
// starts is empty, starts[0] is not 0 or a start is below the one before.
func NewLocalBlocks(starts []int, window, parts int, seed uint64, epoch int) LocalBlocks {
	checkStarts("index.NewLocalBlocks", starts)
	container.CheckArg(window >= 1, "index.NewLocalBlocks", "window", window, ">= 1")
	container.CheckArg(parts >= 1, "index.NewLocalBlocks", "parts", parts, ">= 1")
	nb := len(starts) - 1
	l := LocalBlocks{
		all:    tableBlocks(starts, window, seed, epoch),
		parts:  parts,
		starts: starts,
		runs:   make([]Blocks, parts),
		// A run holds its blocks and at most one piece more (a block cut
		// at its end), and a table entry more than pieces.
		pieces: make([]int, 0, nb+2*parts),
		before: make([]int, 0, nb+2*parts),
	}
	l.Reset(seed, epoch)
	return l
}

// Reset makes l the order of epoch epoch of seed seed over the same blocks,
// window and parts, in place, reusing its tables. Copies of l share them:
// Reset an order no other goroutine reads.
func (l *LocalBlocks) Reset(seed uint64, epoch int) {
	l.all.Reset(seed, epoch)
	n, nb, window := l.all.n, l.all.nblocks, l.all.window
	l.pieces, l.before = l.pieces[:0], l.before[:0]
	for c := range l.parts {
		lo, hi := Chunk(n, l.parts, c)
		first := len(l.pieces)
		l.pieces = append(l.pieces, 0)
		if lo < hi {
			for q := l.all.slot(lo, 0, nb); q < nb && l.all.before[q] < hi; q++ {
				if end := min(l.all.before[q+1], hi); end > lo && end-lo > l.pieces[len(l.pieces)-1] {
					l.pieces = append(l.pieces, end-lo)
				}
			}
		}
		starts := l.pieces[first:len(l.pieces):len(l.pieces)]
		b0 := len(l.before)
		l.before = l.before[:b0+len(starts)] // within its capacity
		r := Blocks{n: hi - lo, window: window, nblocks: len(starts) - 1, starts: starts,
			before: l.before[b0:len(l.before):len(l.before)]}
		r.Reset(mix.Key(domainParts, seed, uint64(c)), epoch)
		l.runs[c] = r
	}
}

// N returns the number of positions.
func (l *LocalBlocks) N() int { return l.all.n }

// Parts returns the number of runs the order deals its positions to.
func (l *LocalBlocks) Parts() int { return l.parts }

// run returns the run and the position in it of position g of the epoch.
func (l *LocalBlocks) run(g int) (c, o int) {
	m := l.all.n / l.parts
	if g < l.parts*m {
		return g % l.parts, g / l.parts
	}
	return g - l.parts*m, m
}

// element returns the element at position s of the epoch's layout of
// blocks (before any shuffle within windows).
func (l *LocalBlocks) element(s int) int {
	q := l.all.slot(s, 0, l.all.nblocks)
	return l.starts[l.all.blocks.at(uint64(q))] + s - l.all.before[q]
}

// At returns the element at position g. It panics with a
// [*container.IndexError] when g is outside [0, n).
func (l *LocalBlocks) At(g int) int {
	container.CheckIndex("index.LocalBlocks.At", g, l.all.n)
	c, o := l.run(g)
	lo, _ := Chunk(l.all.n, l.parts, c)
	return l.element(lo + l.runs[c].At(o))
}

// Fill writes the elements at positions start, start+stride, ... into dst,
// len(dst) of them: dst[j] = At(start+j*stride). It panics with a
// [*container.IndexError] when a position is outside [0, n), and with a
// [*container.ArgError] when stride is below 1.
func (l *LocalBlocks) Fill(dst []int, start, stride int) {
	if len(dst) == 0 {
		return
	}
	container.CheckArg(stride >= 1, "index.LocalBlocks.Fill", "stride", stride, ">= 1")
	container.CheckIndex("index.LocalBlocks.Fill", start, l.all.n)
	container.CheckIndex("index.LocalBlocks.Fill", start+(len(dst)-1)*stride, l.all.n)
	for j := range dst {
		c, o := l.run(start + j*stride)
		lo, _ := Chunk(l.all.n, l.parts, c)
		dst[j] = l.element(lo + l.runs[c].At(o))
	}
}

// Pos returns the position of element x, the inverse of At. It panics with a
// [*container.IndexError] when x is outside [0, n).
func (l *LocalBlocks) Pos(x int) int {
	n := l.all.n
	container.CheckIndex("index.LocalBlocks.Pos", x, n)
	k := l.all.blockOf(x)
	q := l.all.blocks.Pos(k)
	s := l.all.before[q] + x - l.starts[k] // its place in the layout
	m, r := n/l.parts, n%l.parts
	var c int
	if s < r*(m+1) {
		c = s / (m + 1)
	} else {
		c = r + (s-r*(m+1))/m
	}
	lo, _ := Chunk(n, l.parts, c)
	o := l.runs[c].Pos(s - lo)
	if o < m {
		return o*l.parts + c
	}
	return l.parts*m + c
}
