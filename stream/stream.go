package stream

import (
	"fmt"
	"iter"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/state"
)

// A Stream is a pipeline of stages: sources, then the decorators of this
// package, each of which knows its own state. Build it like a chain of
// function calls; [Stream.Iter] starts a pass as a pull iterator that saves and
// restores its state, and [Stream.All] ranges over a pass.
//
// A Stream is immutable and may start any number of passes, on any goroutines,
// when its sources and functions allow it; an [Iter] belongs to one goroutine.
type Stream[T any] struct{ n node[T] }

// node is a stage of a stream: it opens passes of itself.
type node[T any] interface {
	iter(epoch int) iterator[T]
	// ordered reports whether a pass restored to a saved state yields the
	// values the saving pass would have yielded, in the same order: false
	// under an Unordered ParallelMap, whose order depends on scheduling.
	ordered() bool
}

// iterator is one pass of a stage, pulled value by value. Between two calls of
// next its state is that of a pass that has yielded the values next returned,
// so it can be saved at any time.
type iterator[T any] interface {
	// next returns the next value; ok is false at the end (err nil) and with an
	// error, after which the pass is not called again but to save or close it.
	next() (v T, err error, ok bool)
	// save appends the pass's record (its kind, settings and state), then its
	// sources'. A stage that cannot save records an error wrapping
	// container.ErrState that names it (w.Fail).
	save(w *state.Writer)
	// load replaces the state of a pass just opened (never pulled) by the
	// record of a saved one.
	load(r *state.Reader)
	// pause stops the goroutines of the pass's parallel stages, which start
	// again at the next call of next; the values are unchanged.
	pause()
	// close releases what the pass holds (goroutines, open files).
	close()
}

// allOrdered reports whether every node of ns is ordered.
func allOrdered[T any](ns []node[T]) bool {
	for _, n := range ns {
		if !n.ordered() {
			return false
		}
	}
	return true
}

// kind is the kind of a saved stream state (internal/state).
const kind = "stream"

func (s Stream[T]) check(op string) {
	container.CheckArg(s.n != nil, op, "stream", "the zero Stream", "a Stream built by this package")
}

// Iter starts a pass of s from its start (epoch 0): a pull iterator, s's
// container.Iterator. Restore a saved state into it with [Iter.UnmarshalBinary].
// Files are opened and goroutines started at the first Next.
func (s Stream[T]) Iter() *Iter[T] {
	s.check("stream.Stream.Iter")
	return &Iter[T]{s: s, it: s.n.iter(0)}
}

// All returns a range-over-func iterator over a new pass of s, for every range
// statement: the values with a nil error, and, if the stream fails, the zero
// value with the error as the last element. Breaking out of the loop closes the
// pass.
//
//	for v, err := range s.All() {
//		if err != nil {
//			return err
//		}
//		use(v)
//	}
func (s Stream[T]) All() iter.Seq2[T, error] {
	s.check("stream.Stream.All")
	return func(yield func(T, error) bool) {
		it := s.Iter()
		defer it.Close()
		for v, ok := it.Next(); ok; v, ok = it.Next() {
			if !yield(v, nil) {
				return
			}
		}
		if err := it.Err(); err != nil {
			var zero T
			yield(zero, err)
		}
	}
}

// Collect reads a pass of s and returns its values in a new slice. At the first
// error it returns the values read so far and that error.
func Collect[T any](s Stream[T]) ([]T, error) {
	s.check("stream.Collect")
	it := s.Iter()
	defer it.Close()
	var out []T
	for v, ok := it.Next(); ok; v, ok = it.Next() {
		out = append(out, v)
	}
	return out, it.Err()
}

// An Iter is a pass over a [Stream], pulled value by value: the stream's
// container.Iterator. Its state is every stage's (a shuffle's buffer, a
// packer's open rows, the rest of a batch being unbatched, a position in a
// file), saved by [Iter.MarshalBinary] between two values and restored by
// [Iter.UnmarshalBinary] into a pass of a stream built the same way:
//
//	it := s.Iter() // s: the same pipeline as the run that saved
//	defer it.Close()
//	if saved != nil {
//		if err := it.UnmarshalBinary(saved); err != nil { ... }
//	}
//	for v, err := range it.All() {
//		if err != nil { ... }
//		train(v)
//		if step%1000 == 0 {
//			saved, err = it.MarshalBinary()
//		}
//	}
//
// An Iter belongs to one goroutine.
type Iter[T any] struct {
	s      Stream[T]
	it     iterator[T]
	err    error
	done   bool // ended, failed or closed: Next returns false
	closed bool
}

var _ container.Iterator[int] = (*Iter[int])(nil)

// Next returns the next value, or false at the end of the pass, after a
// failure (which [Iter.Err] returns) or after Close. The pass releases its
// files and goroutines when it ends or fails.
func (it *Iter[T]) Next() (T, bool) {
	if !it.done {
		v, err, ok := it.it.next()
		if ok {
			return v, true
		}
		it.err, it.done = err, true
		it.it.close()
	}
	var zero T
	return zero, false
}

// Err returns the error that ended the pass, or nil.
func (it *Iter[T]) Err() error { return it.err }

// All returns the values of the pass from where it stands as a range-over-func
// iterator, with the error that ends it (if any) as the last element. A break
// stops the goroutines of the parallel stages ([Prefetch], [ParallelMap])
// before the range returns, and the pass stays where the loop body left it: a
// later Next or All continues with the next value, the work that was in
// flight done again.
func (it *Iter[T]) All() iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for v, ok := it.Next(); ok; v, ok = it.Next() {
			if !yield(v, nil) {
				if !it.done {
					it.it.pause()
				}
				return
			}
		}
		if it.err != nil {
			var zero T
			yield(zero, it.err)
		}
	}
}

// Close releases what the pass holds (goroutines, open files) without reading
// it to its end; Next then returns false. MarshalBinary still works after
// Close. Close may be called more than once.
func (it *Iter[T]) Close() {
	if !it.closed {
		it.closed, it.done = true, true
		it.it.close()
	}
}

// MarshalBinary returns the state of the pass after the last value Next
// returned: a versioned value with a checksum (internal/state's encoding), a
// few bytes per stage plus the values the stages hold, encoded with
// encoding/gob, as each stage's documentation says. It returns an error when
// the pass failed (restore an earlier state), when a stage cannot save (a
// source made by [From]: the error wraps container.ErrState and names the
// stage) and when a held value cannot be encoded by gob.
func (it *Iter[T]) MarshalBinary() ([]byte, error) {
	if it.err != nil {
		return nil, fmt.Errorf("stream.Iter.MarshalBinary: the pass failed (%v); restore an earlier state", it.err)
	}
	w := state.Begin(make([]byte, 0, 64), kind)
	it.it.save(&w)
	return w.Finish()
}

// UnmarshalBinary replaces the pass by one at a state saved by
// [Iter.MarshalBinary] of a pass of a stream built as this one (the same stages
// with the same settings, sources that yield the same values): Next then
// returns exactly the values the saving pass would have returned after its
// last one. It returns an error wrapping container.ErrState, and leaves the
// pass as it was, for bytes that are not such a state or fail their checksum,
// and for the state of another pipeline, naming the stage (counted from the
// consumer's end) and what differs (a buffer size of 10 in the state and 20
// here); and when a source that resumes by reading again ([Replay],
// [Examples], [Gather]) fails or ends before the saved position ([Lines]
// opens its text at the first Next, and fails there). It reopens a pass that
// had ended or was closed.
func (it *Iter[T]) UnmarshalBinary(data []byte) error {
	r := state.Open("stream.Iter.UnmarshalBinary", data, kind)
	if r.Err() != nil {
		return r.Err()
	}
	fresh := it.s.n.iter(0)
	fresh.load(r)
	if err := r.End(); err != nil {
		fresh.close()
		return err
	}
	it.it.close()
	it.it, it.err, it.done, it.closed = fresh, nil, false, false
	return nil
}

// cannotSave records that the stage of kind cannot save its state.
func cannotSave(w *state.Writer, op, why string) {
	w.Fail(fmt.Errorf("stream.Iter.MarshalBinary: %s: %s: %w", op, why, container.ErrState))
}
