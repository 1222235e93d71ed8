package stream

import (
	"iter"

	"github.com/obskit/obskit/container"
)

// A data stream over a container is Fuel's DataStream: the container (Fuel's
// dataset) is stateless, and the stream holds the state of a pass (its position
// in the scheme, its buffer). Any number of streams may read one container at
// once, on any goroutines, since containers are safe for concurrent readers.

// Examples returns a [Reader] of the observations of c at the indices of an
// example scheme (such as index.Shuffled), one c.GetObs call per index: Fuel's
// DataStream with an example scheme. Every pass ranges over indices again. An
// index out of range panics in c.GetObs with a *container.IndexError, as a bad
// index does everywhere in obskit. Examples panics with a [*container.ArgError]
// if c or indices is nil.
func Examples[T any](c container.Container[T], indices iter.Seq[int]) Reader[T] {
	mustFunc("stream.Examples", "container", c == nil)
	mustFunc("stream.Examples", "example scheme", indices == nil)
	return func(yield func(T, error) bool) {
		for i := range indices {
			if !yield(c.GetObs(i), nil) {
				return
			}
		}
	}
}

// Gather returns a [Reader] of the batches of c at the index lists of a batch
// scheme (such as index.ShuffledBatches): Fuel's DataStream with a batch scheme.
// Each batch is gathered by c.GetObsInto, through c's own fast path, into newly
// allocated memory that the consumer owns, so that any decorator may keep it (a
// stream hands values on; a loop that reuses one buffer is package eachobs).
//
// The container must be Batched; a type with only Nobs and GetObs goes in
// through container.AsBatched. An index out of range panics in c.GetObsInto.
// Gather panics with a [*container.ArgError] if c or requests is nil.
func Gather[T, B any](c container.Batched[T, B], requests iter.Seq[[]int]) Reader[B] {
	mustFunc("stream.Gather", "container", c == nil)
	mustFunc("stream.Gather", "batch scheme", requests == nil)
	return func(yield func(B, error) bool) {
		for idx := range requests {
			var zero B
			if !yield(c.GetObsInto(zero, idx), nil) {
				return
			}
		}
	}
}
