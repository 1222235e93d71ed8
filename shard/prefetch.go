package shard

import (
	"iter"
	"sync/atomic"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/pipeline"
)

// A Prefetch reads the shards of a [Set] whole ahead of its reads, in the
// order a loop will reach them. See [Set.Prefetch].
type Prefetch struct {
	s     *Set
	depth int32
	// pos holds each shard's place in the list of blocks, -1 before the
	// prefetch pulls it, -2 when a read reached it first.
	pos     []atomic.Int32
	reached atomic.Int32  // the furthest place a read has reached, -1 before
	wake    chan struct{} // a read moved reached on (capacity 1)
	task    *pipeline.Task
	raised  atomic.Bool // the task's panic was raised
}

// Prefetch reads ahead, in a goroutine of its own, the shards that blocks
// yields, in that order: the shards a loop will read, in the order its
// positions first reach them (index.Upcoming over the loop's order and
// [Set.BlockStarts]). It keeps the shards of up to depth places of the list
// past the furthest one the set's reads have reached read whole, each file
// read in order and every member's CRC-32C checked as its bytes land, so
// that reads then copy samples from memory without checking them again.
// While a loop reads a window of shards, the next ones come from the disk
// on another core: the disk and the processor work at once, where the
// read-ahead at a shard's second read ([ReadAhead]) has them take turns.
//
// A shard the reads reached before the prefetch is skipped, as is a shard
// listed again. The prefetch waits, parked, when it is depth places ahead;
// [Prefetch.Stop] ends it, as does [Set.Close] or another Prefetch of the
// set (a set has one at a time). Keep [MaxOpen] and [MaxMemory] above the
// shards of the loop's window and depth more. A shard the prefetch cannot
// open or read is left to the reads, which report its error. Nothing read
// depends on the prefetch: a loop's samples are the same with it, without
// it, or with a list that does not match the loop's order (only slower).
//
// It panics with a *container.ArgError when depth < 1. A block outside
// [0, shards) or a panic in blocks ends the prefetch; the next read of the
// set, or Stop, raises it as a *container.PanicError (Close returns it).
func (s *Set) Prefetch(blocks iter.Seq[int], depth int) *Prefetch {
	container.CheckArg(depth >= 1, "shard.Set.Prefetch", "depth", depth, ">= 1")
	p := &Prefetch{s: s, depth: int32(min(depth, len(s.m.Shards)+1)), pos: make([]atomic.Int32, len(s.m.Shards)), wake: make(chan struct{}, 1)}
	for k := range p.pos {
		p.pos[k].Store(-1)
	}
	p.reached.Store(-1)
	if old := s.ahead.Swap(p); old != nil {
		old.task.Stop()
	}
	p.task = pipeline.Go("shard.Set.Prefetch", func(stop <-chan struct{}) { p.run(blocks, stop) })
	return p
}

// run is the prefetch's goroutine.
func (p *Prefetch) run(blocks iter.Seq[int], stop <-chan struct{}) {
	t := int32(0) // the place of the next shard pulled
	for k := range blocks {
		container.CheckIndex("shard.Set.Prefetch", k, len(p.pos))
		if !p.pos[k].CompareAndSwap(-1, t) {
			if p.pos[k].Load() == -2 { // a read was there first: the reads are at t at least
				p.advance(t)
				t++
			}
			continue
		}
		for t > p.reached.Load()+p.depth {
			select {
			case <-p.wake:
			case <-stop:
				return
			}
		}
		select {
		case <-stop:
			return
		default:
		}
		if p.s.cache.closed.Load() {
			return
		}
		if t > p.reached.Load() {
			p.fetch(k)
		}
		t++
	}
}

// fetch reads shard k whole, checking its members.
func (p *Prefetch) fetch(k int) {
	st, err := p.s.open(k)
	if err != nil {
		return // the reads meet it
	}
	defer st.release()
	if !st.ix.gzip { // already whole
		p.s.readWhole(st, true)
	}
}

// advance moves the reads' furthest place on to t.
func (p *Prefetch) advance(t int32) {
	for {
		r := p.reached.Load()
		if t <= r {
			return
		}
		if p.reached.CompareAndSwap(r, t) {
			break
		}
	}
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// reach records a read of shard k: it raises the prefetch's panic, once, and
// moves the reads' furthest place on.
func (s *Set) reach(k int) {
	p := s.ahead.Load()
	if p == nil {
		return
	}
	if f := p.unraised(); f != nil {
		panic(f)
	}
	t := p.pos[k].Load()
	if t == -1 && p.pos[k].CompareAndSwap(-1, -2) {
		return
	}
	if t = p.pos[k].Load(); t >= 0 {
		p.advance(t)
	}
}

// Stop ends the prefetch and returns once its goroutine has exited. It
// raises the prefetch's panic when no read did. It may be called more than
// once.
func (p *Prefetch) Stop() {
	p.task.Stop()
	p.s.ahead.CompareAndSwap(p, nil)
	if f := p.unraised(); f != nil {
		panic(f)
	}
}

// unraised returns the panic that ended the prefetch the first time it is
// called after it, and nil otherwise.
func (p *Prefetch) unraised() *container.PanicError {
	if f := p.task.Panic(); f != nil && p.raised.CompareAndSwap(false, true) {
		return f
	}
	return nil
}
