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

// A pass is the pipeline of one pass of a loop, pulled by the loop's iterator:
// the pipe over slots taken from keep (when not nil), given back when the pass
// ends unless the loop hands out owned batches, and measured under [Measure].
type pass[X any] struct {
	pipe  *pipeline.Pipe[step[X]]
	slots []step[X]
	keep  *spares[[]step[X]]
	m     *meter[X] // nil without Measure
}

// newPass returns a pass of a loop with config cfg whose source prepares the
// steps and fill gathers them. warm makes a serial loop gather one step ahead,
// in a goroutine, so that the pass can start before it is pulled.
func newPass[X any](cfg *config, keep *spares[[]step[X]], warm bool, source func(*step[X]) bool, fill func(*step[X])) *pass[X] {
	c := *cfg
	if warm && c.workers == 1 && c.prefetch == 0 {
		c.prefetch = 1
	}
	workers, depth := c.pipeline()
	p := &pass[X]{keep: keep}
	if keep != nil {
		p.slots, _ = keep.get(func(s []step[X]) bool { return len(s) == depth })
		if c.owned {
			p.keep = nil // the batches are the caller's
		}
	}
	if p.slots == nil {
		p.slots = make([]step[X], depth)
	}
	if c.stats != nil {
		p.m = newMeter[X](c.stats)
		fill = p.m.measure(fill)
	}
	p.pipe = pipeline.New(pipeline.Config{Op: "eachobs", Workers: workers}, p.slots, source, fill)
	if warm {
		p.pipe.Start()
	}
	return p
}

// next returns the next step of the pass, or false at its end.
func (p *pass[X]) next() (*step[X], bool) {
	if p.m == nil {
		return p.pipe.Next()
	}
	t := time.Now()
	s, ok := p.pipe.Next()
	p.m.got(s, ok, t)
	return s, ok
}

// end stops the pass's goroutines, adds its figures to the loop's Stats and
// gives its slots back.
func (p *pass[X]) end() {
	p.pipe.Stop()
	if p.m != nil {
		p.m.done()
	}
	if p.keep != nil {
		p.keep.put(p.slots)
	}
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
