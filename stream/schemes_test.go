package stream_test

import (
	"iter"
	"math/rand/v2"
	"slices"

	"github.com/obskit/obskit/index"
)

// The iteration schemes of Fuel the tests drive data streams with, as
// iterators (sizes, Fuel's ConstantScheme, is in batch_test.go).

// sequential returns the positions 0..n-1 (Fuel's SequentialExampleScheme).
func sequential(n int) iter.Seq[int] { return slices.Values(seq(n)) }

// inBatches returns the index lists 0..size-1, size..2*size-1, ... of n
// positions, the short last one kept or dropped (Fuel's SequentialScheme).
func inBatches(n, size int, tail index.Tail) iter.Seq[[]int] {
	if tail == index.Drop {
		n = n / size * size
	}
	return slices.Chunk(seq(n), size)
}

// shuffled returns a permutation of 0..n-1 drawn from rng anew on every
// range (Fuel's ShuffledExampleScheme).
func shuffled(n int, rng *rand.Rand) iter.Seq[int] {
	return func(yield func(int) bool) {
		for _, i := range rng.Perm(n) {
			if !yield(i) {
				return
			}
		}
	}
}

// shuffledBatches returns the index lists of inBatches over a permutation of
// 0..n-1 drawn from rng anew on every range (Fuel's ShuffledScheme), the
// short last one kept.
func shuffledBatches(n, size int, rng *rand.Rand) iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		for b := range slices.Chunk(rng.Perm(n), size) {
			if !yield(b) {
				return
			}
		}
	}
}
