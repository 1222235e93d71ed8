package resumable

import (
	"fmt"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/stream"
)

// A Stream is a reader whose passes can save where they are and resume there:
// a small tree of nodes (sources, then the decorators of this package), each of
// which knows its own state. Build it like a chain of stream decorators; range
// over [Stream.All] like any stream.Reader, or start a [Pass] to save its state
// on the way.
//
// A Stream is immutable and may start any number of passes, on any goroutines,
// when its sources and functions allow it; a Pass belongs to one goroutine.
type Stream[T any] struct{ n node[T] }

// node is a step of a stream: it opens passes of itself.
type node[T any] interface {
	pass(epoch int) iterator[T]
}

// iterator is one pass of a node, pulled value by value. Between two calls of
// next its state is that of a pass that has yielded the values next returned, so
// it can be saved at any time.
type iterator[T any] interface {
	// next returns the next value; ok is false at the end (err nil) and with an
	// error, after which the pass is not called again but to close it.
	next() (v T, err error, ok bool)
	// save appends the pass's record: kind, settings, state, then its sources'.
	save(w *writer)
	// load replaces the state of a pass just opened by the record of a saved
	// one.
	load(r *reader)
	// close releases what the pass holds (open files, pulled readers).
	close()
}

// All returns the stream as a plain stream.Reader: every range starts a new pass
// from the start (epoch 0) and ranges over it to its end or the consumer's
// break. Use it where a checkpoint is not needed, or to hand a resumable
// pipeline to the decorators of package stream.
func (s Stream[T]) All() stream.Reader[T] {
	s.check("resumable.Stream.All")
	return func(yield func(T, error) bool) {
		p := &Pass[T]{it: s.n.pass(0)}
		for v, err := range p.All() {
			if !yield(v, err) {
				return
			}
		}
	}
}

func (s Stream[T]) check(op string) {
	container.CheckArg(s.n != nil, op, "stream", "the zero Stream", "a Stream built by this package")
}

// Start begins a pass of s, from the start when state is empty, else where the
// pass that saved state (with [Pass.Save]) stood: the pass then yields exactly
// the values the saved pass would have yielded after its last one. s must be
// built as the stream that saved the state was (the same nodes with the same
// settings, sources that yield the same values). Start returns an error
// wrapping [ErrState] when the state is damaged (its checksum, checked before
// anything else is read, does not match), when it does not fit s, naming the
// node and what differs, and also when a replayed source fails or ends before
// the saved position (the error names the source's error). Files are opened
// at the pass's first value, so their errors come from the pass, in place, as
// any source error does.
func (s Stream[T]) Start(state []byte) (*Pass[T], error) {
	s.check("resumable.Stream.Start")
	if len(state) == 0 {
		return &Pass[T]{it: s.n.pass(0)}, nil
	}
	body, err := checkEnvelope(state)
	if err != nil {
		return nil, fmt.Errorf("resumable.Stream.Start: state of %d bytes: %v: %w", len(state), err, ErrState)
	}
	it := s.n.pass(0)
	r := &reader{b: body, node: -1}
	it.load(r)
	if r.err == nil && len(r.b) > 0 {
		r.node, r.kind = -1, "end"
		r.fail("%d bytes after the last node", len(r.b))
	}
	if r.err != nil {
		it.close()
		return nil, r.err
	}
	return &Pass[T]{it: it}, nil
}

// A Pass is one pass over a [Stream], started by [Stream.Start]: range over
// [Pass.All], and call [Pass.Save] from the loop body (or between two loops) to
// take a checkpoint.
//
//	p, err := s.Start(saved) // saved: nil, or the state of an earlier run
//	for v, err := range p.All() {
//		...
//		if step%1000 == 0 {
//			saved, err = p.Save() // resume here with s.Start(saved)
//		}
//	}
//
// A Pass belongs to one goroutine: Save runs between two values, where the pass
// and every node in it stand still.
type Pass[T any] struct {
	it             iterator[T]
	ranged, closed bool
	failed         error
}

// Close releases what the pass holds (open files, pulled readers) without
// ranging over it; ranging over [Pass.All] releases them when the loop ends, so
// Close is needed only for a pass that is started and not ranged to an end or a
// break. Save still works after Close; All yields nothing more. Close may be
// called more than once.
func (p *Pass[T]) Close() {
	if !p.closed {
		p.closed = true
		p.it.close()
	}
}

// All returns the values of the pass from where it stands. It is single-use: a
// second call panics with a [*container.ArgError]. The pass's files and pulled
// readers are released when the loop ends, whether the stream ended, failed or
// the consumer broke out; Save still works after that.
func (p *Pass[T]) All() stream.Reader[T] {
	container.CheckArg(!p.ranged, "resumable.Pass.All", "pass", "already ranged", "a pass ranged once")
	p.ranged = true
	return func(yield func(T, error) bool) {
		if p.closed {
			return
		}
		defer p.Close()
		for {
			v, err, ok := p.it.next()
			if err != nil {
				p.failed = err
				yield(v, err)
				return
			}
			if !ok || !yield(v, nil) {
				return
			}
		}
	}
}

// Save returns the state of the pass after the last value it yielded: a small
// versioned binary value, closed by a CRC-32C checksum of its bytes, to keep in
// a checkpoint and hand to [Stream.Start].
// Its size is a few bytes per node plus the values the nodes hold (a shuffle's
// buffer, a packer's open rows, the rest of a batch being unbatched), encoded
// with encoding/gob, as each decorator documents.
// Save returns an error when the pass failed (resume from an earlier
// state) or when a held value cannot be encoded by gob.
func (p *Pass[T]) Save() ([]byte, error) {
	if p.failed != nil {
		return nil, fmt.Errorf("resumable.Pass.Save: the pass failed (%v); resume from an earlier state", p.failed)
	}
	w := &writer{b: openEnvelope(make([]byte, 0, 64))}
	p.it.save(w)
	if w.err != nil {
		return nil, w.err
	}
	return sealEnvelope(w.b), nil
}
