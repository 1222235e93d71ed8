package eachobs

import (
	"fmt"

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
	order    orderKind // dataKind without a shuffle option
	shuffles int       // shuffle options given: at most one
	// blocks is the window of ShuffleBlocks, whose order the loop's container
	// gives (config.useBlocks); 0 without it. local is ShuffleBlocksLocal's
	// number of runs, 0 for ShuffleBlocks.
	blocks   int
	local    int
	tail     index.Tail
	owned    bool
	prefetch int
	workers  int
	// The part of every step the loop takes (Partition), checked when the
	// option was made: part of parts, strided or contiguous within a step.
	part, parts int
	strided     bool
	stats       *Stats // Measure
	set         uint8  // options given, to reject those that do not apply
}

// Option bits, in the order of optionNames.
const (
	optShuffle uint8 = 1 << iota
	optTail
	optOwned
	optPrefetch
	optWorkers
	optPartition
	optMeasure
)

var optionNames = []string{"Shuffle", "Tail", "Owned", "Prefetch", "Workers", "Partition", "Measure"}

// shuffleOptions names the options that choose an order, for the panic of two.
const shuffleOptions = "one of Shuffle, ShufflePerm, ShuffleBlocks, ShuffleBlocksLocal, ShuffleBlocksOf and ShuffleWithin"

// newConfig applies opts and panics, naming op, when one of them is nil or not in
// allowed.
func newConfig(op string, opts []Option, allowed uint8) config {
	cfg := config{workers: 1, order: dataKind, parts: 1}
	for _, o := range opts {
		container.CheckArg(o != nil, "eachobs."+op, "option", "nil", "an Option")
		o(&cfg)
	}
	container.CheckArg(cfg.shuffles <= 1, "eachobs."+op, "options", cfg.shuffles, shuffleOptions)
	for b, name := range optionNames {
		if cfg.set&^allowed&(1<<b) != 0 {
			panic(&container.ArgError{Op: "eachobs." + op, Arg: "option", Value: name, Want: "an option of this loop"})
		}
	}
	return cfg
}

// Shuffle makes a loop visit the observations in a fresh random order on every
// epoch: epoch e is the permutation index.NewCipher(n, seed, e), computed
// position by position, so a loop holds O(1) memory for its order whatever the
// container's size and resumes anywhere in an epoch at once (PyTorch
// shuffle=True with a seeded generator, without the index array). Equal seeds
// give equal sequences, whatever the prefetch and worker settings; without a
// shuffle option a loop visits the data in order. [ShufflePerm] draws an array
// permutation instead, [ShuffleBlocks] and [ShuffleBlocksOf] orders that read
// data in blocks, [ShuffleWithin] one that keeps a mix's proportions in every
// batch.
func Shuffle(seed uint64) Option {
	return shuffle(seed, cipherKind)
}

// ShufflePerm is [Shuffle] with the permutation rand.New(rand.NewPCG(seed,
// e)).Perm(n) for epoch e (drawn by index.PermInto), the order of earlier
// versions of the kit and of code that shuffles with rand.Perm. A run holds the
// permutation: 8n bytes, drawn again in O(n) when a loop starts or resumes.
func ShufflePerm(seed uint64) Option {
	return shuffle(seed, permKind)
}

// ShuffleBlocks is [Shuffle] for a container with blocks of its own
// (container.Blocked: the row groups of a Parquet column, the record batches of
// an Arrow one, the shards of a sharded set, and tuples and maps of them): epoch
// e is the two-level order index.NewBlocksAt(starts, window, seed, e) over the
// container's block starts, whose blocks come in a random order, the
// observations of each window of window blocks shuffled among themselves. A
// container that caches window decoded blocks then decodes each once per epoch
// (a full shuffle decodes one for nearly every observation; with [Workers],
// whose batches in flight may straddle two windows, cache a few more), and the
// epoch is a
// loop's like any other: it has a [Position], resumes mid-epoch, is partitioned
// across processes ([Partition]) and is the same for every number of
// [Workers]. A batch draws its observations from window blocks rather than from
// the whole container: a larger window mixes better and holds more decoded
// blocks.
//
// The order's name in a Position ("blocks K@HxW": K blocks whose starts hash to
// H, windows of W) identifies the blocks, so that a position is restored only
// into a loop over the same blocks. ShuffleBlocks panics with a
// [*container.ArgError] if window is below 1; the call that builds the loop
// panics likewise when its container has no blocks (no BlockStarts method, or
// nil from it: [ShuffleBlocksOf] cuts blocks of a size instead) or when its
// starts are not the starts of its observations.
func ShuffleBlocks(seed uint64, window int) Option {
	container.CheckArg(window >= 1, "eachobs.ShuffleBlocks", "window", window, ">= 1")
	set := shuffle(seed, orderKind{name: "blocks", option: "ShuffleBlocks"})
	return func(c *config) {
		set(c)
		c.blocks = window
	}
}

// ShuffleBlocksLocal is [ShuffleBlocks] for P processes that each read
// their share of a sharded set from the shards no other process reads, so
// that each downloads about 1/P of the data per epoch (MosaicML's canonical
// nodes): epoch e is the order index.NewLocalBlocks(starts, window, parts,
// seed, e), which lays the blocks out in a random order, cuts them into parts
// runs of equal numbers of observations, shuffles each run in two levels and
// deals the runs' observations in turn. With [Partition] of P parts, Strided,
// P dividing parts, part p reads the runs p, p+P, ...: parts/P runs, 1/P of
// the blocks, one window of blocks of each run at a time. Every part still
// gets the same number of batches per epoch ([Tail] decides the last), and
// the epoch is a loop's like any other: a [Position], resumed with another
// number of processes (the order does not depend on P, so the position
// carries over), and P processes together consume a prefix of it.
//
// Choose parts as a multiple of every number of processes the job may run
// with (12 serves 1, 2, 3, 4, 6 and 12): a restart with P not dividing
// parts reads the same order, each observation once, but each process then
// reads from every run. The order's name in a Position ("blocks
// K@HxW/R": K blocks whose starts hash to H, windows of W, R runs) makes a
// position restorable only into a loop of the same order.
// ShuffleBlocksLocal panics with a [*container.ArgError] if window or parts
// is below 1; the call that builds the loop panics as with ShuffleBlocks.
func ShuffleBlocksLocal(seed uint64, window, parts int) Option {
	container.CheckArg(window >= 1, "eachobs.ShuffleBlocksLocal", "window", window, ">= 1")
	container.CheckArg(parts >= 1, "eachobs.ShuffleBlocksLocal", "parts", parts, ">= 1")
	set := shuffle(seed, orderKind{name: "blocks", option: "ShuffleBlocksLocal"})
	return func(c *config) {
		set(c)
		c.blocks, c.local = window, parts
	}
}

// ShuffleBlocksOf is [ShuffleBlocks] with blocks of a size, whatever the
// container: epoch e is the two-level order index.NewBlocks(n, block, window,
// seed, e), whose blocks of block consecutive observations (the last one the
// rest) come in a random order, the observations of each window of window
// blocks shuffled among themselves. A loop over a memory-mapped file larger
// than memory then reads a window of blocks at a time instead of pages at
// random. Its name in a Position is "blocks BxW". It panics with a
// [*container.ArgError] if block or window is below 1.
func ShuffleBlocksOf(seed uint64, block, window int) Option {
	container.CheckArg(block >= 1, "eachobs.ShuffleBlocksOf", "block", block, ">= 1")
	container.CheckArg(window >= 1, "eachobs.ShuffleBlocksOf", "window", window, ">= 1")
	return shuffle(seed, blocksKind(block, window))
}

func shuffle(seed uint64, kind orderKind) Option {
	return func(c *config) {
		c.seed, c.order, c.blocks, c.local = seed, kind, 0, 0
		c.shuffles++
		c.set |= optShuffle
	}
}

// useBlocks makes the order of ShuffleBlocks (or ShuffleBlocksLocal) from the block starts of the
// loop's container of n observations (nil when it has none), and panics, for
// op, when it has none or they are not starts of n observations. It does
// nothing without ShuffleBlocks.
func (c *config) useBlocks(op string, data any, starts []int, n int) {
	if c.blocks == 0 {
		return
	}
	op = "eachobs." + op
	if starts == nil {
		panic(&container.ArgError{Op: op, Arg: "container", Value: fmt.Sprintf("%T", data), Want: "a container with blocks (container.Blocked) for ShuffleBlocks; ShuffleBlocksOf cuts blocks of a size"})
	}
	last := len(starts) - 1
	switch {
	case last < 0:
		panic(&container.ArgError{Op: op, Arg: "container's block starts", Value: "[]", Want: "0 first and the number of observations last (container.Blocked)"})
	case starts[0] != 0:
		panic(&container.ArgError{Op: op, Arg: "container's block starts", Value: fmt.Sprintf("%d first", starts[0]), Want: "0 first (container.Blocked)"})
	case starts[last] != n:
		panic(&container.ArgError{Op: op, Arg: "container's block starts", Value: fmt.Sprintf("%d last", starts[last]), Want: fmt.Sprintf("the number of observations, %d, last (container.Blocked)", n)})
	}
	for k := 1; k <= last; k++ {
		if starts[k] < starts[k-1] {
			panic(&container.ArgError{Op: op, Arg: "container's block starts", Value: fmt.Sprintf("%d at %d after %d", starts[k], k, starts[k-1]), Want: "starts that do not decrease (container.Blocked)"})
		}
	}
	if c.local > 0 {
		c.order = localBlocksKind(starts, c.blocks, c.local)
		return
	}
	c.order = blocksAtKind(starts, c.blocks)
}

// Tail sets what happens to the last, partial batch of an epoch: index.Keep (the
// default), Drop, Pad (full size, repeating the epoch's first observations, with
// Batch.Real counting the real ones) or RollOver (into the next epoch). With
// [Partition] it is the last step's: the rules are [index.Steps]'. Tail panics
// with a [*container.ArgError] if t is not a tail.
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

// Partition makes the loop take part p.Index of p.Parts of every step, for one
// of p.Parts processes of synchronous data-parallel training (PyTorch's
// DistributedSampler, MXNet's part_index/num_parts): each step of the loop
// takes the next p.Parts*size observations of the epoch's order, and the part
// takes size of them, consecutive (the default) or every p.Parts-th (Strided,
// as DistributedSampler deals them). Processes that use the same seed see
// disjoint shares of one global order per epoch, and after any number of steps
// they have together consumed a prefix of it, which is what lets a job resume
// with another number of parts ([Position]). The last step of an epoch follows
// the loop's [Tail] (Pad gives every part a full batch, its padding not Real;
// Drop leaves the step out; Keep may give a part a short batch or none). The
// rules are [index.Steps]'.
//
// p.Tail must be index.Keep (its zero value): the loop's Tail decides the last
// step. Partition panics with a [*container.ArgError] holding the error of
// p.Validate when p names no part, or when p.Tail is not Keep.
func Partition(p index.Part) Option {
	if err := p.Validate(); err != nil {
		panic(&container.ArgError{Op: "eachobs.Partition", Arg: "part", Value: p, Want: "a valid part (" + err.Error() + ")"})
	}
	container.CheckArg(p.Tail == index.Keep, "eachobs.Partition", "part's tail", p.Tail, "keep: the loop's Tail decides the last step of an epoch")
	return func(c *config) {
		c.part, c.parts, c.strided = p.Index, p.Parts, p.Strided
		c.set |= optPartition
	}
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
