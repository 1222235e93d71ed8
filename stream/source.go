package stream

import (
	"iter"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/state"
)

// FromSlice returns a [Stream] of the elements of s in order. Its state is the
// position in s (a few bytes); it resumes in O(1). s is not copied: the stream
// sees later changes to its elements, and elements that hold references
// (slices, pointers) are shared with the consumer.
func FromSlice[T any](s []T) Stream[T] { return Stream[T]{sliceNode[T](s)} }

type sliceNode[T any] []T

func (sliceNode[T]) ordered() bool          { return true }
func (s sliceNode[T]) iter(int) iterator[T] { return &sliceIter[T]{s: s} }

type sliceIter[T any] struct {
	s   []T
	pos int
}

func (it *sliceIter[T]) next() (T, error, bool) {
	if it.pos == len(it.s) {
		var zero T
		return zero, nil, false
	}
	it.pos++
	return it.s[it.pos-1], nil, true
}

func (it *sliceIter[T]) save(w *state.Writer) {
	w.String("slice")
	w.Int(len(it.s))
	w.Uint(uint64(it.pos))
}

func (it *sliceIter[T]) load(r *state.Reader) {
	r.Enter("slice")
	r.Setting("length", len(it.s))
	if pos := r.Count(); r.Err() == nil {
		if pos > len(it.s) {
			r.Fail("position %d past the end %d", pos, len(it.s))
			return
		}
		it.pos = pos
	}
}

func (it *sliceIter[T]) pause() {}
func (it *sliceIter[T]) close() {}

// From returns a [Stream] of the values of seq, ranged once per pass. It is the
// way in for a sequence that cannot be rewound (a channel, a socket, a
// generator with state of its own): its passes cannot be saved, and
// Iter.MarshalBinary of a pipeline that holds it returns an error wrapping
// container.ErrState that names it, rather than a state that would silently
// restart it. A sequence that yields the same values on every range resumes
// with [Replay]; one that can start anywhere with [Seek]. From panics with a
// [*container.ArgError] if seq is nil.
func From[T any](seq iter.Seq[T]) Stream[T] {
	container.CheckArg(seq != nil, "stream.From", "sequence", "nil", "an iter.Seq")
	return Stream[T]{fromNode[T]{seq}}
}

type fromNode[T any] struct{ seq iter.Seq[T] }

func (fromNode[T]) ordered() bool          { return true }
func (n fromNode[T]) iter(int) iterator[T] { return &fromIter[T]{seq: n.seq} }

type fromIter[T any] struct {
	seq  iter.Seq[T]
	pull func() (T, bool)
	stop func()
}

func (it *fromIter[T]) next() (T, error, bool) {
	if it.pull == nil {
		it.pull, it.stop = iter.Pull(it.seq)
	}
	v, ok := it.pull()
	return v, nil, ok
}

func (it *fromIter[T]) save(w *state.Writer) {
	cannotSave(w, "stream.From", "a plain iter.Seq cannot be rewound (use stream.Replay for one that yields the same values on every range, or stream.Seek)")
}

func (it *fromIter[T]) load(r *state.Reader) {
	r.Enter("from") // no state holds a "from" record: From cannot save
}

func (it *fromIter[T]) pause() {}

func (it *fromIter[T]) close() {
	if it.stop != nil {
		it.stop()
		it.pull, it.stop = nil, nil
	}
}

// Seek returns a [Stream] of a source that can start anywhere: open(pos) returns
// the source's values from value number pos on (0 for the start), each with a
// nil error, and, if the source fails, the zero value with the error as the
// last element: the lines of a file from a known offset, say, or a container
// read from an index. Its state is the number of values yielded (a few bytes);
// it resumes by calling open with that number. Seek panics with a
// [*container.ArgError] if open is nil.
func Seek[T any](open func(pos int) iter.Seq2[T, error]) Stream[T] {
	container.CheckArg(open != nil, "stream.Seek", "open function", "nil", "a function")
	return Stream[T]{seekNode[T]{open: open}}
}

// Replay returns a [Stream] of any sequence of values that may fail (as [Seek]'s
// open returns them): its state is the number of values yielded (a few bytes),
// and it resumes by ranging over seq from its start again and skipping that
// many values, so resuming costs reading them once more. seq must yield the same
// values on every range (a file that does not change, a generator with a fixed
// seed). A source that can seek is faster to resume with [Seek] or [Lines].
// Replay panics with a [*container.ArgError] if seq is nil.
func Replay[T any](seq iter.Seq2[T, error]) Stream[T] {
	container.CheckArg(seq != nil, "stream.Replay", "sequence", "nil", "an iter.Seq2")
	return Stream[T]{seekNode[T]{open: func(int) iter.Seq2[T, error] { return seq }, replay: true}}
}

type seekNode[T any] struct {
	open   func(pos int) iter.Seq2[T, error]
	replay bool // open ignores pos: skip pos values on resume
}

func (seekNode[T]) ordered() bool          { return true }
func (n seekNode[T]) iter(int) iterator[T] { return &seekIter[T]{n: n} }

// seekIter pulls a sequence opened at pos (or at the start, then skips).
type seekIter[T any] struct {
	n    seekNode[T]
	pos  int
	pull func() (T, error, bool)
	stop func()
}

func (it *seekIter[T]) kind() string {
	if it.n.replay {
		return "replay"
	}
	return "seek"
}

func (it *seekIter[T]) start(pos int) {
	it.close()
	if it.n.replay {
		pos = 0
	}
	it.pull, it.stop = iter.Pull2(it.n.open(pos))
}

func (it *seekIter[T]) next() (T, error, bool) {
	if it.pull == nil {
		it.start(it.pos)
	}
	v, err, ok := it.pull()
	if err != nil || !ok {
		return v, err, false
	}
	it.pos++
	return v, nil, true
}

func (it *seekIter[T]) save(w *state.Writer) {
	w.String(it.kind())
	w.Uint(uint64(it.pos))
}

func (it *seekIter[T]) load(r *state.Reader) {
	r.Enter(it.kind())
	pos := r.Count()
	if r.Err() != nil {
		return
	}
	it.pos = pos
	if !it.n.replay {
		return // the source opens at pos on the first next
	}
	it.start(0)
	for k := range pos {
		_, err, ok := it.pull()
		if err != nil {
			r.Fail("replaying the source: %v", err)
			return
		}
		if !ok {
			r.Fail("the source ended after %d values; the state is after %d", k, pos)
			return
		}
	}
}

func (it *seekIter[T]) pause() {}

func (it *seekIter[T]) close() {
	if it.stop != nil {
		it.stop()
		it.pull, it.stop = nil, nil
	}
}

// FromIter returns a [Stream] of the values of iterators that open makes, one
// per pass: any container.Iterator of the kit, such as an eachobs.Loader's
// (stream.FromIter(loader.Iter): its batches through the stages of this
// package) or another stream's. Its state is the iterator's own
// (MarshalBinary), restored with UnmarshalBinary into a new one from open; an
// iterator that fails ends the stream with its error. A break out of a range
// (Iter.All) stops the iterator's goroutines by saving its state and closing
// it, and the next value comes from a new iterator restored to that state.
//
// Values pass through unchanged: an iterator whose values are valid only until
// its next call (a loader's batches, unless eachobs.Owned) must not feed a
// stage that keeps values (the shuffles, Batches, Prefetch, ParallelMap).
// FromIter panics with a [*container.ArgError] if open is nil.
func FromIter[T any, I container.Iterator[T]](open func() I) Stream[T] {
	container.CheckArg(open != nil, "stream.FromIter", "open function", "nil", "a function")
	return Stream[T]{iterNode[T]{open: func() container.Iterator[T] { return open() }}}
}

type iterNode[T any] struct {
	open func() container.Iterator[T]
}

func (iterNode[T]) ordered() bool          { return true }
func (n iterNode[T]) iter(int) iterator[T] { return &iterIter[T]{n: n} }

type iterIter[T any] struct {
	n      iterNode[T]
	it     container.Iterator[T] // nil until the first next (or load)
	paused []byte                // the state of an iterator closed by pause
	err    error                 // its failure to restore that state
}

func (it *iterIter[T]) get() container.Iterator[T] {
	if it.it == nil {
		it.it = it.n.open()
		if it.paused != nil {
			it.err = it.it.UnmarshalBinary(it.paused)
			it.paused = nil
		}
	}
	return it.it
}

func (it *iterIter[T]) next() (T, error, bool) {
	c := it.get()
	if it.err != nil {
		var zero T
		return zero, it.err, false
	}
	v, ok := c.Next()
	if !ok {
		return v, c.Err(), false
	}
	return v, nil, true
}

func (it *iterIter[T]) save(w *state.Writer) {
	w.String("iterator")
	b, err := it.get().MarshalBinary()
	if err != nil {
		w.Fail(err)
		return
	}
	w.Bytes(b)
}

func (it *iterIter[T]) load(r *state.Reader) {
	r.Enter("iterator")
	b := r.Bytes()
	if r.Err() != nil {
		return
	}
	if err := it.get().UnmarshalBinary(b); err != nil {
		r.Wrap("the iterator", err)
	}
}

func (it *iterIter[T]) pause() {
	if it.it == nil {
		return
	}
	b, err := it.it.MarshalBinary()
	if err != nil {
		return // an iterator that cannot save keeps running until close
	}
	it.it.Close()
	it.it, it.paused = nil, b
}

func (it *iterIter[T]) close() {
	if it.it != nil {
		it.it.Close()
	}
}

// A data stream over a container is Fuel's DataStream: the container (Fuel's
// dataset) is stateless, and the stream holds the state of a pass (its position
// in the scheme, its buffer). Any number of streams may read one container at
// once, on any goroutines, since containers are safe for concurrent readers.

// Examples returns a [Stream] of the observations of c at the indices of an
// example scheme (such as slices.Values of an index list, or the positions of
// an index.Cipher), one c.GetObs call per index: Fuel's DataStream with an
// example scheme. Every pass ranges over indices again. Its state is the number
// of indices read; it resumes by ranging over indices again and skipping that
// many (without reading c), so indices must yield the same indices on every
// range: a scheme that draws a new permutation from a shared *rand.Rand on
// every range does not, and a restored pass would read other observations. An index out of range panics in
// c.GetObs with a *container.IndexError, as a bad index does everywhere in the
// kit. Examples panics with a [*container.ArgError] if c or indices is nil.
func Examples[T any](c container.Container[T], indices iter.Seq[int]) Stream[T] {
	container.CheckArg(c != nil, "stream.Examples", "container", "nil", "a container")
	container.CheckArg(indices != nil, "stream.Examples", "example scheme", "nil", "an iter.Seq")
	return Stream[T]{schemeNode[int, T]{kind: "examples", scheme: indices, read: c.GetObs}}
}

// Gather returns a [Stream] of the batches of c at the index lists of a batch
// scheme (such as slices.Chunk of an index list, or an index.Cipher's
// Batches): Fuel's DataStream with a batch scheme. Each batch is gathered by c.GetObsInto,
// through c's own fast path, into newly allocated memory that the consumer
// owns, so that any stage may keep it (a loop that reuses one buffer is package
// eachobs). Its state and its resumption are [Examples']: requests must yield
// the same lists on every range.
//
// The container must be Batched; a type with only Nobs and GetObs goes in
// through container.AsBatched. An index out of range panics in c.GetObsInto.
// Gather panics with a [*container.ArgError] if c or requests is nil.
func Gather[T, B any](c container.Batched[T, B], requests iter.Seq[[]int]) Stream[B] {
	container.CheckArg(c != nil, "stream.Gather", "container", "nil", "a container")
	container.CheckArg(requests != nil, "stream.Gather", "batch scheme", "nil", "an iter.Seq")
	return Stream[B]{schemeNode[[]int, B]{kind: "gather", scheme: requests, read: func(idx []int) B {
		var zero B
		return c.GetObsInto(zero, idx)
	}}}
}

// schemeNode reads a container at the requests of a scheme.
type schemeNode[R, T any] struct {
	kind   string
	scheme iter.Seq[R]
	read   func(R) T
}

func (schemeNode[R, T]) ordered() bool          { return true }
func (n schemeNode[R, T]) iter(int) iterator[T] { return &schemeIter[R, T]{n: n} }

type schemeIter[R, T any] struct {
	n    schemeNode[R, T]
	pos  int // requests read
	pull func() (R, bool)
	stop func()
}

func (it *schemeIter[R, T]) next() (T, error, bool) {
	if it.pull == nil {
		it.pull, it.stop = iter.Pull(it.n.scheme)
	}
	req, ok := it.pull()
	if !ok {
		var zero T
		return zero, nil, false
	}
	it.pos++
	return it.n.read(req), nil, true
}

func (it *schemeIter[R, T]) save(w *state.Writer) {
	w.String(it.n.kind)
	w.Uint(uint64(it.pos))
}

func (it *schemeIter[R, T]) load(r *state.Reader) {
	r.Enter(it.n.kind)
	pos := r.Count()
	if r.Err() != nil {
		return
	}
	it.pull, it.stop = iter.Pull(it.n.scheme)
	for k := range pos {
		if _, ok := it.pull(); !ok {
			r.Fail("the scheme ended after %d requests; the state is after %d", k, pos)
			return
		}
	}
	it.pos = pos
}

func (it *schemeIter[R, T]) pause() {}

func (it *schemeIter[R, T]) close() {
	if it.stop != nil {
		it.stop()
		it.pull, it.stop = nil, nil
	}
}
