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

// Batches returns the index lists of one epoch of [NewPlan](n, size, t) in data
// order (Fuel's SequentialScheme): 0..size-1, size..2*size-1, ..., with the last
// batch as t says ([RollOver] acts as [Drop] within one pass). Each list is a
// fresh slice the receiver may keep. It panics as [NewPlan] does.
func Batches(n, size int, t Tail) iter.Seq[[]int] {
	p := NewPlan(n, size, t)
	return func(yield func([]int) bool) {
		batches(p, nil, yield)
	}
}

// ShuffledBatches returns the index lists of [Batches] over a permutation of
// 0..n-1 drawn from rng at the start of every pass (Fuel's ShuffledScheme). It
// panics as [NewPlan] does, and with a [*container.ArgError] when rng is nil.
func ShuffledBatches(n, size int, t Tail, rng *rand.Rand) iter.Seq[[]int] {
	p := NewPlan(n, size, t)
	container.CheckArg(rng != nil, "index.ShuffledBatches", "rng", rng, "a *rand.Rand")
	return func(yield func([]int) bool) {
		perm := make([]int, n)
		PermInto(perm, rng)
		batches(p, perm, yield)
	}
}

func batches(p Plan, perm []int, yield func([]int) bool) {
	batchesOf(p, func(_, pos int) int {
		if perm != nil {
			return perm[pos]
		}
		return pos
	}, yield)
}

// Batches returns the index lists of [Batches](c.N(), size, t) over the
// permutation c: those of [ShuffledBatches] with the positions computed by the
// cipher instead of drawn into an array, so a pass holds one list at a time
// and no permutation. Each list is a fresh slice the receiver may keep. A
// stream over a container takes one epoch's, as in
//
//	stream.Gather(x, index.NewCipher(x.Nobs(), seed, e).Batches(128, index.Drop))
//
// It panics as [NewPlan] does.
func (c *Cipher) Batches(size int, t Tail) iter.Seq[[]int] {
	p := NewPlan(c.N(), size, t)
	cc := *c
	return func(yield func([]int) bool) {
		batchesOf(p, func(_, pos int) int { return cc.At(pos) }, yield)
	}
}

// batchesOf yields the index lists of the first epoch of p in order.
func batchesOf(p Plan, order func(epoch, pos int) int, yield func([]int) bool) {
	if p.tail == RollOver {
		p.tail = Drop
	}
	for k := range p.len(0) {
		idx, _ := p.Indices(nil, 0, k, order)
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
