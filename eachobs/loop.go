package eachobs

import (
	"slices"
	"sync"
	"time"

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
	next    Position
	count   int
	scratch []int         // for the gather function's own use (mapped indices)
	busy    time.Duration // the time of the gather (Measure)

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

// runPipeline runs one pass of a loop through the one pipeline: source emits the
// steps in order, fill gathers each (in the pipeline's workers when there are
// any) and yield receives them in order. The slots come from keep (when not nil)
// and go back to it, unless the loop hands out owned batches.
func runPipeline[X any](cfg *config, keep *spares[[]step[X]], source func(pipeline.Emit[step[X]]) error, fill func(s *step[X]), yield func(s *step[X]) bool) {
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
	pipeline.Run(pipeline.Config{Op: "eachobs", Workers: workers}, slots, source, fill, yield)
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

// batch returns the Batch a step yields, its index list capped so that appending
// to it cannot overwrite the loop's buffer.
func (s *step[B]) batch() Batch[B] {
	return Batch[B]{Data: s.data, Indices: s.idx[:len(s.idx):len(s.idx)], Real: s.real, Pos: s.pos, Count: s.count, next: s.next}
}
