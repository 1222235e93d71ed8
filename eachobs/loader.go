package eachobs

import (
	"fmt"
	"iter"
	"strings"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
)

// A Loader is a multi-epoch batch loop whose every random choice derives from a
// seed: with [Shuffle](seed), epoch e visits the container in an order that
// depends on (seed, e) alone, computed position by position, so any epoch, and
// any batch within it, can be produced without running the ones before and
// without an array of n indices. This gives
//
//   - reproducible training: equal seeds give equal sequences, whatever the
//     prefetch and worker settings;
//   - exact resumption: the state of its [Iter] (a [Position]) saved in a
//     checkpoint continues mid-epoch at once, also with another batch size,
//     number of workers or number of parts ([Partition]): the rest of the epoch
//     is dealt out anew, every observation not yet consumed exactly once;
//   - roll-over without state: with the index.RollOver tail the tail of epoch e-1
//     leads epoch e, computed from epoch e-1's order, so the container and the
//     loader stay stateless.
//
// B is the container's batch type. A Loader is safe for concurrent use: its
// settings never change, and each of its iterators ([Loader.Iter],
// [Loader.Epoch]) has its own buffers and order (taken over from a finished one
// when one is free, so a steady-state epoch allocates neither a batch buffer nor
// its order, and only the few small values its pipeline needs).
type Loader[B any] struct {
	cfg    config
	n      int
	steps  index.Steps // the schedule from the start of epoch 0
	gather func(*step[B])
	keep   spares[[]step[B]] // batch buffers of finished passes, reused by the next
	runs   spares[*run[B]]   // finished runs, reused by the next
}

// NewLoader returns a loader of c in batches of size. Options: [Shuffle] (or
// [ShufflePerm], [ShuffleBlocks], [ShuffleBlocksOf], [ShuffleWithin]: an order
// per epoch, from a seed; without one every epoch is in data order), [Tail],
// [Partition] (one process's share of every step), [Owned], [Prefetch],
// [Workers] and [Measure]. It panics with a [*container.ArgError] if size < 1,
// and with ShuffleBlocks when c has no blocks. c must keep its Nobs (and its
// blocks) while the loader is in use.
func NewLoader[T, B any](c container.Batched[T, B], size int, opts ...Option) *Loader[B] {
	return newLoader("NewLoader", c, size, opts)
}

// newLoader is NewLoader for op, the function the caller called, which its
// panics name.
func newLoader[T, B any](op string, c container.Batched[T, B], size int, opts []Option) *Loader[B] {
	cfg := newConfig(op, opts, optShuffle|optTail|optOwned|optPrefetch|optWorkers|optPartition|optMeasure)
	container.CheckArg(size >= 1, "eachobs."+op, "batch size", size, ">= 1")
	n := c.Nobs()
	cfg.useBlocks(op, c, container.BlockStarts(c), n)
	return &Loader[B]{
		cfg:    cfg,
		n:      n,
		steps:  index.NewSteps(n, size, cfg.parts, cfg.strided, cfg.tail),
		gather: gatherer(c),
	}
}

// Seed returns the loader's seed: the one given to its shuffle option, or 0.
func (l *Loader[B]) Seed() uint64 { return l.cfg.seed }

// Steps returns the loader's schedule from the start of epoch 0: the
// observations of an epoch, the batch size, the parts and the tail.
func (l *Loader[B]) Steps() index.Steps { return l.steps }

// Len returns the number of batches of epoch e in a loop started at epoch 0, the
// same for every epoch except with the index.RollOver tail. It panics with a
// [*container.ArgError] if e is outside [0, Steps().MaxEpoch()].
func (l *Loader[B]) Len(e int) int { return l.steps.Len(e) }

// Epoch returns a loop over the batches of epoch e, as a loop started at epoch 0
// would yield them: the range form of an [Iter] set to the start of epoch e that
// stops at the epoch's end. The yielded batches are valid until the loop body
// returns, unless [Owned]. A break stops the loop's goroutines before the range
// returns. Epoch panics with a [*container.ArgError] if e is outside [0,
// Steps().MaxEpoch()].
func (l *Loader[B]) Epoch(e int) iter.Seq[Batch[B]] {
	l.steps.Len(e) // checks e
	return func(yield func(Batch[B]) bool) {
		it := &Iter[B]{l: l, op: "eachobs.Loader.Epoch", pos: l.first(e), last: e}
		defer it.Close()
		for b, ok := it.Next(); ok && yield(b); b, ok = it.Next() {
		}
	}
}

// first returns the position of the first batch of epoch e.
func (l *Loader[B]) first(e int) Position {
	pos := l.start()
	pos.Epoch, pos.Consumed, pos.Batch = l.steps.First(e)
	return pos
}

// start returns the position of the first batch of epoch 0.
func (l *Loader[B]) start() Position {
	return Position{Seed: l.cfg.seed, Order: l.cfg.order.name, Nobs: l.n, Tail: l.cfg.tail}
}

// Iter returns an iterator over the batches of every epoch from the first batch
// of epoch 0: the loader's [container.Iterator]. Restore a saved state into it
// with [Iter.UnmarshalBinary] to continue where another stopped; break out of
// its loop at an epoch count, read from Batch.Pos.Epoch.
func (l *Loader[B]) Iter() *Iter[B] {
	return &Iter[B]{l: l, op: "eachobs.Loader.Iter", pos: l.start(), last: l.steps.MaxEpoch()}
}

// An Iter is a pull iterator over a [Loader]'s batches: its
// [container.Iterator], whose state is the [Position] of the next batch.
//
//	it := loader.Iter()
//	defer it.Close()
//	if err := it.UnmarshalBinary(saved); saved != nil && err != nil { ... }
//	for b := range it.All() {
//		train(b.Data)
//		if b.Pos.Batch%1000 == 999 {
//			saved, _ = it.MarshalBinary() // continue after b
//		}
//	}
//
// The pipeline (the goroutines of [Prefetch] and [Workers]) starts at the first
// [Iter.Next] (or [Iter.Warm]) and gathers ahead of the consumer; the state is
// the consumer's, so a restore gathers again the batches that were gathered and
// not yet taken. An Iter belongs to one goroutine. Its batches are valid until
// the next call of Next, unless [Owned].
type Iter[B any] struct {
	l      *Loader[B]
	op     string   // the function that made it, for errors
	pos    Position // the position of the next batch
	last   int      // the last epoch of the iterator
	r      *run[B]  // the running pass, or nil
	p      *pass[B]
	closed bool
}

var _ container.Iterator[Batch[int]] = (*Iter[int])(nil)

// Next returns the next batch, or false after the last epoch (or after Close).
// A panic in gathering (a container's GetObsInto, in any goroutine) is raised
// here as a [*container.PanicError], after every earlier batch was returned.
func (it *Iter[B]) Next() (Batch[B], bool) {
	if it.closed {
		return Batch[B]{}, false
	}
	if it.p == nil && !it.begin(false) {
		return Batch[B]{}, false
	}
	s, ok := it.p.next()
	if !ok {
		it.stop()
		it.closed = true // the end: nothing after it
		return Batch[B]{}, false
	}
	it.pos = s.next
	return s.batch(), true
}

// All returns the batches of it from where it stands as a range-over-func
// iterator. A break stops the iterator's goroutines before the range returns,
// and the iterator stays where the loop body left it: a later Next or All
// continues with the next batch (gathering again what was gathered ahead).
func (it *Iter[B]) All() iter.Seq[Batch[B]] {
	return func(yield func(Batch[B]) bool) {
		for b, ok := it.Next(); ok; b, ok = it.Next() {
			if !yield(b) {
				it.stop()
				return
			}
		}
	}
}

// Warm starts the pipeline now, before the first Next: its goroutines gather the
// first batches (as many as Prefetch and Workers hold in flight, and one even
// for a loop built without them) while the caller does something else, such as
// building or loading a model, so that the first batch is ready when it asks.
// Call Close if the iterator may not be pulled. Warm is a no-op once the
// pipeline runs.
func (it *Iter[B]) Warm() {
	if !it.closed && it.p == nil {
		it.begin(true)
	}
}

// Pos returns the iterator's state: the position of the next batch (after the
// last one Next returned).
func (it *Iter[B]) Pos() Position { return it.pos }

// Steps returns the schedule of the iterator's loader: [Loader.Steps].
func (it *Iter[B]) Steps() index.Steps { return it.l.steps }

// Err returns nil: a loader's iterator does not fail (a failure in gathering
// panics, as the container's GetObsInto does).
func (it *Iter[B]) Err() error { return nil }

// Close stops the iterator's goroutines and gives its buffers back to the
// loader; Next then returns false. The state stays: MarshalBinary works after
// Close. Close may be called more than once.
func (it *Iter[B]) Close() {
	it.stop()
	it.closed = true
}

// MarshalBinary returns the iterator's state, [Iter.Pos] encoded by
// [Position.MarshalBinary].
func (it *Iter[B]) MarshalBinary() ([]byte, error) { return it.pos.MarshalBinary() }

// UnmarshalBinary sets the iterator to a state saved by an iterator of a loader
// over the same data (a [Position] encoded by [Position.MarshalBinary]), also one
// of another batch size, number of workers or number of parts: the next batch is
// the one after the last batch the saving iterator returned, the rest of its
// epoch dealt out anew. It stops the iterator's goroutines first, and reopens
// an iterator that had ended or was closed.
//
// It returns an error wrapping container.ErrState, and leaves the iterator as it
// was, for bytes that are not a saved position, for a position taken under
// another order (a shuffle option or none), seed, number of observations or
// tail, naming the option that differs, and for a position that is not one of
// the loader's stream (an epoch outside [0, Steps().MaxEpoch()], a count of
// observations outside the epoch, a negative batch).
func (it *Iter[B]) UnmarshalBinary(data []byte) error {
	var pos Position
	if err := pos.UnmarshalBinary(data); err != nil {
		return err
	}
	if _, err := it.l.schedule(it.op+": UnmarshalBinary", pos); err != nil {
		return err
	}
	it.stop()
	it.pos, it.closed = pos, false
	return nil
}

// begin starts a pass at the iterator's position: false when the position is
// past the iterator's last epoch.
func (it *Iter[B]) begin(warm bool) bool {
	if it.pos.Epoch > it.last {
		return false
	}
	sched, err := it.l.schedule(it.op, it.pos)
	if err != nil { // cannot happen: the position was checked when it was set
		panic("eachobs: " + err.Error())
	}
	r, ok := it.l.runs.get(nil)
	if !ok {
		r = newRun[B](&it.l.cfg, it.l.n)
	}
	r.start(sched, it.last)
	it.r = r
	it.p = newPass(&it.l.cfg, &it.l.keep, warm, r.source, it.l.gather)
	return true
}

// stop ends the running pass, if any, and gives its run back.
func (it *Iter[B]) stop() {
	if it.p != nil {
		it.p.end()
		it.l.runs.put(it.r)
		it.p, it.r = nil, nil
	}
}

// schedule returns the loader's schedule started at pos, or an error wrapping
// container.ErrState, for op.
func (l *Loader[B]) schedule(op string, pos Position) (index.Steps, error) {
	base := l.start()
	switch {
	case pos.Order != base.Order:
		return l.steps, fmt.Errorf("%s: %s: the position's order is %q (%s), the loader's %q: %w", op, l.cfg.order.option, pos.Order, optionOf(pos.Order), base.Order, container.ErrState)
	case pos.Seed != base.Seed:
		return l.steps, fmt.Errorf("%s: %s: the position's seed is %d, the loader's %d: %w", op, l.cfg.order.option, pos.Seed, base.Seed, container.ErrState)
	case pos.Nobs != base.Nobs:
		return l.steps, fmt.Errorf("%s: the container: the position is of %d observations, the loader's container holds %d: %w", op, pos.Nobs, base.Nobs, container.ErrState)
	case pos.Tail != base.Tail:
		return l.steps, fmt.Errorf("%s: Tail: the position's tail is %v, the loader's %v: %w", op, pos.Tail, base.Tail, container.ErrState)
	}
	s, err := l.steps.Resume(pos.Epoch, pos.Consumed, pos.Batch)
	if err != nil {
		return l.steps, fmt.Errorf("%s: %w: %w", op, err, container.ErrState)
	}
	return s, nil
}

// optionOf returns the option that chose the order of a position.
func optionOf(order string) string {
	for _, k := range []orderKind{dataKind, cipherKind, permKind} {
		if order == k.name {
			return k.option
		}
	}
	if strings.HasPrefix(order, "blocks ") {
		if strings.Contains(order, "/") {
			return "ShuffleBlocksLocal"
		}
		if strings.Contains(order, "@") {
			return "ShuffleBlocks"
		}
		return "ShuffleBlocksOf"
	}
	if strings.HasPrefix(order, "within ") {
		return "ShuffleWithin"
	}
	return "not an order of the kit"
}
