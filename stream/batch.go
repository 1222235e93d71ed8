package stream

import (
	"errors"
	"fmt"
	"iter"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/internal/state"
)

// ErrBatchSize is wrapped by the error [BatchSizes] yields when its size scheme
// asks for a batch of fewer than one value.
var ErrBatchSize = errors.New("batch size below 1")

// Batches returns a [Stream] of batches of size consecutive values of s: Fuel's
// Batching, and what a PaddlePaddle trainer does with a reader of single
// entries. When the length of s is not a multiple of size, tail says whether
// the short last batch is yielded (index.Keep) or not (index.Drop); a stream of
// unknown length cannot pad from its start or roll over. Each batch is a newly
// allocated slice (len and cap size, less for a kept tail) that the consumer
// owns. An error of s ends the stream at once; the values of the unfinished
// batch are not yielded. A batch is made whole within one step, so Batches
// holds no state of its own between steps: its saved state is its source's.
//
// Batches panics with a [*container.ArgError] if size < 1 or tail is neither
// index.Keep nor index.Drop.
func Batches[T any](s Stream[T], size int, tail index.Tail) Stream[[]T] {
	const op = "stream.Batches"
	s.check(op)
	container.CheckArg(size >= 1, op, "batch size", size, ">= 1")
	checkTail(op, tail)
	return Stream[[]T]{batchNode[T]{src: s.n, size: size, tail: tail}}
}

// BatchSizes returns a [Stream] of batches of s whose sizes come from a size
// scheme, such as slices.Values([]int{4, 4, 2}): for each size k it yields the
// next k values of s
// (Fuel's DataStream over an iterable dataset with a ConstantScheme). The
// stream ends when sizes ends (without reading s further) or when s ends; in
// the second case tail says whether a short last batch is yielded. A size below
// 1 ends the stream with an error wrapping [ErrBatchSize]. Batches are newly
// allocated and owned by the consumer. Its state is the number of batches made;
// it resumes by ranging over sizes again and skipping that many, so sizes must
// yield the same sizes on every range.
//
// BatchSizes panics with a [*container.ArgError] if sizes is nil or tail is
// neither index.Keep nor index.Drop.
func BatchSizes[T any](s Stream[T], sizes iter.Seq[int], tail index.Tail) Stream[[]T] {
	const op = "stream.BatchSizes"
	s.check(op)
	container.CheckArg(sizes != nil, op, "size scheme", "nil", "an iter.Seq")
	checkTail(op, tail)
	return Stream[[]T]{batchNode[T]{src: s.n, sizes: sizes, tail: tail}}
}

// checkTail accepts the tails a stream can honour: a stream of unknown length
// can keep or drop its remainder, but cannot pad it from the start of an epoch
// it does not hold, nor roll it over into a next pass.
func checkTail(op string, t index.Tail) {
	container.CheckArg(t == index.Keep || t == index.Drop, op, "tail", t, "index.Keep or index.Drop")
}

type batchNode[T any] struct {
	src   node[T]
	size  int           // Batches
	sizes iter.Seq[int] // BatchSizes
	tail  index.Tail
}

func (n batchNode[T]) ordered() bool            { return n.src.ordered() }
func (n batchNode[T]) iter(e int) iterator[[]T] { return &batchIter[T]{n: n, src: n.src.iter(e)} }

type batchIter[T any] struct {
	n     batchNode[T]
	src   iterator[T]
	made  int // batches made (BatchSizes)
	pull  func() (int, bool)
	stop  func()
	ended bool
}

func (it *batchIter[T]) kind() string {
	if it.n.sizes != nil {
		return "batch-sizes"
	}
	return "batches"
}

// size returns the size of the next batch, or false when there is none.
func (it *batchIter[T]) size() (int, error, bool) {
	if it.n.sizes == nil {
		return it.n.size, nil, true
	}
	if it.pull == nil {
		it.pull, it.stop = iter.Pull(it.n.sizes)
	}
	k, ok := it.pull()
	if !ok {
		return 0, nil, false
	}
	if k < 1 {
		return 0, fmt.Errorf("stream.BatchSizes: request %d asks for %d values: %w", it.made, k, ErrBatchSize), false
	}
	return k, nil, true
}

func (it *batchIter[T]) next() ([]T, error, bool) {
	if it.ended {
		return nil, nil, false
	}
	size, err, ok := it.size()
	if !ok {
		it.ended = true
		return nil, err, false
	}
	var b []T
	for len(b) < size {
		v, err, ok := it.src.next()
		if err != nil {
			return nil, err, false
		}
		if !ok {
			it.ended = true
			if len(b) == 0 || it.n.tail == index.Drop {
				return nil, nil, false
			}
			it.made++
			return b[:len(b):len(b)], nil, true
		}
		if b == nil {
			b = make([]T, 0, size)
		}
		b = append(b, v)
	}
	it.made++
	return b, nil, true
}

func (it *batchIter[T]) save(w *state.Writer) {
	w.String(it.kind())
	w.Int(it.n.size)
	w.Int(int(it.n.tail))
	w.Uint(uint64(it.made))
	w.Bool(it.ended)
	it.src.save(w)
}

func (it *batchIter[T]) load(r *state.Reader) {
	r.Enter(it.kind())
	r.Setting("batch size", it.n.size)
	r.Setting("tail", int(it.n.tail))
	made, ended := r.Count(), r.Bool()
	if r.Err() != nil {
		return
	}
	if it.n.sizes != nil {
		it.pull, it.stop = iter.Pull(it.n.sizes)
		for k := range made {
			if _, ok := it.pull(); !ok {
				r.Fail("the size scheme ended after %d sizes; the state is after %d", k, made)
				return
			}
		}
	}
	it.made, it.ended = made, ended
	it.src.load(r)
}

func (it *batchIter[T]) pause() { it.src.pause() }

func (it *batchIter[T]) close() {
	if it.stop != nil {
		it.stop()
		it.pull, it.stop = nil, nil
	}
	it.src.close()
}

// Unbatch returns a [Stream] of the values of each batch of s in order: Fuel's
// Unpack, the inverse of [Batches]. Its state holds the values of the current batch not yet
// yielded (encoded with encoding/gob): at most one batch.
func Unbatch[T any](s Stream[[]T]) Stream[T] {
	s.check("stream.Unbatch")
	return Stream[T]{unbatchNode[T]{s.n}}
}

type unbatchNode[T any] struct{ src node[[]T] }

func (n unbatchNode[T]) ordered() bool          { return n.src.ordered() }
func (n unbatchNode[T]) iter(e int) iterator[T] { return &unbatchIter[T]{src: n.src.iter(e)} }

type unbatchIter[T any] struct {
	src  iterator[[]T]
	rest []T
}

func (it *unbatchIter[T]) next() (T, error, bool) {
	for len(it.rest) == 0 {
		b, err, ok := it.src.next()
		if err != nil || !ok {
			var zero T
			return zero, err, false
		}
		it.rest = b
	}
	v := it.rest[0]
	it.rest = it.rest[1:]
	return v, nil, true
}

func (it *unbatchIter[T]) save(w *state.Writer) {
	w.String("unbatch")
	state.SaveValues(w, "stream.Iter.MarshalBinary", it.rest)
	it.src.save(w)
}

func (it *unbatchIter[T]) load(r *state.Reader) {
	r.Enter("unbatch")
	it.rest = state.LoadValues[T](r, len(r.Left()))
	it.src.load(r)
}

func (it *unbatchIter[T]) pause() { it.src.pause() }
func (it *unbatchIter[T]) close() { it.src.close() }
