package stream

import (
	"errors"
	"fmt"
	"iter"

	"github.com/obskit/obskit/index"
)

// ErrBatchSize is wrapped by the error [BatchSizes] yields when its size scheme
// asks for a batch of fewer than one value.
var ErrBatchSize = errors.New("batch size below 1")

// Batches returns a [Reader] of batches of size consecutive values of r: Fuel's
// Batching, and what a PaddlePaddle trainer does with a reader of single entries.
// When the length of r is not a multiple of size, tail says whether the short last
// batch is yielded (index.Keep) or not (index.Drop); a stream of unknown length
// cannot pad from its start or roll over. Each batch is a newly allocated slice
// (len and cap size, less for a kept tail) that the consumer owns. An error of r
// ends the stream at once; the values of the unfinished batch are not yielded.
//
// Batches panics with a [*container.ArgError] if r is nil, size < 1, or tail is
// neither index.Keep nor index.Drop.
func Batches[T any](r Reader[T], size int, tail index.Tail) Reader[[]T] {
	mustReader("stream.Batches", r)
	mustAtLeast("stream.Batches", "batch size", size, 1)
	mustTail("stream.Batches", tail)
	return func(yield func([]T, error) bool) {
		batches(r, func() (int, bool) { return size, true }, tail, yield)
	}
}

// BatchSizes returns a [Reader] of batches of r whose sizes come from a size
// scheme such as index.Sizes: for each size k it yields the next k values of
// r (Fuel's DataStream over an iterable dataset with a ConstantScheme). The
// stream ends when sizes ends (without reading r further) or when r ends; in the
// second case tail says whether a short last batch is yielded. A size below 1
// ends the stream with an error wrapping [ErrBatchSize]. Batches are newly
// allocated and owned by the consumer.
//
// BatchSizes panics with a [*container.ArgError] if r or sizes is nil or tail is
// neither index.Keep nor index.Drop.
func BatchSizes[T any](r Reader[T], sizes iter.Seq[int], tail index.Tail) Reader[[]T] {
	mustReader("stream.BatchSizes", r)
	mustFunc("stream.BatchSizes", "size scheme", sizes == nil)
	mustTail("stream.BatchSizes", tail)
	return func(yield func([]T, error) bool) {
		next, stop := iter.Pull(sizes)
		defer stop()
		batches(r, next, tail, yield)
	}
}

// batches is the loop behind Batches and BatchSizes: next returns the size of the
// next batch, or false when there are no more batches to make.
func batches[T any](r Reader[T], next func() (int, bool), tail index.Tail, yield func([]T, error) bool) {
	request := 0
	size, ok := next()
	if !ok {
		return
	}
	if size < 1 {
		yield(nil, badSize(request, size))
		return
	}
	batch := make([]T, 0, size)
	for v, err := range r {
		if err != nil {
			yield(nil, err)
			return
		}
		if batch = append(batch, v); len(batch) < size {
			continue
		}
		if !yield(batch, nil) {
			return
		}
		request++
		if size, ok = next(); !ok {
			return
		}
		if size < 1 {
			yield(nil, badSize(request, size))
			return
		}
		batch = make([]T, 0, size)
	}
	if len(batch) > 0 && tail == index.Keep {
		yield(batch[:len(batch):len(batch)], nil)
	}
}

func badSize(request, size int) error {
	return fmt.Errorf("stream.BatchSizes: request %d asks for %d values: %w", request, size, ErrBatchSize)
}

// Unbatch returns a [Reader] of the values of each batch of r, in order: Fuel's
// Unpack, the inverse of [Batches]. Unbatch panics if r is nil.
func Unbatch[T any](r Reader[[]T]) Reader[T] {
	mustReader("stream.Unbatch", r)
	return func(yield func(T, error) bool) {
		for b, err := range r {
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, v := range b {
				if !yield(v, nil) {
					return
				}
			}
		}
	}
}
