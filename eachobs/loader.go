package eachobs

import (
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/internal/pipeline"
)

// ErrPosition is wrapped by the error [Loader.Resume] returns for a position it
// cannot resume without losing or repeating observations: one taken under
// another order, seed, number of observations or tail (the error names the
// option that differs), or one that is not a position of the stream of epochs.
var ErrPosition = errors.New("position does not fit the loader")

// A Loader is a multi-epoch batch loop whose every random choice derives from a
// seed: with [Shuffle](seed), epoch e visits the container in an order that
// depends on (seed, e) alone, computed position by position, so any epoch, and
// any batch within it, can be produced without running the ones before and
// without an array of n indices. This gives
//
//   - reproducible training: equal seeds give equal sequences, whatever the
//     prefetch and worker settings;
//   - exact resumption: a [Position] saved in a checkpoint continues mid-epoch
//     with [Loader.Resume] at once, also with another batch size, number of
//     workers or number of parts ([Partition]): the rest of the epoch is dealt
//     out anew, every observation not yet consumed exactly once;
//   - roll-over without state: with the index.RollOver tail the tail of epoch e-1
//     leads epoch e, computed from epoch e-1's order, so the container and the
//     loader stay stateless.
//
// B is the container's batch type. A Loader is safe for concurrent use: its
// settings never change, and each run of [Loader.Epoch] or [Loader.Resume] has
// its own buffers and order (taken over from a finished run when one is free, so
// a steady-state epoch allocates neither a batch buffer nor its order, and only
// the few small values its pipeline needs).
type Loader[B any] struct {
	cfg    config
	n      int
	steps  index.Steps // the schedule from the start of epoch 0
	gather func(*step[B])
	keep   spares[[]step[B]]     // batch buffers of finished runs, reused by the next
	runs   spares[*loaderRun[B]] // finished runs, reused by the next
}

// A loaderRun is a run of a Loader and the caller's function of its pass.
type loaderRun[B any] struct {
	*run[B]
	user  func(Batch[B]) bool
	yield func(s *step[B]) bool
}

// NewLoader returns a loader of c in batches of size. Options: [Shuffle] (or
// [ShufflePerm], [ShuffleBlocks]: an order per epoch, from a seed; without one
// every epoch is in data order), [Tail], [Partition] (one process's share of
// every step), [Owned], [Prefetch] and [Workers]. It panics with a
// [*container.ArgError] if size < 1. c must keep its Nobs while the loader is in
// use.
func NewLoader[T, B any](c container.Batched[T, B], size int, opts ...Option) *Loader[B] {
	return newLoader("NewLoader", c, size, opts)
}

// newLoader is NewLoader for op, the function the caller called, which its
// panics name.
func newLoader[T, B any](op string, c container.Batched[T, B], size int, opts []Option) *Loader[B] {
	cfg := newConfig(op, opts, optShuffle|optTail|optOwned|optPrefetch|optWorkers|optPartition|optMeasure)
	container.CheckArg(size >= 1, "eachobs."+op, "batch size", size, ">= 1")
	n := c.Nobs()
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

// Start returns the position of the first batch of epoch 0, where a job starts:
// Resume(Start()) runs every epoch.
func (l *Loader[B]) Start() Position {
	return Position{Seed: l.cfg.seed, Order: l.cfg.order.name, Nobs: l.n, Tail: l.cfg.tail}
}

// Epoch returns a loop over the batches of epoch e, as a loop started at epoch 0
// would yield them. The yielded batches are valid until the loop body returns,
// unless [Owned]. Epoch panics with a [*container.ArgError] if e is outside [0,
// Steps().MaxEpoch()].
func (l *Loader[B]) Epoch(e int) iter.Seq[Batch[B]] {
	l.steps.Len(e) // checks e
	return func(yield func(Batch[B]) bool) {
		l.run(l.epochStart(e), e, yield)
	}
}

// epochStart returns the schedule from the start of epoch 0 made to start at
// epoch e's first step.
func (l *Loader[B]) epochStart(e int) index.Steps {
	s, err := l.steps.Resume(l.steps.First(e))
	if err != nil { // cannot happen: First gives a position of the schedule
		panic("eachobs: the first step of an epoch does not resume: " + err.Error())
	}
	return s
}

// Resume returns a loop that starts at pos and runs through every later epoch:
// break out of it (at an epoch count, say, read from Batch.Pos.Epoch). Save
// b.Next() after consuming batch b; handing it back to Resume continues with the
// batch after b, also in a loader of another batch size, number of workers or
// number of parts. [Loader.Start] is the start.
//
// Resume returns an error wrapping [ErrPosition] when pos was taken under another
// order (a shuffle option or none), seed, number of observations or tail,
// naming the option that differs, and when pos is not a position of the stream
// (an epoch outside [0, Steps().MaxEpoch()], a count of observations outside the
// epoch, a negative batch). A loader whose epochs hold no batch at all (no
// observations, or Drop with a step larger than an epoch) yields nothing.
func (l *Loader[B]) Resume(pos Position) (iter.Seq[Batch[B]], error) {
	s, err := l.schedule("eachobs.Loader.Resume", pos)
	if err != nil {
		return nil, err
	}
	return func(yield func(Batch[B]) bool) {
		l.run(s, s.MaxEpoch(), yield)
	}, nil
}

// schedule returns the loader's schedule started at pos, or the error of
// Resume, for op.
func (l *Loader[B]) schedule(op string, pos Position) (index.Steps, error) {
	base := l.Start()
	switch {
	case pos.Order != base.Order:
		return l.steps, fmt.Errorf("%s: %s: the position's order is %q (%s), the loader's %q: %w", op, l.cfg.order.option, pos.Order, optionOf(pos.Order), base.Order, ErrPosition)
	case pos.Seed != base.Seed:
		return l.steps, fmt.Errorf("%s: %s: the position's seed is %d, the loader's %d: %w", op, l.cfg.order.option, pos.Seed, base.Seed, ErrPosition)
	case pos.Nobs != base.Nobs:
		return l.steps, fmt.Errorf("%s: the container: the position is of %d observations, the loader's container holds %d: %w", op, pos.Nobs, base.Nobs, ErrPosition)
	case pos.Tail != base.Tail:
		return l.steps, fmt.Errorf("%s: Tail: the position's tail is %v, the loader's %v: %w", op, pos.Tail, base.Tail, ErrPosition)
	}
	s, err := l.steps.Resume(pos.Epoch, pos.Consumed, pos.Batch)
	if err != nil {
		return l.steps, fmt.Errorf("%s: %w: %w", op, err, ErrPosition)
	}
	return s, nil
}

// Warm is [Loader.Resume] that starts gathering now, before the loop is
// ranged: the pipeline's goroutines prepare the first batches from pos (as many
// as Prefetch and Workers hold in flight, and one even for a loop built without
// them) while the caller does something else, such as building or loading a
// model, so that the first batch is ready when the range begins. The loop is
// single-use: range it once. stop ends the goroutines of a loop that will not
// be ranged (or not to its end) and is a no-op once a range has begun; call it
// in any case, with defer:
//
//	seq, stop, err := loader.Warm(pos)
//	if err != nil { ... }
//	defer stop()
//	model := build() // the first batches are gathered meanwhile
//	for b := range seq { ... }
//
// Warm returns the errors of Resume. A second range of seq yields nothing.
func (l *Loader[B]) Warm(pos Position) (seq iter.Seq[Batch[B]], stop func(), err error) {
	s, err := l.schedule("eachobs.Loader.Warm", pos)
	if err != nil {
		return nil, nil, err
	}
	cfg := l.cfg
	if cfg.workers == 1 && cfg.prefetch == 0 { // a serial loop gathers ahead in one goroutine
		cfg.prefetch = 1
	}
	workers, depth := cfg.pipeline()
	r := l.getRun()
	r.start(s, s.MaxEpoch())
	slots, _ := l.keep.get(func(s []step[B]) bool { return len(s) == depth })
	if slots == nil {
		slots = make([]step[B], depth)
	}
	fill, yield, begin, done := l.gather, r.yield, func() {}, func() {}
	if cfg.stats != nil {
		fill, yield, begin, done = measured(cfg.stats, fill, yield)
	}
	started := pipeline.Start(pipeline.Config{Op: "eachobs", Workers: workers}, slots, r.source, fill)
	var mu sync.Mutex
	state := 0 // 0: started, 1: ranged, 2: stopped
	release := func() {
		if !cfg.owned {
			l.keep.put(slots)
		}
		l.runs.put(r)
	}
	seq = func(user func(Batch[B]) bool) {
		mu.Lock()
		if state != 0 {
			mu.Unlock()
			return
		}
		state = 1
		mu.Unlock()
		defer release()
		defer done()
		r.user = user
		defer func() { r.user = nil }()
		begin()
		started.Consume(yield)
	}
	stop = func() {
		mu.Lock()
		defer mu.Unlock()
		if state == 0 {
			state = 2
			started.Stop()
			release()
		}
	}
	return seq, stop, nil
}

// getRun returns a finished run of the loader, or a new one.
func (l *Loader[B]) getRun() *loaderRun[B] {
	r, ok := l.runs.get(nil)
	if !ok {
		r = &loaderRun[B]{run: newRun[B](&l.cfg, l.n, l.steps.Size())}
		r.yield = func(s *step[B]) bool { return r.user(s.batch()) }
	}
	return r
}

// run runs the steps of sched from its start through epoch last into yield.
func (l *Loader[B]) run(sched index.Steps, last int, yield func(Batch[B]) bool) {
	r := l.getRun()
	defer l.runs.put(r)
	r.start(sched, last)
	r.user = yield
	defer func() { r.user = nil }() // the run keeps no caller's function
	runMeasured(&l.cfg, &l.keep, r.source, l.gather, r.yield)
}

// optionOf returns the option that chose the order of a position.
func optionOf(order string) string {
	for _, k := range []orderKind{dataKind, cipherKind, permKind} {
		if order == k.name {
			return k.option
		}
	}
	if strings.HasPrefix(order, "blocks ") {
		return "ShuffleBlocks"
	}
	if strings.HasPrefix(order, "within ") {
		return "ShuffleWithin"
	}
	return "not an order of the kit"
}
