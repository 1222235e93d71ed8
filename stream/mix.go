package stream

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/state"
	"github.com/obskit/obskit/mix"
)

// Mix returns a [Stream] mixing sources by weights, the stream form of package
// mix's containers: each step takes the next value of the source whose turn it
// is by stride scheduling (the source of weight w_j is due at (u+1/2)/w_j for its
// u-th value; ties go to the source the seed puts first), so every stretch of the
// stream holds each source in its share, as mix.New lays out a container. The
// lengths of streams are not known in advance, so the rule acts as a source
// ends:
//
//   - mix.FirstExhausted: the stream ends when a source ends (an empty source
//     ends it when its first turn comes, after the values before it);
//   - mix.AllExhausted: a source that ends leaves, and the others go on in the
//     ratio of their weights, until all have ended; every value of every source
//     is yielded once;
//   - mix.Resample: a source that ends starts a new pass (from its start: a
//     shuffle in it draws the same order again) until every source has ended at
//     least once; a source that ends without a value ends the stream with an
//     error wrapping container.ErrEmpty.
//
// Its state is a few bytes per source (its count, whether it has ended) and the
// sources' states. Mix panics with a [*container.ArgError] if there are no
// sources, the number of weights differs, a weight is not a positive finite
// number, or the rule is unknown.
func Mix[T any](rule mix.Rule, weights []float64, seed uint64, sources ...Stream[T]) Stream[T] {
	const op = "stream.Mix"
	container.CheckArg(len(sources) > 0, op, "sources", "none", "at least one")
	container.CheckArg(len(weights) == len(sources), op, "weights", weights, fmt.Sprintf("%d weights, one per source", len(sources)))
	for _, w := range weights {
		container.CheckArg(w > 0 && !math.IsInf(w, 0), op, "weight", w, "a positive finite number")
	}
	container.CheckArg(rule <= mix.Resample, op, "rule", rule, "mix.FirstExhausted, mix.AllExhausted or mix.Resample")
	n := mixNode[T]{rule: rule, weights: append([]float64(nil), weights...), srcs: make([]node[T], len(sources))}
	for j, s := range sources {
		s.check(op)
		n.srcs[j] = s.n
	}
	n.priority = rand.New(rand.NewPCG(seed, 0x6d6978)).Perm(len(sources))
	return Stream[T]{n}
}

type mixNode[T any] struct {
	rule     mix.Rule
	weights  []float64
	priority []int
	srcs     []node[T]
}

func (n mixNode[T]) ordered() bool { return allOrdered(n.srcs) }
func (n mixNode[T]) iter(e int) iterator[T] {
	k := len(n.srcs)
	it := &mixIter[T]{n: n, epoch: e, srcs: make([]iterator[T], k), used: make([]int, k), gone: make([]bool, k), ended: make([]bool, k), got: make([]int, k)}
	for j, s := range n.srcs {
		it.srcs[j] = s.iter(e)
	}
	return it
}

type mixIter[T any] struct {
	n     mixNode[T]
	epoch int
	srcs  []iterator[T]
	used  []int  // per source: values taken in this phase (the stride counters)
	gone  []bool // per source: no longer drawn from (AllExhausted)
	ended []bool // per source: has ended at least once (Resample)
	got   []int  // per source: values yielded by its current pass (Resample)
	done  bool
}

// turn returns the source whose turn it is, or -1 when none is left.
func (it *mixIter[T]) turn() int {
	best, due := -1, 0.0
	for j, w := range it.n.weights {
		if it.gone[j] {
			continue
		}
		d := (float64(it.used[j]) + 0.5) / w
		if best < 0 || d < due || d == due && it.n.priority[j] < it.n.priority[best] {
			best, due = j, d
		}
	}
	return best
}

func (it *mixIter[T]) next() (T, error, bool) {
	var zero T
	for !it.done {
		j := it.turn()
		if j < 0 {
			break
		}
		v, err, ok := it.srcs[j].next()
		if err != nil {
			it.done = true
			return zero, err, false
		}
		if ok {
			it.used[j]++
			it.got[j]++
			return v, nil, true
		}
		switch it.n.rule {
		case mix.FirstExhausted:
			it.done = true
		case mix.AllExhausted:
			it.gone[j] = true
			clear(it.used) // a new phase: the others share the positions from here
		case mix.Resample:
			if it.got[j] == 0 {
				it.done = true
				return zero, fmt.Errorf("stream.Mix: source %d ended without a value: %w", j, container.ErrEmpty), false
			}
			it.ended[j] = true
			all := true
			for _, e := range it.ended {
				all = all && e
			}
			if all {
				it.done = true
				break
			}
			it.srcs[j].close()
			it.srcs[j], it.got[j] = it.n.srcs[j].iter(it.epoch), 0
		}
	}
	return zero, nil, false
}

func (it *mixIter[T]) save(w *state.Writer) {
	w.String("mix")
	w.Int(len(it.srcs))
	w.Int(int(it.n.rule))
	for _, x := range it.n.weights {
		w.Float(x)
	}
	w.Bool(it.done)
	for j := range it.srcs {
		w.Uint(uint64(it.used[j]))
		w.Uint(uint64(it.got[j]))
		w.Bool(it.gone[j])
		w.Bool(it.ended[j])
	}
	for _, s := range it.srcs {
		s.save(w)
	}
}

func (it *mixIter[T]) load(r *state.Reader) {
	r.Enter("mix")
	r.Setting("number of sources", len(it.srcs))
	r.Setting("rule", int(it.n.rule))
	for j, x := range it.n.weights {
		if got := r.Float(); r.Err() == nil && got != x {
			r.Fail("weight %d is %v in the state and %v in the stream", j, got, x)
		}
	}
	it.done = r.Bool()
	for j := range it.srcs {
		it.used[j], it.got[j] = r.Count(), r.Count()
		it.gone[j], it.ended[j] = r.Bool(), r.Bool()
	}
	for _, s := range it.srcs {
		s.load(r)
	}
}

func (it *mixIter[T]) pause() {
	for _, s := range it.srcs {
		s.pause()
	}
}

func (it *mixIter[T]) close() {
	for _, s := range it.srcs {
		s.close()
	}
}
