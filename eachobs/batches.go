package eachobs

import (
	"iter"
	"sync"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
)

// Batches returns a loop over the batches of size of c, one epoch per range
// statement:
//
//	for b := range eachobs.Batches(data, 128, eachobs.Shuffle(seed)) {
//		train(b.Data) // valid until the next step
//	}
//
// It is the thin form of a [Loader]: the first range runs epoch 0 of
// NewLoader(c, size, opts...), the next range epoch 1, and so on, so a loop over
// Batches and a loop over the Loader's epochs yield the same batches. Options are
// the Loader's: [Shuffle] (a fresh permutation per epoch, from a seed), [Tail],
// [Partition], [Owned], [Prefetch] and [Workers]. Without Shuffle every epoch
// visits c in order. With the index.RollOver tail the tail of one range leads the
// first batch of the next. Batch.Pos.Epoch counts the ranges.
//
// Each batch is gathered by c.GetObsInto into one buffer that the loop reuses, so
// after the first batch the loop allocates nothing per batch (for a
// container.IndexView such as a subset, it gathers from the view's source with a
// scratch index list of its own). The yielded [Batch] is valid until the loop
// body returns; [Owned] gives newly allocated batches instead.
//
// The iterator counts its ranges under a lock, so it may be ranged by several
// goroutines at once; epochs are then numbered in the order the ranges start.
// Separate iterators over one container are independent: loops may nest and run
// in parallel. Batches panics with a [*container.ArgError] if size < 1 or an
// option does not apply. c must not change its Nobs while the loop is in use.
func Batches[T, B any](c container.Batched[T, B], size int, opts ...Option) iter.Seq[Batch[B]] {
	l := newLoader("Batches", c, size, opts)
	var (
		mu    sync.Mutex
		epoch int
	)
	return func(yield func(Batch[B]) bool) {
		mu.Lock()
		e := epoch
		epoch++
		mu.Unlock()
		l.Epoch(e)(yield)
	}
}

// Obs returns a loop over the observations of c, yielding each container index
// with its observation (as c.GetObs returns it, so it is the caller's to keep):
//
//	for i, x := range eachobs.Obs(data, eachobs.Shuffle(seed)) { ... }
//
// Options: [Shuffle] (a fresh permutation per range, the permutation of epoch e
// for the e-th range, as in [Batches]), [Partition], [Prefetch] and [Workers]
// (observations loaded ahead, or by w goroutines, in the same order as without
// them: useful when GetObs reads a file or decodes). The iterator may be ranged by
// several goroutines at once. Obs panics with a [*container.ArgError] if an
// option does not apply.
func Obs[T any](c container.Container[T], opts ...Option) iter.Seq2[int, T] {
	cfg := newConfig("Obs", opts, optShuffle|optPrefetch|optWorkers|optPartition|optMeasure)
	cfg.useBlocks("Obs", c, container.BlockStarts(c), c.Nobs())
	get := func(s *step[T]) { s.data = c.GetObs(s.idx[0]) }
	if rc, ok := c.(interface {
		GetObsRand(int, container.ObsRand) T
	}); ok {
		get = func(s *step[T]) { s.data = rc.GetObsRand(s.idx[0], s.obsRand()) }
	}
	var (
		mu    sync.Mutex
		epoch int
		runs  spares[*run[T]]
	)
	return func(yield func(int, T) bool) {
		mu.Lock()
		e := epoch
		epoch++
		mu.Unlock()
		n := c.Nobs()
		r, ok := runs.get(func(r *run[T]) bool { return r.n == n })
		if !ok {
			r = newRun[T](&cfg, n)
		}
		defer runs.put(r)
		s, err := index.NewSteps(n, 1, cfg.parts, cfg.strided, index.Keep).Resume(e, 0, 0)
		if err != nil {
			panic(&container.ArgError{Op: "eachobs.Obs", Arg: "pass", Value: e, Want: err.Error()})
		}
		r.start(s, e)
		p := newPass(&cfg, nil, false, r.source, get)
		defer p.end()
		for s, ok := p.next(); ok && yield(s.idx[0], s.data); s, ok = p.next() {
		}
	}
}
