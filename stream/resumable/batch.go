package resumable

import (
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
)

// Batches returns a [Stream] of batches of size consecutive values of s, as
// stream.Batches: each a newly allocated slice the consumer owns, the short last
// batch kept or dropped as tail says (index.Keep or index.Drop). A batch is made
// whole within one step, so Batches holds no state of its own between steps: its
// saved state is its source's. Batches panics if size < 1 or tail is neither
// index.Keep nor index.Drop.
func Batches[T any](s Stream[T], size int, tail index.Tail) Stream[[]T] {
	s.check("resumable.Batches")
	container.CheckArg(size >= 1, "resumable.Batches", "batch size", size, ">= 1")
	container.CheckArg(tail == index.Keep || tail == index.Drop, "resumable.Batches", "tail", tail, "index.Keep or index.Drop")
	return Stream[[]T]{batchNode[T]{s.n, size, tail}}
}

type batchNode[T any] struct {
	src  node[T]
	size int
	tail index.Tail
}

func (n batchNode[T]) pass(e int) iterator[[]T] { return &batchIter[T]{n: n, src: n.src.pass(e)} }

type batchIter[T any] struct {
	n   batchNode[T]
	src iterator[T]
}

func (it *batchIter[T]) next() ([]T, error, bool) {
	var b []T
	for len(b) < it.n.size {
		v, err, ok := it.src.next()
		if err != nil {
			return nil, err, false
		}
		if !ok {
			if len(b) == 0 || it.n.tail == index.Drop {
				return nil, nil, false
			}
			return b[:len(b):len(b)], nil, true
		}
		if b == nil {
			b = make([]T, 0, it.n.size)
		}
		b = append(b, v)
	}
	return b, nil, true
}

func (it *batchIter[T]) save(w *writer) {
	w.str("batches")
	w.int(it.n.size)
	w.int(int(it.n.tail))
	it.src.save(w)
}

func (it *batchIter[T]) load(r *reader) {
	r.enter("batches")
	r.setting("batch size", it.n.size)
	r.setting("tail", int(it.n.tail))
	it.src.load(r)
}

func (it *batchIter[T]) close() { it.src.close() }

// Unbatch returns a [Stream] of the values of each batch of s in order, as
// stream.Unbatch. Its state holds the values of the current batch not yet
// yielded (encoded with encoding/gob): at most one batch.
func Unbatch[T any](s Stream[[]T]) Stream[T] {
	s.check("resumable.Unbatch")
	return Stream[T]{unbatchNode[T]{s.n}}
}

type unbatchNode[T any] struct{ src node[[]T] }

func (n unbatchNode[T]) pass(e int) iterator[T] { return &unbatchIter[T]{src: n.src.pass(e)} }

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

func (it *unbatchIter[T]) save(w *writer) {
	w.str("unbatch")
	saveValues(w, it.rest)
	it.src.save(w)
}

func (it *unbatchIter[T]) load(r *reader) {
	r.enter("unbatch")
	it.rest = loadValues[T](r, len(r.b))
	it.src.load(r)
}

func (it *unbatchIter[T]) close() { it.src.close() }
