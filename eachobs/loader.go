package eachobs

import (
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
)

// ErrPosition is wrapped by the error [Loader.Resume] returns for a position that
// does not belong to the loader: another seed, an epoch outside [0,
// Plan().MaxEpoch()], or a batch past the end of its epoch.
var ErrPosition = errors.New("position does not fit the loader")

// A Loader is a multi-epoch batch loop whose every random choice derives from a
// seed: with [Shuffle](seed), epoch e visits the container in an order that
// depends on (seed, e) alone, so any epoch, and any batch within it, can be
// produced without running the ones before. This gives
//
//   - reproducible training: equal seeds give equal sequences, whatever the
//     prefetch and worker settings;
//   - exact resumption: a [Position] (seed, epoch, batch) saved in a checkpoint
//     continues mid-epoch with [Loader.Resume], without replaying data;
//   - roll-over without state: with the index.RollOver tail the tail of epoch e-1
//     leads epoch e, computed from epoch e-1's permutation, so the container and
//     the loader stay stateless.
//
// B is the container's batch type. A Loader is safe for concurrent use: its
// settings never change, and each run of [Loader.Epoch] or [Loader.Resume] has its
// own buffers and permutation (taken over from a finished run when one is free,
// so a steady-state epoch allocates neither a batch buffer nor O(n) memory, and
// only the few small values its pipeline needs).
type Loader[B any] struct {
	seed   uint64
	n      int
	plan   index.Plan
	cfg    config
	gather func(*step[B])
	keep   spares[[]step[B]]     // batch buffers of finished runs, reused by the next
	runs   spares[*loaderRun[B]] // the state of finished runs, reused by the next
}

// NewLoader returns a loader of c in batches of size. Options: [Shuffle] (per
// epoch, from a seed; without it every epoch is in data order), [Tail],
// [Partition] (one worker's share of every epoch), [Owned], [Prefetch] and
// [Workers]. It panics with a [*container.ArgError] if size < 1. c must keep its
// Nobs while the loader is in use.
func NewLoader[T, B any](c container.Batched[T, B], size int, opts ...Option) *Loader[B] {
	return newLoader("NewLoader", c, size, opts)
}

// newLoader is NewLoader for op, the function the caller called, which its
// panics name.
func newLoader[T, B any](op string, c container.Batched[T, B], size int, opts []Option) *Loader[B] {
	cfg := newConfig(op, opts, optShuffle|optTail|optOwned|optPrefetch|optWorkers|optPartition)
	container.CheckArg(size >= 1, "eachobs."+op, "batch size", size, ">= 1")
	n := c.Nobs()
	return &Loader[B]{
		seed:   cfg.seed,
		n:      n,
		plan:   index.NewPlan(cfg.partLen(n), size, cfg.tail),
		cfg:    cfg,
		gather: gatherer(c),
	}
}

// Seed returns the loader's seed: the one given to [Shuffle], or 0.
func (l *Loader[B]) Seed() uint64 { return l.seed }

// Plan returns the loader's batch plan: the positions of one epoch (of the
// loader's part, with [Partition]), the batch size and the tail.
func (l *Loader[B]) Plan() index.Plan { return l.plan }

// Len returns the number of batches of epoch e, the same for every epoch except
// with the index.RollOver tail. It panics with a [*container.ArgError] if e is
// outside [0, Plan().MaxEpoch()].
func (l *Loader[B]) Len(e int) int { return l.plan.Len(e) }

// Epoch returns a loop over the batches of epoch e. It is the part of the stream
// of [Loader.Resume] that belongs to epoch e; batches carry Pos = (seed, e, k). The
// yielded batches are valid until the loop body returns, unless [Owned]. Epoch
// panics with a [*container.ArgError] if e is outside [0, Plan().MaxEpoch()].
func (l *Loader[B]) Epoch(e int) iter.Seq[Batch[B]] {
	return l.stream(Position{Seed: l.seed, Epoch: e}, l.plan.Len(e))
}

// Resume returns a loop that starts at pos and runs through every later epoch:
// break out of it (at an epoch count, say, read from Batch.Pos.Epoch). Save
// b.Next() after consuming batch b; handing it back to Resume continues with the
// batch after b. The zero Position with the loader's seed is the start.
//
// Resume returns an error wrapping [ErrPosition] when pos has another seed, an epoch
// outside [0, Plan().MaxEpoch()] (about math.MaxInt/n: no position past it can be
// counted) or a batch outside [0, Len(pos.Epoch)]. A loader whose epochs hold no
// batch at all (no observations, or Drop with a size above their number) yields
// nothing; the loop ends after epoch Plan().MaxEpoch().
func (l *Loader[B]) Resume(pos Position) (iter.Seq[Batch[B]], error) {
	const op = "eachobs.Loader.Resume"
	switch max := l.plan.MaxEpoch(); {
	case pos.Seed != l.seed:
		return nil, fmt.Errorf("%s: %w: seed %d, the loader's is %d", op, ErrPosition, pos.Seed, l.seed)
	case pos.Epoch < 0 || pos.Epoch > max:
		return nil, fmt.Errorf("%s: %w: epoch %d outside [0, %d]", op, ErrPosition, pos.Epoch, max)
	case pos.Batch < 0 || pos.Batch > l.plan.Len(pos.Epoch):
		return nil, fmt.Errorf("%s: %w: batch %d outside [0, %d] in epoch %d", op, ErrPosition, pos.Batch, l.plan.Len(pos.Epoch), pos.Epoch)
	}
	if l.plan.N() == 0 || (l.plan.Tail() != index.RollOver && l.plan.Len(0) == 0) {
		return func(func(Batch[B]) bool) {}, nil
	}
	return l.stream(pos, -1), nil
}

// stream returns the loop from pos over total batches (-1: to the last epoch).
func (l *Loader[B]) stream(pos Position, total int) iter.Seq[Batch[B]] {
	return func(yield func(Batch[B]) bool) { l.run(pos, total, yield) }
}

// A loaderRun is the state of one run of a Loader: its permutation, where it
// stands, and the functions the pipeline calls, built once and kept with the
// loader for the next run.
type loaderRun[B any] struct {
	o        *epochOrder
	e, b     int // the epoch and batch of the next step
	total    int // steps of the run, or -1: to the last epoch
	user     func(Batch[B]) bool
	p        pass[B]
	yieldFun func(s *step[B]) bool
}

// run runs the loop from pos over total batches into yield.
func (l *Loader[B]) run(pos Position, total int, yield func(Batch[B]) bool) {
	r, ok := l.runs.get(nil)
	if !ok {
		r = l.newRun()
	}
	defer l.runs.put(r)
	r.e, r.b, r.total, r.user = pos.Epoch, pos.Batch, total, yield
	defer func() { r.user = nil }() // the run keeps no caller's function
	r.p.run(&l.cfg, &l.keep, l.gather, r.yieldFun)
}

func (l *Loader[B]) newRun() *loaderRun[B] {
	r := &loaderRun[B]{o: newEpochOrder(l.seed, l.n, l.cfg.part, l.cfg.shuffle)}
	last := l.plan.MaxEpoch()
	r.p.more = func(k int) bool {
		if r.total >= 0 {
			return k < r.total
		}
		for r.e <= last && r.b >= l.plan.Len(r.e) {
			r.e, r.b = r.e+1, 0
		}
		return r.e <= last
	}
	r.p.next = func(s *step[B], _ int) {
		s.idx, s.real = l.plan.Indices(s.idx, r.e, r.b, r.o.at)
		s.pos = Position{Seed: l.seed, Epoch: r.e, Batch: r.b}
		s.seed, s.epoch = l.seed, r.e
		s.count = l.plan.Len(r.e)
		r.b++
	}
	r.yieldFun = func(s *step[B]) bool {
		return r.user(s.batch())
	}
	r.p.init()
	return r
}

// epochOrder is a run's view of the epochs' permutations: the permutation of one
// epoch at a time, redrawn from (seed, epoch) when the run reaches another epoch.
type epochOrder struct {
	seed  uint64
	part  *index.Part
	n     int
	perm  []int // nil: data order
	epoch int
	src   *rand.PCG
	rng   *rand.Rand
}

func newEpochOrder(seed uint64, n int, part *index.Part, shuffle bool) *epochOrder {
	if !shuffle {
		return &epochOrder{part: part, n: n}
	}
	src := rand.NewPCG(seed, 0)
	return &epochOrder{seed: seed, part: part, n: n, perm: make([]int, n), epoch: -1, src: src, rng: rand.New(src)}
}

// at returns the container index of position pos of epoch e (of the part).
func (o *epochOrder) at(e, pos int) int {
	if o.perm != nil && e != o.epoch {
		o.src.Seed(o.seed, uint64(e))
		index.PermInto(o.perm, o.rng)
		o.epoch = e
	}
	return visit(o.part, o.perm, o.n, pos)
}
