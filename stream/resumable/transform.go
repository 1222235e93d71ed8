package resumable

import (
	"github.com/obskit/obskit/container"
)

// Map returns a [Stream] of f applied to each value of s, as stream.Map. It
// holds no state of its own. Map panics if f is nil.
func Map[T, U any](s Stream[T], f func(T) U) Stream[U] {
	s.check("resumable.Map")
	container.CheckArg(f != nil, "resumable.Map", "function", "nil", "a function")
	return MapErr(s, func(v T) (U, error) { return f(v), nil })
}

// MapErr is [Map] for a function that can fail: the first error f returns ends
// the stream, as stream.MapErr. MapErr panics if f is nil.
func MapErr[T, U any](s Stream[T], f func(T) (U, error)) Stream[U] {
	s.check("resumable.MapErr")
	container.CheckArg(f != nil, "resumable.MapErr", "function", "nil", "a function")
	return Stream[U]{mapNode[T, U]{s.n, f}}
}

type mapNode[T, U any] struct {
	src node[T]
	f   func(T) (U, error)
}

func (n mapNode[T, U]) pass(e int) iterator[U] { return &mapIter[T, U]{n.src.pass(e), n.f} }

type mapIter[T, U any] struct {
	src iterator[T]
	f   func(T) (U, error)
}

func (it *mapIter[T, U]) next() (U, error, bool) {
	var zero U
	v, err, ok := it.src.next()
	if err != nil || !ok {
		return zero, err, false
	}
	u, err := it.f(v)
	if err != nil {
		return zero, err, false
	}
	return u, nil, true
}

func (it *mapIter[T, U]) save(w *writer) { w.str("map"); it.src.save(w) }
func (it *mapIter[T, U]) load(r *reader) { r.enter("map"); it.src.load(r) }
func (it *mapIter[T, U]) close()         { it.src.close() }

// Filter returns a [Stream] of the values of s for which keep returns true, as
// stream.Filter. It holds no state of its own. Filter panics if keep is nil.
func Filter[T any](s Stream[T], keep func(T) bool) Stream[T] {
	s.check("resumable.Filter")
	container.CheckArg(keep != nil, "resumable.Filter", "predicate", "nil", "a function")
	return Stream[T]{filterNode[T]{s.n, keep}}
}

type filterNode[T any] struct {
	src  node[T]
	keep func(T) bool
}

func (n filterNode[T]) pass(e int) iterator[T] { return &filterIter[T]{n.src.pass(e), n.keep} }

type filterIter[T any] struct {
	src  iterator[T]
	keep func(T) bool
}

func (it *filterIter[T]) next() (T, error, bool) {
	for {
		v, err, ok := it.src.next()
		if err != nil || !ok || it.keep(v) {
			return v, err, ok
		}
	}
}

func (it *filterIter[T]) save(w *writer) { w.str("filter"); it.src.save(w) }
func (it *filterIter[T]) load(r *reader) { r.enter("filter"); it.src.load(r) }
func (it *filterIter[T]) close()         { it.src.close() }

// Take returns a [Stream] of the first n values of s, as stream.Take. Its state
// is the count taken. Take panics if n < 0.
func Take[T any](s Stream[T], n int) Stream[T] {
	s.check("resumable.Take")
	container.CheckArg(n >= 0, "resumable.Take", "count", n, ">= 0")
	return Stream[T]{takeNode[T]{s.n, n}}
}

type takeNode[T any] struct {
	src node[T]
	n   int
}

func (n takeNode[T]) pass(e int) iterator[T] { return &takeIter[T]{src: n.src.pass(e), n: n.n} }

type takeIter[T any] struct {
	src     iterator[T]
	n, done int
}

func (it *takeIter[T]) next() (T, error, bool) {
	if it.done == it.n {
		var zero T
		return zero, nil, false
	}
	v, err, ok := it.src.next()
	if ok {
		it.done++
	}
	return v, err, ok
}

func (it *takeIter[T]) save(w *writer) {
	w.str("take")
	w.int(it.n)
	w.uint(uint64(it.done))
	it.src.save(w)
}
func (it *takeIter[T]) load(r *reader) {
	r.enter("take")
	r.setting("count", it.n)
	if it.done = r.count(); r.err == nil && it.done > it.n {
		r.fail("%d values taken of %d", it.done, it.n)
	}
	it.src.load(r)
}
func (it *takeIter[T]) close() { it.src.close() }

// Forever is the count of epochs of an endless [Repeat]: break out of the loop.
const Forever = -1

// Repeat returns a [Stream] of epochs passes of s one after the other (Forever:
// without end). Pass e of s is its epoch e: the shuffles of this package draw
// epoch e's order from (seed, e), so every epoch has its own order and any epoch
// is reproducible on its own. Its state is the epoch and the state of the pass
// within it. Repeat panics if epochs is below Forever.
func Repeat[T any](s Stream[T], epochs int) Stream[T] {
	s.check("resumable.Repeat")
	container.CheckArg(epochs >= Forever, "resumable.Repeat", "epochs", epochs, ">= 0, or Forever")
	return Stream[T]{repeatNode[T]{s.n, epochs}}
}

type repeatNode[T any] struct {
	src    node[T]
	epochs int
}

func (n repeatNode[T]) pass(int) iterator[T] { return &repeatIter[T]{n: n} }

type repeatIter[T any] struct {
	n     repeatNode[T]
	epoch int
	cur   iterator[T] // the pass of epoch, opened on demand
}

func (it *repeatIter[T]) next() (T, error, bool) {
	for it.n.epochs == Forever || it.epoch < it.n.epochs {
		if it.cur == nil {
			it.cur = it.n.src.pass(it.epoch)
		}
		v, err, ok := it.cur.next()
		if err != nil || ok {
			return v, err, ok
		}
		it.cur.close()
		it.cur = nil
		it.epoch++
	}
	var zero T
	return zero, nil, false
}

func (it *repeatIter[T]) save(w *writer) {
	w.str("repeat")
	w.int(it.n.epochs)
	w.uint(uint64(it.epoch))
	if it.cur == nil { // between epochs: the next one starts from its beginning
		w.bool(false)
		return
	}
	w.bool(true)
	it.cur.save(w)
}

func (it *repeatIter[T]) load(r *reader) {
	r.enter("repeat")
	r.setting("epochs", it.n.epochs)
	epoch, inside := r.count(), r.bool()
	if r.err != nil {
		return
	}
	if it.n.epochs != Forever && epoch > it.n.epochs {
		r.fail("epoch %d of %d", epoch, it.n.epochs)
		return
	}
	it.epoch = epoch
	if inside {
		it.cur = it.n.src.pass(epoch)
		it.cur.load(r)
	}
}

func (it *repeatIter[T]) close() {
	if it.cur != nil {
		it.cur.close()
	}
}
