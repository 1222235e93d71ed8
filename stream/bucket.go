package stream

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/internal/state"
)

// ErrLength is wrapped by the error [Bucket] yields when its length function
// returns a negative length.
var ErrLength = errors.New("negative length")

// Bucket returns a [Stream] of batches of values of similar lengths: tf.data's
// bucket_by_sequence_length. The length of a value (length(v), say the number of
// tokens of a sentence) picks its bucket: bucket 0 holds lengths below
// boundaries[0], bucket i lengths in [boundaries[i-1], boundaries[i]), and the
// last bucket lengths from boundaries[len(boundaries)-1] up. Bucket i yields a
// batch as soon as it holds sizes[i] values, so short sequences can come in
// larger batches than long ones. When s ends, tail says whether the buckets that
// are not full are yielded (in bucket order) or dropped. Each batch is newly
// allocated and owned by the consumer; values keep their order of arrival within
// a batch. Its state holds the values in the buckets (at most the sum of sizes
// less one per bucket, encoded with encoding/gob).
//
// To pad within the bucket, as bucket_by_sequence_length does, compose with
// [Mask]: stream.Mask(stream.Bucket(s, ...), 0) pads each batch to its longest
// sequence, which is shorter than the bucket's upper boundary.
//
// A negative length ends the stream with an error wrapping [ErrLength]. Bucket
// copies boundaries and sizes. It panics with a [*container.ArgError] if length
// is nil, if boundaries are not strictly increasing positive numbers, if
// len(sizes) is not len(boundaries)+1, if a size is below 1, or if tail is
// neither index.Keep nor index.Drop.
func Bucket[T any](s Stream[T], length func(T) int, boundaries, sizes []int, tail index.Tail) Stream[[]T] {
	const op = "stream.Bucket"
	s.check(op)
	container.CheckArg(length != nil, op, "length function", "nil", "a function")
	checkTail(op, tail)
	for i, b := range boundaries {
		if b < 1 || i > 0 && b <= boundaries[i-1] {
			panic(&container.ArgError{Op: op, Arg: "boundaries", Value: boundaries, Want: fmt.Sprintf("strictly increasing positive lengths (fails at %d)", i)})
		}
	}
	if len(sizes) != len(boundaries)+1 {
		panic(&container.ArgError{Op: op, Arg: "batch sizes", Value: sizes, Want: fmt.Sprintf("%d sizes, one per bucket of %d boundaries", len(boundaries)+1, len(boundaries))})
	}
	for i, sz := range sizes {
		if sz < 1 {
			panic(&container.ArgError{Op: op, Arg: fmt.Sprintf("batch size of bucket %d", i), Value: sz, Want: ">= 1"})
		}
	}
	return Stream[[]T]{bucketNode[T]{s.n, length, slices.Clone(boundaries), slices.Clone(sizes), tail}}
}

type bucketNode[T any] struct {
	src               node[T]
	length            func(T) int
	boundaries, sizes []int
	tail              index.Tail
}

func (n bucketNode[T]) ordered() bool { return n.src.ordered() }
func (n bucketNode[T]) iter(e int) iterator[[]T] {
	return &bucketIter[T]{n: n, src: n.src.iter(e), buckets: make([][]T, len(n.sizes))}
}

type bucketIter[T any] struct {
	n       bucketNode[T]
	src     iterator[T]
	buckets [][]T
	read    int  // values read from the source
	ended   bool // the source has ended: the rest of the buckets are yielded
	flush   int  // the next bucket to yield after the end
}

func (it *bucketIter[T]) next() ([]T, error, bool) {
	for !it.ended {
		v, err, ok := it.src.next()
		if err != nil {
			return nil, err, false
		}
		if !ok {
			it.ended = true
			break
		}
		l := it.n.length(v)
		if l < 0 {
			return nil, fmt.Errorf("stream.Bucket: length %d for value %d of the stream: %w", l, it.read, ErrLength), false
		}
		it.read++
		k := sort.SearchInts(it.n.boundaries, l+1) // the number of boundaries <= l
		if it.buckets[k] == nil {
			it.buckets[k] = make([]T, 0, it.n.sizes[k])
		}
		if it.buckets[k] = append(it.buckets[k], v); len(it.buckets[k]) == it.n.sizes[k] {
			full := it.buckets[k]
			it.buckets[k] = nil
			return full, nil, true
		}
	}
	for it.n.tail == index.Keep && it.flush < len(it.buckets) {
		b := it.buckets[it.flush]
		it.buckets[it.flush] = nil
		it.flush++
		if len(b) > 0 {
			return b[:len(b):len(b)], nil, true
		}
	}
	return nil, nil, false
}

func (it *bucketIter[T]) save(w *state.Writer) {
	w.String("bucket")
	w.Int(len(it.n.sizes))
	w.Int(int(it.n.tail))
	w.Uint(uint64(it.read))
	w.Bool(it.ended)
	w.Uint(uint64(it.flush))
	for _, b := range it.buckets {
		state.SaveValues(w, "stream.Iter.MarshalBinary", b)
	}
	it.src.save(w)
}

func (it *bucketIter[T]) load(r *state.Reader) {
	r.Enter("bucket")
	r.Setting("number of buckets", len(it.n.sizes))
	r.Setting("tail", int(it.n.tail))
	it.read, it.ended, it.flush = r.Count(), r.Bool(), r.Count()
	if r.Err() == nil && it.flush > len(it.buckets) {
		r.Fail("bucket %d of %d", it.flush, len(it.buckets))
	}
	for k := range it.buckets {
		if b := state.LoadValues[T](r, it.n.sizes[k]-1); len(b) > 0 {
			it.buckets[k] = b
		}
	}
	it.src.load(r)
}

func (it *bucketIter[T]) pause() { it.src.pause() }
func (it *bucketIter[T]) close() { it.src.close() }
