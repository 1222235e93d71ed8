package eachobs

import (
	"slices"
	"sync"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/pipeline"
)

// step is one slot of a loop: a batch (or an observation, for Obs) and where it
// comes from. The pipeline reuses slots from step to step.
type step[X any] struct {
	data    X
	idx     []int
	real    int
	pos     Position
	count   int
	scratch []int // for the gather function's own use (mapped indices)

	// The pass whose randomness a random container draws with (the loop's seed
	// and epoch), and the slot's own generator, made on first use and reseeded
	// from then on: the randomness of the worker that gathers the slot.
	seed  uint64
	epoch int
	rnd   container.ObsRand
	gen   bool
}

// obsRand returns the randomness of the step's pass, on the slot's generator.
func (s *step[X]) obsRand() container.ObsRand {
	if !s.gen {
		s.rnd, s.gen = container.NewObsRand(s.seed, s.epoch), true
	} else if s.rnd.Seed() != s.seed || s.rnd.Epoch() != s.epoch {
		s.rnd = s.rnd.Pass(s.seed, s.epoch)
	}
	return s.rnd
}

// spares keeps up to two values (slot rings, permutations) of finished runs for
// the next run of the same loop, so that a steady-state epoch allocates neither
// its buffers nor O(n) memory.
type spares[V any] struct {
	mu   sync.Mutex
	free []V
}

func (s *spares[V]) get(fits func(V) bool) (v V, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.free {
		if fits == nil || fits(x) {
			s.free = slices.Delete(s.free, i, i+1)
			return x, true
		}
	}
	return v, false
}

func (s *spares[V]) put(v V) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.free) < 2 {
		s.free = append(s.free, v)
	}
}

// A pass is what one run of a loop hands the pipeline: while more(k) (checked in
// order, before step k), next prepares step k's indices. Its pipeline functions
// are built once, by init, and read the step number from the pass, so that a
// pass kept from run to run (a Loader keeps them) allocates nothing per run and
// nothing per step.
type pass[X any] struct {
	more func(k int) bool
	next func(s *step[X], k int)

	k       int
	owned   bool
	prepare func(s *step[X])
	source  func(emit pipeline.Emit[step[X]]) error
}

func (p *pass[X]) init() {
	p.prepare = func(s *step[X]) {
		if p.owned { // fresh memory for every step
			var zero X
			s.data, s.idx = zero, nil
		}
		p.next(s, p.k)
	}
	p.source = func(emit pipeline.Emit[step[X]]) error {
		for p.k = 0; p.more(p.k); p.k++ {
			if !emit(p.prepare) {
				return nil
			}
		}
		return nil
	}
}

// run runs the pass through the one pipeline: fill gathers each step (in the
// pipeline's workers when there are any) and yield receives them in order. The
// slots come from keep (when not nil) and go back to it, unless the loop hands
// out owned batches.
func (p *pass[X]) run(cfg *config, keep *spares[[]step[X]], fill func(s *step[X]), yield func(s *step[X]) bool) {
	workers, depth := cfg.pipeline()
	var slots []step[X]
	if keep != nil {
		slots, _ = keep.get(func(s []step[X]) bool { return len(s) == depth })
	}
	if slots == nil {
		slots = make([]step[X], depth)
	}
	if keep != nil && !cfg.owned {
		defer keep.put(slots) // the slots in use, not the nil of a first run
	}
	p.owned = cfg.owned
	pipeline.Run(pipeline.Config{Op: "eachobs", Workers: workers}, slots, p.source, fill, yield)
}

// loop runs a pass made for one run.
func loop[X any](cfg *config, more func(k int) bool, keep *spares[[]step[X]], next func(s *step[X], k int), fill func(s *step[X]), yield func(s *step[X]) bool) {
	p := &pass[X]{more: more, next: next}
	p.init()
	p.run(cfg, keep, fill, yield)
}

// gatherer returns the fill function of a batch loop over c: one GetObsInto
// call. When c is a [container.IndexView] (a subset, a split, a fold) it maps
// the indices itself into the step's scratch list and gathers from the source,
// so that no shared pool is touched per batch. A [container.Random] container
// (or the source of a view) gathers with GetObsRandInto and the randomness of
// the step's pass.
func gatherer[T, B any](c container.Batched[T, B]) func(s *step[B]) {
	if v, ok := c.(container.IndexView[T, B]); ok {
		src := v.Source()
		if rs, ok := src.(container.Random[T, B]); ok {
			return func(s *step[B]) {
				s.scratch = v.MapIndices(s.scratch, s.idx)
				s.data = rs.GetObsRandInto(s.data, s.scratch, s.obsRand())
			}
		}
		return func(s *step[B]) {
			s.scratch = v.MapIndices(s.scratch, s.idx)
			s.data = src.GetObsInto(s.data, s.scratch)
		}
	}
	if rc, ok := c.(container.Random[T, B]); ok {
		return func(s *step[B]) { s.data = rc.GetObsRandInto(s.data, s.idx, s.obsRand()) }
	}
	return func(s *step[B]) { s.data = c.GetObsInto(s.data, s.idx) }
}

// upTo returns the more function of a loop of total steps (endless when total
// < 0).
func upTo(total int) func(k int) bool {
	return func(k int) bool { return total < 0 || k < total }
}

// batch returns the Batch a step yields, its index list capped so that appending
// to it cannot overwrite the loop's buffer.
func (s *step[B]) batch() Batch[B] {
	return Batch[B]{Data: s.data, Indices: s.idx[:len(s.idx):len(s.idx)], Real: s.real, Pos: s.pos, Count: s.count}
}
