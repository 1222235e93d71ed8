package index

import (
	"iter"
	"math/rand/v2"

	"github.com/obskit/obskit/container"
)

// Sequential returns the positions 0, 1, ..., n-1 (Fuel's
// SequentialExampleScheme). It panics with a [*container.ArgError] when n is
// negative.
func Sequential(n int) iter.Seq[int] {
	container.CheckArg(n >= 0, "index.Sequential", "number of positions", n, ">= 0")
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

// Shuffled returns a permutation of 0..n-1 drawn from rng (by [PermInto]) at the
// start of every pass (Fuel's ShuffledExampleScheme). It panics with a
// [*container.ArgError] when n is negative or rng is nil.
func Shuffled(n int, rng *rand.Rand) iter.Seq[int] {
	container.CheckArg(n >= 0, "index.Shuffled", "number of positions", n, ">= 0")
	container.CheckArg(rng != nil, "index.Shuffled", "rng", rng, "a *rand.Rand")
	return func(yield func(int) bool) {
		p := make([]int, n)
		PermInto(p, rng)
		for _, i := range p {
			if !yield(i) {
				return
			}
		}
	}
}

// Batches returns the index lists of epoch 0 of [NewSteps](n, size, 1, false,
// t) in data order (Fuel's SequentialScheme): 0..size-1, size..2*size-1, ...,
// with the last batch as t says ([RollOver] acts as [Drop] within one pass).
// Each list is a fresh slice the receiver may keep. It panics as NewSteps does.
func Batches(n, size int, t Tail) iter.Seq[[]int] {
	s := onePass(n, size, t)
	return func(yield func([]int) bool) {
		batchesOf(s, func(pos int) int { return pos }, yield)
	}
}

// ShuffledBatches returns the index lists of [Batches] over a permutation of
// 0..n-1 drawn from rng at the start of every pass (Fuel's ShuffledScheme). It
// panics as [NewSteps] does, and with a [*container.ArgError] when rng is nil.
func ShuffledBatches(n, size int, t Tail, rng *rand.Rand) iter.Seq[[]int] {
	s := onePass(n, size, t)
	container.CheckArg(rng != nil, "index.ShuffledBatches", "rng", rng, "a *rand.Rand")
	return func(yield func([]int) bool) {
		perm := make([]int, n)
		PermInto(perm, rng)
		batchesOf(s, func(pos int) int { return perm[pos] }, yield)
	}
}

// Batches returns the index lists of [Batches](c.N(), size, t) over the
// permutation c: those of [ShuffledBatches] with the positions computed by the
// cipher instead of drawn into an array, so a pass holds one list at a time
// and no permutation. Each list is a fresh slice the receiver may keep. A
// stream over a container takes one epoch's, as in
//
//	stream.Gather(x, index.NewCipher(x.Nobs(), seed, e).Batches(128, index.Drop))
//
// It panics as [NewSteps] does.
func (c *Cipher) Batches(size int, t Tail) iter.Seq[[]int] {
	s := onePass(c.N(), size, t)
	cc := *c
	return func(yield func([]int) bool) {
		batchesOf(s, func(pos int) int { return int(cc.at(uint64(pos))) }, yield)
	}
}

// onePass returns the schedule of one pass of n positions in batches of size
// with tail t: one part, and RollOver as Drop, since a pass has no next epoch.
func onePass(n, size int, t Tail) Steps {
	if t == RollOver {
		t = Drop
	}
	return NewSteps(n, size, 1, false, t)
}

// batchesOf yields the index lists of epoch 0 of s, one part, each position
// mapped by order.
func batchesOf(s Steps, order func(pos int) int, yield func([]int) bool) {
	for k := range s.Len(0) {
		idx, _ := s.Batch(nil, 0, k, 0)
		for j, pos := range idx { // epoch 0: a stream position is its position
			idx[j] = order(pos)
		}
		if !yield(idx) {
			return
		}
	}
}

// Sizes returns batch sizes alone, size, size, ..., and then the remainder,
// adding up to total (Fuel's ConstantScheme): the requests of a stream that
// cannot be indexed, such as a file read line by line. It panics with a
// [*container.ArgError] when size is below 1 or total is negative.
func Sizes(size, total int) iter.Seq[int] {
	container.CheckArg(size >= 1, "index.Sizes", "batch size", size, ">= 1")
	container.CheckArg(total >= 0, "index.Sizes", "total", total, ">= 0")
	return func(yield func(int) bool) {
		for left := total; left > 0; left -= size {
			if !yield(min(size, left)) {
				return
			}
		}
	}
}
