package eachobs

import (
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
)

// A run is the source of a pass of a loop over epochs: the schedule of its steps
// (index.Steps: which positions of the epoch's global order each step of the
// loop's part takes), the order that maps those positions to container indices,
// and where the pass stands. The running path is straight: the pipeline pulls
// [run.next], which walks the epochs and steps and writes each step's indices
// with one or two calls of the order per step; the part was checked when the
// option was made, and nothing is checked or looked up per index.
//
// A run's source is a method value made once, with the run; a Loader keeps
// finished runs for the next, so a pass allocates nothing per step and, once
// warm, nothing at all but the pipeline's few values.
type run[X any] struct {
	sched index.Steps
	order order
	part  int
	n     int
	base  Position // the seed, order, number of observations and tail of positions
	owned bool

	e, k    int  // the next step: step k of epoch e
	first   int  // the first epoch of the pass
	last    int  // the last epoch of the pass
	steps   int  // the number of steps of epoch e in the schedule
	count   int  // the number of batches of epoch e
	entered bool // epoch e's steps and count are known
	emitted bool // a step of epoch e was prepared

	source func(s *step[X]) bool
}

// newRun returns a run of a loop with config cfg over n observations, whose
// schedule [run.start] sets.
func newRun[X any](cfg *config, n int) *run[X] {
	r := &run[X]{
		order: cfg.order.make(n, cfg.seed),
		part:  cfg.part,
		n:     n,
		base:  Position{Seed: cfg.seed, Order: cfg.order.name, Nobs: n, Tail: cfg.tail},
		owned: cfg.owned,
	}
	r.source = r.next
	return r
}

// start sets the pass to run the steps of sched from its start through epoch
// last.
func (r *run[X]) start(sched index.Steps, last int) {
	r.sched = sched
	r.e, _, _ = sched.Start()
	r.first, r.k, r.last, r.entered = r.e, 0, last, false
}

// next is the pipeline's source: it prepares the next step of the pass in s,
// or returns false at the pass's end.
func (r *run[X]) next(s *step[X]) bool {
	for r.e <= r.last {
		if !r.entered {
			r.steps = r.sched.Len(r.e)
			r.count = r.sched.Step(r.e, max(r.steps-1, 0)) + 1
			r.entered, r.emitted = true, false
		}
		for r.k < r.steps {
			k := r.k
			r.k++
			if _, _, _, total, _ := r.sched.Slots(r.e, k, r.part); total == 0 {
				continue // Keep: the part has nothing in the epoch's last step
			}
			r.emitted = true
			r.step(s, k)
			return true
		}
		// Every epoch after the first is whole, and the same but with RollOver:
		// one that gave this part nothing means none ever will (no observations,
		// or Drop with a step larger than an epoch).
		if !r.emitted && r.e > r.first && (r.sched.Tail() != index.RollOver || r.n == 0) {
			return false
		}
		r.e, r.k, r.entered = r.e+1, 0, false
	}
	return false
}

// step prepares step k of epoch e in slot s: its indices, its position and the
// position after it.
func (r *run[X]) step(s *step[X], k int) {
	if r.owned { // fresh memory for every step
		var zero X
		s.data, s.idx = zero, nil
	}
	first, stride, real, total, end := r.sched.Slots(r.e, k, r.part)
	s.idx = container.Resize(s.idx, total)
	r.stream(s.idx[:real], first, stride)
	for j := real; j < total; j++ { // padding: position (g-end) mod n of epoch e
		r.order.fill(s.idx[j:j+1], r.e, (first+j*stride-end)%r.n, 1)
	}
	s.real = real
	start, _ := r.sched.Span(r.e, k)
	s.pos = r.base
	s.pos.Epoch, s.pos.Batch, s.pos.Consumed = r.e, r.sched.Step(r.e, k), start-r.e*r.n
	s.next = r.base
	s.next.Epoch, s.next.Consumed, s.next.Batch = r.sched.After(r.e, k)
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
