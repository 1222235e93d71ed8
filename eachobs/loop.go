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

// loop runs one pass through the one pipeline: while more(k) (checked in order,
// before step k), next prepares step k's indices, fill gathers it (in the
// pipeline's workers when there are any), and yield receives it in order.
func loop[X any](cfg *config, more func(k int) bool, keep *spares[[]step[X]], next func(s *step[X], k int), fill func(s *step[X]), yield func(s *step[X]) bool) {
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
	owned := cfg.owned
	// One prepare function for the run, not a closure per step (which would
	// allocate on every batch): emit calls it before it returns, so it reads the
	// k of the step being emitted.
	var k int
	prepare := func(s *step[X]) {
		if owned { // fresh memory for every step
			var zero X
			s.data, s.idx = zero, nil
		}
		next(s, k)
	}
	pipeline.Run(pipeline.Config{Op: "eachobs", Workers: workers}, slots, func(emit pipeline.Emit[step[X]]) error {
		for k = 0; more(k); k++ {
			if !emit(prepare) {
				return nil
			}
		}
		return nil
	}, fill, yield)
}

// gatherer returns the fill function of a batch loop over c: one GetObsInto
// call. When c is a [container.IndexView] (a subset, a split, a fold) it maps
// the indices itself into the step's scratch list and gathers from the source,
// so that no shared pool is touched per batch.
func gatherer[T, B any](c container.Batched[T, B]) func(s *step[B]) {
	if v, ok := c.(container.IndexView[T, B]); ok {
		src := v.Source()
		return func(s *step[B]) {
			s.scratch = v.MapIndices(s.scratch, s.idx)
			s.data = src.GetObsInto(s.data, s.scratch)
		}
	}
	return func(s *step[B]) { s.data = c.GetObsInto(s.data, s.idx) }
}

// upTo returns the more function of a loop of total steps (endless when total
// < 0).
func upTo(total int) func(k int) bool {
	return func(k int) bool { return total < 0 || k < total }
}

// yieldBatch adapts a loop's yield to a step.
func yieldBatch[B any](yield func(Batch[B]) bool) func(*step[B]) bool {
	return func(s *step[B]) bool {
		return yield(Batch[B]{Data: s.data, Indices: s.idx[:len(s.idx):len(s.idx)], Real: s.real, Pos: s.pos, Count: s.count})
	}
}
