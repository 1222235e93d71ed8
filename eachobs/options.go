package eachobs

import (
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
)

// An Option configures a loop. Options are plain values, not generic, so that a
// call such as eachobs.Batches(data, 128, eachobs.Prefetch(2)) needs no type
// arguments. Each option means one thing in every loop and in the providers
// (package provider takes the same options); an option that does not apply to a
// loop panics at the call that builds the loop.
type Option func(*config)

type config struct {
	seed     uint64
	shuffle  bool
	tail     index.Tail
	owned    bool
	prefetch int
	workers  int
	part     *index.Part // nil: the whole container
	set      uint8       // options given, to reject those that do not apply
}

// Option bits, in the order of optionNames.
const (
	optShuffle uint8 = 1 << iota
	optTail
	optOwned
	optPrefetch
	optWorkers
	optPartition
)

var optionNames = []string{"Shuffle", "Tail", "Owned", "Prefetch", "Workers", "Partition"}

// newConfig applies opts and panics, naming op, when one of them is nil or not in
// allowed.
func newConfig(op string, opts []Option, allowed uint8) config {
	cfg := config{workers: 1}
	for _, o := range opts {
		container.CheckArg(o != nil, "eachobs."+op, "option", "nil", "an Option")
		o(&cfg)
	}
	for b, name := range optionNames {
		if cfg.set&^allowed&(1<<b) != 0 {
			panic(&container.ArgError{Op: "eachobs." + op, Arg: "option", Value: name, Want: "an option of this loop"})
		}
	}
	return cfg
}

// Shuffle makes a loop visit the observations in a fresh random order on every
// epoch: epoch e is the permutation drawn by index.PermInto from
// rand.New(rand.NewPCG(seed, e)) (PyTorch shuffle=True with a seeded generator).
// Equal seeds give equal sequences, whatever the prefetch and worker settings;
// without Shuffle a loop visits the data in order.
func Shuffle(seed uint64) Option {
	return func(c *config) { c.seed, c.shuffle = seed, true; c.set |= optShuffle }
}

// Tail sets what happens to the last, partial batch of an epoch: index.Keep (the
// default), Drop, Pad (full size, repeating the epoch's first observations, with
// Batch.Real counting the real ones) or RollOver (into the next epoch). The rules
// are [index.Plan]'s. Tail panics with a [*container.ArgError] if t is not a tail.
func Tail(t index.Tail) Option {
	container.CheckArg(t <= index.RollOver, "eachobs.Tail", "tail", t, "Keep, Drop, Pad or RollOver")
	return func(c *config) { c.tail = t; c.set |= optTail }
}

// Owned makes every yielded batch newly allocated memory that the caller keeps,
// instead of a buffer the loop reuses. It costs one allocation of the batch (and
// of its index list) per step.
func Owned() Option {
	return func(c *config) { c.owned = true; c.set |= optOwned }
}

// Prefetch makes the loop prepare the next k batches in a background goroutine
// while the loop body works on the current one, in a ring of k+1 buffers reused
// from batch to batch (still no allocation per batch). The sequence of batches is
// the same as without it. Prefetch(0) is a serial loop. It panics with a
// [*container.ArgError] if k < 0.
func Prefetch(k int) Option {
	container.CheckArg(k >= 0, "eachobs.Prefetch", "count", k, ">= 0")
	return func(c *config) { c.prefetch = k; c.set |= optPrefetch }
}

// Workers makes w goroutines gather batches in parallel, each batch whole by one
// worker, yielded in the loop's order: the sequence is the same for every w. The
// ring holds max(k, w)+1 buffers with [Prefetch](k). Workers(1) without Prefetch
// is a serial loop. Use it when gathering a batch costs more than the loop body
// (a container that decodes or computes its observations). It panics with a
// [*container.ArgError] if w < 1.
func Workers(w int) Option {
	container.CheckArg(w >= 1, "eachobs.Workers", "workers", w, ">= 1")
	return func(c *config) { c.workers = w; c.set |= optWorkers }
}

// Partition makes the loop visit only part p.Index of p.Parts of every epoch, for
// one of p.Parts workers of distributed training (PyTorch's DistributedSampler,
// MXNet's part_index/num_parts). The rule is [index.Part]'s: contiguous or strided,
// and the n mod Parts leftover observations kept (parts differ by one), padded by
// repeating from the start, or dropped (equal parts). The part is taken of each
// epoch's permutation, so workers that use the same seed see disjoint shares of
// one global permutation per epoch, which together hold every observation (once,
// with the Keep and Drop tails but for the dropped tail). Batches are then cut
// from the part with the loop's [Tail].
//
// Partition panics with a [*container.ArgError] holding the error of p.Validate
// when p names no part.
func Partition(p index.Part) Option {
	if err := p.Validate(); err != nil {
		panic(&container.ArgError{Op: "eachobs.Partition", Arg: "part", Value: p, Want: "a valid part (" + err.Error() + ")"})
	}
	return func(c *config) { c.part = &p; c.set |= optPartition }
}

// partLen returns the number of observations a loop visits per epoch of n.
func (c *config) partLen(n int) int {
	if c.part == nil {
		return n
	}
	return c.part.Len(n)
}

// pipeline returns the number of pipeline workers and slots of the loop: a serial
// loop has none and one slot; a prefetching loop one background goroutine; a
// parallel loop w workers; the ring holds the slot the body holds plus
// max(prefetch, workers) being prepared.
func (c *config) pipeline() (workers, slots int) {
	switch {
	case c.workers == 1 && c.prefetch == 0:
		return 0, 1
	case c.workers == 1:
		return 1, c.prefetch + 1
	}
	return c.workers, max(c.prefetch, c.workers) + 1
}

// visit returns the container index that position pos of a pass visits: the
// pass takes part of an epoch of n observations (all of it when part is nil) in
// order (data order when order is nil).
func visit(part *index.Part, order []int, n, pos int) int {
	if part != nil {
		pos = part.Pos(n, pos)
	}
	if order != nil {
		return order[pos]
	}
	return pos
}
