package eachobs

import (
	"cmp"
	"fmt"
	"iter"
	"math/rand/v2"
	"sync"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/pipeline"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// Forever is the count of an endless random stream: break out of the loop.
const Forever = -1

// checkSampling panics, naming op, for a nil rng or a count below Forever, and
// returns an error wrapping container.ErrEmpty for draws from an empty container.
func checkSampling(op string, n, count int, rng *rand.Rand) error {
	container.CheckArg(rng != nil, "eachobs."+op, "rng", rng, "a *rand.Rand")
	container.CheckArg(count >= Forever, "eachobs."+op, "count", count, ">= 0, or Forever for an endless stream")
	if n == 0 && count != 0 {
		what := fmt.Sprintf("%d draws", count)
		if count == Forever {
			what = "endless draws"
		}
		return fmt.Errorf("eachobs.%s: %s from an empty container: %w", op, what, container.ErrEmpty)
	}
	return nil
}

// RandomObs returns a stream of count observations of c drawn uniformly with
// replacement from rng (MLDataPattern's RandomObs), each yielded with its index;
// count [Forever] gives an endless stream. Every pass draws from rng, so rng must
// not be used elsewhere, nor the stream ranged by two goroutines, while it runs:
//
//	draws, err := eachobs.RandomObs(c, 1000, rng)
//	if err != nil { ... }
//	for i, x := range draws { ... }
//
// RandomObs returns an error wrapping container.ErrEmpty when c is empty and
// count is not 0. It panics with a [*container.ArgError] if rng is nil or count
// is below Forever.
func RandomObs[T any](c container.Container[T], count int, rng *rand.Rand) (iter.Seq2[int, T], error) {
	if err := checkSampling("RandomObs", c.Nobs(), count, rng); err != nil {
		return nil, err
	}
	return func(yield func(int, T) bool) {
		n := c.Nobs()
		for k := 0; count == Forever || k < count; k++ {
			i := rng.IntN(n)
			if !yield(i, pipeline.Call("eachobs.RandomObs", k, func() T { return c.GetObs(i) })) {
				return
			}
		}
	}, nil
}

// RandomBatches returns a stream of count batches of size observations of c drawn
// uniformly with replacement (MLDataPattern's RandomBatches); count [Forever] gives
// an endless stream. Batches are gathered like those of [Batches]: one reused
// buffer (no allocation per batch), valid until the loop body returns unless
// [Owned]. Options: [Owned], [Prefetch], [Workers]; the sequence is the same for
// every setting of them.
//
// Each pass takes two numbers from rng when it starts and draws its indices from a
// generator seeded with them, so rng is touched only by the goroutine that ranges
// and only at the start: a stream broken off early leaves rng in the same state
// with or without prefetch. RandomBatches returns an error wrapping
// container.ErrEmpty when c is empty and count is not 0. It panics with a
// [*container.ArgError] if size < 1, rng is nil, count is below Forever, or an
// option does not apply.
func RandomBatches[T, B any](c container.Batched[T, B], size, count int, rng *rand.Rand, opts ...Option) (iter.Seq[Batch[B]], error) {
	cfg := newConfig("RandomBatches", opts, optOwned|optPrefetch|optWorkers|optMeasure)
	container.CheckArg(size >= 1, "eachobs.RandomBatches", "batch size", size, ">= 1")
	if err := checkSampling("RandomBatches", c.Nobs(), count, rng); err != nil {
		return nil, err
	}
	gather := gatherer(c)
	var (
		mu   sync.Mutex // guards rng and pass
		pass int
		keep spares[[]step[B]] // batch buffers of finished passes
	)
	return func(yield func(Batch[B]) bool) {
		mu.Lock()
		seed := rng.Uint64()
		draw := rand.New(rand.NewPCG(seed, rng.Uint64()))
		epoch := pass
		pass++
		mu.Unlock()
		n := c.Nobs()
		k := 0
		source := func(s *step[B]) bool {
			if count != Forever && k >= count {
				return false
			}
			if cfg.owned {
				var zero B
				s.data, s.idx = zero, nil
			}
			s.idx = container.Resize(s.idx, size)
			for j := range s.idx {
				s.idx[j] = draw.IntN(n)
			}
			s.real = size
			s.pos = Position{Epoch: epoch, Batch: k}
			s.next = Position{Epoch: epoch, Batch: k + 1}
			s.seed, s.epoch = seed, epoch
			s.count = count
			k++
			return true
		}
		p := newPass(&cfg, &keep, false, source, gather)
		defer p.end()
		for s, ok := p.next(); ok && yield(s.batch()); s, ok = p.next() {
		}
	}, nil
}

// BalancedObs returns a stream of count observations of the labeled container c
// drawn with replacement so that every class is equally likely (MLDataPattern's
// BalancedObs): each draw picks a class uniformly, then one of its members
// uniformly; count [Forever] gives an endless stream. c is labeled (observations
// tuples.Pair[X, L], such as a tuples.Zip2 of features and labels or a view of
// one); the classes are read once with subset.Classes, without gathering the
// features:
//
//	seq, err := eachobs.BalancedObs(data, 1000, rng)
//
// BalancedObs returns an error wrapping container.ErrEmpty when c is empty and
// count is not 0. It panics with a [*container.ArgError] if rng is nil or count is
// below Forever. The stream draws from rng as it goes, so rng must not be used
// elsewhere, nor the stream ranged by two goroutines, while it runs.
func BalancedObs[X any, L cmp.Ordered, B any](c container.Batched[tuples.Pair[X, L], B], count int, rng *rand.Rand) (iter.Seq2[int, tuples.Pair[X, L]], error) {
	if err := checkSampling("BalancedObs", c.Nobs(), count, rng); err != nil {
		return nil, err
	}
	classes := subset.Classes(c)
	return func(yield func(int, tuples.Pair[X, L]) bool) {
		for k := 0; count == Forever || k < count; k++ {
			g := classes[rng.IntN(len(classes))].Indices
			i := g[rng.IntN(len(g))]
			if !yield(i, pipeline.Call("eachobs.BalancedObs", k, func() tuples.Pair[X, L] { return c.GetObs(i) })) {
				return
			}
		}
	}, nil
}
