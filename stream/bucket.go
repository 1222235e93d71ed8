package stream

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
)

// ErrLength is wrapped by the error [Bucket] yields when its length function
// returns a negative length.
var ErrLength = errors.New("negative length")

// Bucket returns a [Reader] of batches of values of similar lengths: tf.data's
// bucket_by_sequence_length. The length of a value (length(v), say the number of
// tokens of a sentence) picks its bucket: bucket 0 holds lengths below
// boundaries[0], bucket i lengths in [boundaries[i-1], boundaries[i]), and the
// last bucket lengths from boundaries[len(boundaries)-1] up. Bucket i yields a
// batch as soon as it holds sizes[i] values, so short sequences can come in
// larger batches than long ones. When r ends, tail says whether the buckets that
// are not full are yielded (in bucket order) or dropped. Each batch is newly
// allocated and owned by the consumer; values keep their order of arrival within
// a batch.
//
// To pad within the bucket, as bucket_by_sequence_length does, compose with
// [Mask]: stream.Mask(stream.Bucket(r, ...), 0) pads each batch to its longest
// sequence, which is shorter than the bucket's upper boundary.
//
// A negative length ends the stream with an error wrapping [ErrLength]. Bucket
// copies boundaries and sizes. It panics if r or length is nil, if boundaries
// are not strictly increasing positive numbers, if len(sizes) is not
// len(boundaries)+1, if a size is below 1, or if tail is unknown.
func Bucket[T any](r Reader[T], length func(T) int, boundaries, sizes []int, tail index.Tail) Reader[[]T] {
	const op = "stream.Bucket"
	mustReader(op, r)
	mustFunc(op, "length function", length == nil)
	mustTail(op, tail)
	for i, b := range boundaries {
		if b < 1 || i > 0 && b <= boundaries[i-1] {
			panic(&container.ArgError{Op: op, Arg: "boundaries", Value: boundaries, Want: fmt.Sprintf("strictly increasing positive lengths (fails at %d)", i)})
		}
	}
	if len(sizes) != len(boundaries)+1 {
		panic(&container.ArgError{Op: op, Arg: "batch sizes", Value: sizes, Want: fmt.Sprintf("%d sizes, one per bucket of %d boundaries", len(boundaries)+1, len(boundaries))})
	}
	for i, s := range sizes {
		if s < 1 {
			panic(&container.ArgError{Op: op, Arg: fmt.Sprintf("batch size of bucket %d", i), Value: s, Want: ">= 1"})
		}
	}
	boundaries, sizes = slices.Clone(boundaries), slices.Clone(sizes)
	return func(yield func([]T, error) bool) {
		buckets := make([][]T, len(sizes))
		n := 0
		for v, err := range r {
			if err != nil {
				yield(nil, err)
				return
			}
			l := length(v)
			if l < 0 {
				yield(nil, fmt.Errorf("%s: length %d for value %d of the stream: %w", op, l, n, ErrLength))
				return
			}
			n++
			k := sort.SearchInts(boundaries, l+1) // the number of boundaries <= l
			if buckets[k] == nil {
				buckets[k] = make([]T, 0, sizes[k])
			}
			if buckets[k] = append(buckets[k], v); len(buckets[k]) < sizes[k] {
				continue
			}
			full := buckets[k]
			buckets[k] = nil
			if !yield(full, nil) {
				return
			}
		}
		if tail == index.Drop {
			return
		}
		for _, b := range buckets {
			if len(b) > 0 && !yield(b[:len(b):len(b)], nil) {
				return
			}
		}
	}
}
