// Package rangeloop is a copy of the kit's batch loop as it was before the
// loops became pull iterators (eachobs and internal/pipeline at 0d83244): a
// push loop whose source emits each step into a callback that prepares, gathers
// and yields it, without goroutines. It is kept here, unchanged in its work per
// batch, only as the baseline of bench's BenchmarkPullLoop, which measures what
// the pull form (eachobs.Iter.Next, and eachobs.Batches over it) costs per batch
// beside it. Only the serial loop with eachobs.Shuffle's cipher order and the
// Keep tail is kept: the one the benchmark runs.
package rangeloop

import (
	"iter"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
)

// A Batch is a step of the loop, as eachobs.Batch was.
type Batch[B any] struct {
	Data    B
	Indices []int
	Real    int
	Epoch   int
	Batch   int
	Count   int
}

type step[B any] struct {
	data  B
	idx   []int
	real  int
	epoch int
	batch int
	count int
}

// emit hands a step to the pipeline, as pipeline.Emit did.
type emit[S any] func(prepare func(s *S)) bool

// serial is the old pipeline.Run with no workers.
func serial[S any](slot *S, source func(emit[S]) error, work func(*S), yield func(*S) bool) error {
	stopped := false
	err := source(func(prepare func(*S)) bool {
		if stopped {
			return false
		}
		prepare(slot)
		if work != nil {
			work(slot)
		}
		stopped = !yield(slot)
		return !stopped
	})
	if stopped {
		return nil
	}
	return err
}

// run is the old eachobs run, for one epoch of the cipher order.
type run[B any] struct {
	sched   index.Steps
	n, e, k int
	count   int
	c       index.Cipher
	seed    uint64
	prepare func(*step[B])
}

func (r *run[B]) run(emit emit[step[B]]) error {
	steps := r.sched.Len(r.e)
	r.count = r.sched.Step(r.e, max(steps-1, 0)) + 1
	for ; r.k < steps; r.k++ {
		if _, _, _, total, _ := r.sched.Slots(r.e, r.k, 0); total == 0 {
			continue
		}
		if !emit(r.prepare) {
			return nil
		}
	}
	return nil
}

func (r *run[B]) step(s *step[B]) {
	first, _, real, total, _ := r.sched.Slots(r.e, r.k, 0)
	s.idx = container.Resize(s.idx, total)
	r.c.Fill(s.idx[:real], first-r.e*r.n)
	s.real = real
	s.epoch, s.batch, s.count = r.e, r.sched.Step(r.e, r.k), r.count
}

// Epoch returns a loop over the batches of size of epoch e of c in the order
// index.NewCipher(n, seed, e), the Keep tail, one buffer reused.
func Epoch[T, B any](c container.Batched[T, B], size int, seed uint64, e int) iter.Seq[Batch[B]] {
	n := c.Nobs()
	sched := index.NewSteps(n, size, 1, false, index.Keep)
	gather := func(s *step[B]) { s.data = c.GetObsInto(s.data, s.idx) }
	var slot step[B]
	return func(yield func(Batch[B]) bool) {
		r := &run[B]{sched: sched, n: n, e: e, seed: seed, c: index.NewCipher(n, seed, e)}
		r.prepare = r.step
		serial(&slot, r.run, gather, func(s *step[B]) bool {
			return yield(Batch[B]{Data: s.data, Indices: s.idx[:len(s.idx):len(s.idx)], Real: s.real, Epoch: s.epoch, Batch: s.batch, Count: s.count})
		})
	}
}
