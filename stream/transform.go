package stream

import (
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/state"
)

// Map returns a [Stream] of f applied to each value of s: Fuel's Mapping,
// PaddlePaddle's map_readers. It holds no state of its own. Map panics with a
// [*container.ArgError] if f is nil.
func Map[T, U any](s Stream[T], f func(T) U) Stream[U] {
	s.check("stream.Map")
	container.CheckArg(f != nil, "stream.Map", "function", "nil", "a function")
	return MapErr(s, func(v T) (U, error) { return f(v), nil })
}

// MapErr is [Map] for a function that can fail: the first error f returns ends
// the stream (the zero value is yielded with it, whatever f returned). MapErr
// panics with a [*container.ArgError] if f is nil.
func MapErr[T, U any](s Stream[T], f func(T) (U, error)) Stream[U] {
	s.check("stream.MapErr")
	container.CheckArg(f != nil, "stream.MapErr", "function", "nil", "a function")
	return Stream[U]{mapNode[T, U]{s.n, f}}
}

type mapNode[T, U any] struct {
	src node[T]
	f   func(T) (U, error)
}

func (n mapNode[T, U]) ordered() bool          { return n.src.ordered() }
func (n mapNode[T, U]) iter(e int) iterator[U] { return &mapIter[T, U]{n.src.iter(e), n.f} }

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

func (it *mapIter[T, U]) save(w *state.Writer) { w.String("map"); it.src.save(w) }
func (it *mapIter[T, U]) load(r *state.Reader) { r.Enter("map"); it.src.load(r) }
func (it *mapIter[T, U]) pause()               { it.src.pause() }
func (it *mapIter[T, U]) close()               { it.src.close() }

// Filter returns a [Stream] of the values of s for which keep returns true. It
// holds no state of its own. Filter panics with a [*container.ArgError] if keep
// is nil.
func Filter[T any](s Stream[T], keep func(T) bool) Stream[T] {
	s.check("stream.Filter")
	container.CheckArg(keep != nil, "stream.Filter", "predicate", "nil", "a function")
	return Stream[T]{filterNode[T]{s.n, keep}}
}

type filterNode[T any] struct {
	src  node[T]
	keep func(T) bool
}

func (n filterNode[T]) ordered() bool          { return n.src.ordered() }
func (n filterNode[T]) iter(e int) iterator[T] { return &filterIter[T]{n.src.iter(e), n.keep} }

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

func (it *filterIter[T]) save(w *state.Writer) { w.String("filter"); it.src.save(w) }
func (it *filterIter[T]) load(r *state.Reader) { r.Enter("filter"); it.src.load(r) }
func (it *filterIter[T]) pause()               { it.src.pause() }
func (it *filterIter[T]) close()               { it.src.close() }

// Take returns a [Stream] of the first n values of s (fewer if s ends first); it
// stops reading s after the n-th. Its state is the count taken. Take panics
// with a [*container.ArgError] if n < 0.
func Take[T any](s Stream[T], n int) Stream[T] {
	s.check("stream.Take")
	container.CheckArg(n >= 0, "stream.Take", "count", n, ">= 0")
	return Stream[T]{takeNode[T]{s.n, n}}
}

type takeNode[T any] struct {
	src node[T]
	n   int
}

func (n takeNode[T]) ordered() bool          { return n.src.ordered() }
func (n takeNode[T]) iter(e int) iterator[T] { return &takeIter[T]{src: n.src.iter(e), n: n.n} }

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

func (it *takeIter[T]) save(w *state.Writer) {
	w.String("take")
	w.Int(it.n)
	w.Uint(uint64(it.done))
	it.src.save(w)
}
func (it *takeIter[T]) load(r *state.Reader) {
	r.Enter("take")
	r.Setting("count", it.n)
	if it.done = r.Count(); r.Err() == nil && it.done > it.n {
		r.Fail("%d values taken of %d", it.done, it.n)
	}
	it.src.load(r)
}
func (it *takeIter[T]) pause() { it.src.pause() }
func (it *takeIter[T]) close() { it.src.close() }

// Forever is the count of epochs of an endless [Repeat]: break out of the loop.
const Forever = -1

// Repeat returns a [Stream] of epochs passes of s one after the other (Forever:
// without end). Pass e of s is its epoch e: the shuffles of this package draw
// epoch e's order from (seed, e), so every epoch has its own order and any epoch
// is reproducible on its own. Its state is the epoch and the state of the pass
// within it. Repeat panics with a [*container.ArgError] if epochs is below
// Forever.
func Repeat[T any](s Stream[T], epochs int) Stream[T] {
	s.check("stream.Repeat")
	container.CheckArg(epochs >= Forever, "stream.Repeat", "epochs", epochs, ">= 0, or Forever")
	return Stream[T]{repeatNode[T]{s.n, epochs}}
}

type repeatNode[T any] struct {
	src    node[T]
	epochs int
}

func (n repeatNode[T]) ordered() bool        { return n.src.ordered() }
func (n repeatNode[T]) iter(int) iterator[T] { return &repeatIter[T]{n: n} }

type repeatIter[T any] struct {
	n     repeatNode[T]
	epoch int
	cur   iterator[T] // the pass of epoch, opened on demand
}

func (it *repeatIter[T]) next() (T, error, bool) {
	for it.n.epochs == Forever || it.epoch < it.n.epochs {
		if it.cur == nil {
			it.cur = it.n.src.iter(it.epoch)
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

func (it *repeatIter[T]) save(w *state.Writer) {
	w.String("repeat")
	w.Int(it.n.epochs)
	w.Uint(uint64(it.epoch))
	if it.cur == nil { // between epochs: the next one starts from its beginning
		w.Bool(false)
		return
	}
	w.Bool(true)
	it.cur.save(w)
}

func (it *repeatIter[T]) load(r *state.Reader) {
	r.Enter("repeat")
	r.Setting("epochs", it.n.epochs)
	epoch, inside := r.Count(), r.Bool()
	if r.Err() != nil {
		return
	}
	if it.n.epochs != Forever && epoch > it.n.epochs {
		r.Fail("epoch %d of %d", epoch, it.n.epochs)
		return
	}
	it.epoch = epoch
	if inside {
		it.cur = it.n.src.iter(epoch)
		it.cur.load(r)
	}
}

func (it *repeatIter[T]) pause() {
	if it.cur != nil {
		it.cur.pause()
	}
}

func (it *repeatIter[T]) close() {
	if it.cur != nil {
		it.cur.close()
	}
}

// Chain returns a [Stream] of the values of each of ss in turn: PaddlePaddle's
// chain. Its state is the number of the stream being read and that stream's
// state (the others are opened when their turn comes). Chain panics with a
// [*container.ArgError] if a stream is the zero Stream.
func Chain[T any](ss ...Stream[T]) Stream[T] {
	n := chainNode[T]{srcs: make([]node[T], len(ss))}
	for j, s := range ss {
		s.check("stream.Chain")
		n.srcs[j] = s.n
	}
	return Stream[T]{n}
}

type chainNode[T any] struct{ srcs []node[T] }

func (n chainNode[T]) ordered() bool          { return allOrdered(n.srcs) }
func (n chainNode[T]) iter(e int) iterator[T] { return &chainIter[T]{n: n, epoch: e} }

type chainIter[T any] struct {
	n     chainNode[T]
	epoch int
	k     int         // the stream being read
	cur   iterator[T] // its pass, opened on demand
}

func (it *chainIter[T]) next() (T, error, bool) {
	for it.k < len(it.n.srcs) {
		if it.cur == nil {
			it.cur = it.n.srcs[it.k].iter(it.epoch)
		}
		v, err, ok := it.cur.next()
		if err != nil || ok {
			return v, err, ok
		}
		it.cur.close()
		it.cur = nil
		it.k++
	}
	var zero T
	return zero, nil, false
}

func (it *chainIter[T]) save(w *state.Writer) {
	w.String("chain")
	w.Int(len(it.n.srcs))
	w.Uint(uint64(it.k))
	w.Bool(it.cur != nil)
	if it.cur != nil {
		it.cur.save(w)
	}
}

func (it *chainIter[T]) load(r *state.Reader) {
	r.Enter("chain")
	r.Setting("number of streams", len(it.n.srcs))
	k, inside := r.Count(), r.Bool()
	if r.Err() != nil {
		return
	}
	if k > len(it.n.srcs) || k == len(it.n.srcs) && inside {
		r.Fail("stream %d of %d", k, len(it.n.srcs))
		return
	}
	it.k = k
	if inside {
		it.cur = it.n.srcs[k].iter(it.epoch)
		it.cur.load(r)
	}
}

func (it *chainIter[T]) pause() {
	if it.cur != nil {
		it.cur.pause()
	}
}

func (it *chainIter[T]) close() {
	if it.cur != nil {
		it.cur.close()
	}
}
