package eachobs

import (
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/internal/pipeline"
)

// A run is one pass of a loop over epochs: the schedule of its steps
// (index.Steps: which positions of the epoch's global order each step of the
// loop's part takes), the order that maps those positions to container indices,
// and where the pass stands. The running path is straight: the pipeline's
// source calls [run.source], which walks the epochs and steps and hands each
// step to [run.prepare], which writes the step's indices with one or two calls
// of the order per step; the part was checked when the option was made, and
// nothing is checked or looked up per index.
//
// A run's pipeline functions are method values made once, with the run; a
// Loader keeps finished runs for the next, so a pass allocates nothing per step
// and, once warm, nothing at all but the pipeline's few values.
type run[X any] struct {
	sched index.Steps
	order order
	part  int
	n     int
	base  Position // the seed, order, number of observations and tail of positions
	owned bool

	e, k  int // the next step: step k of epoch e
	last  int // the last epoch of the pass
	count int // the number of steps of epoch e

	source  func(emit pipeline.Emit[step[X]]) error
	prepare func(s *step[X])
}

// newRun returns a run of a loop with config cfg over n observations in batches
// of size, from the start of epoch 0.
func newRun[X any](cfg *config, n, size int) *run[X] {
	r := &run[X]{
		sched: index.NewSteps(n, size, cfg.parts, cfg.strided, cfg.tail),
		order: cfg.order.make(n, cfg.seed),
		part:  cfg.part,
		n:     n,
		base:  Position{Seed: cfg.seed, Order: cfg.order.name, Nobs: n, Tail: cfg.tail},
		owned: cfg.owned,
	}
	r.source = r.run
	r.prepare = r.step
	return r
}

// start sets the pass to run the steps of sched from its start through epoch
// last.
func (r *run[X]) start(sched index.Steps, last int) {
	r.sched = sched
	r.e, _, _ = sched.Start()
	r.k, r.last = 0, last
}

// run is the pipeline's source: it emits the steps of the pass in order.
func (r *run[X]) run(emit pipeline.Emit[step[X]]) error {
	first := r.e
	for ; r.e <= r.last; r.e, r.k = r.e+1, 0 {
		steps := r.sched.Len(r.e)
		r.count = r.sched.Step(r.e, max(steps-1, 0)) + 1
		emitted := false
		for ; r.k < steps; r.k++ {
			if _, _, _, total, _ := r.sched.Slots(r.e, r.k, r.part); total == 0 {
				continue // Keep: the part has nothing in the epoch's last step
			}
			emitted = true
			if !emit(r.prepare) {
				return nil
			}
		}
		// Every epoch after the first is whole, and the same but with RollOver:
		// one that gave this part nothing means none ever will (no observations,
		// or Drop with a step larger than an epoch).
		if !emitted && r.e > first && (r.sched.Tail() != index.RollOver || r.n == 0) {
			return nil
		}
	}
	return nil
}

// step prepares step k of epoch e in slot s: its indices, its position and the
// position after it.
func (r *run[X]) step(s *step[X]) {
	if r.owned { // fresh memory for every step
		var zero X
		s.data, s.idx = zero, nil
	}
	first, stride, real, total, end := r.sched.Slots(r.e, r.k, r.part)
	s.idx = container.Resize(s.idx, total)
	r.stream(s.idx[:real], first, stride)
	for j := real; j < total; j++ { // padding: position (g-end) mod n of epoch e
		r.order.fill(s.idx[j:j+1], r.e, (first+j*stride-end)%r.n, 1)
	}
	s.real = real
	start, _ := r.sched.Span(r.e, r.k)
	s.pos = r.base
	s.pos.Epoch, s.pos.Batch, s.pos.Consumed = r.e, r.sched.Step(r.e, r.k), start-r.e*r.n
	s.next = r.base
	s.next.Epoch, s.next.Consumed, s.next.Batch = r.sched.After(r.e, r.k)
	s.count = r.count
	s.seed, s.epoch = r.base.Seed, r.e
}

// stream writes the container indices of the stream positions g, g+stride, ...
// into dst: position g%n of epoch g/n, with one call of the order per epoch the
// positions touch (two for a roll-over step that crosses an epoch).
func (r *run[X]) stream(dst []int, g, stride int) {
	for len(dst) > 0 {
		e, pos := g/r.n, g%r.n
		m := min(len(dst), (r.n-pos+stride-1)/stride) // the positions left in epoch e
		r.order.fill(dst[:m], e, pos, stride)
		dst, g = dst[m:], g+m*stride
	}
}
