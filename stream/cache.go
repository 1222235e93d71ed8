package stream

import (
	"sync"

	"github.com/obskit/obskit/internal/state"
)

// Cache returns a [Stream] that reads s once and replays it (Fuel's Cache):
// the first pass that runs to the end of s stores its values, and later passes
// yield the stored values without reading s. Every pass of the cache, whatever
// its epoch (under [Repeat]), yields the values of s's epoch 0, whether it
// reads them or replays them, so that what a pass yields never depends on what
// the process did before: a shuffle before a Cache draws one order for all
// epochs, and one after it a new order per epoch. Its state is small whatever the
// size of the cache: whether the pass replays, and where it stands (in the
// cache, or in s). A pass resumed in replay in a process whose cache is empty
// (a new process, after a restart) first fills the cache by reading s once from
// its start, then continues where it stood. A pass resumed while reading s reads
// on from the saved state of s and stores nothing (the values before it are not
// in this process); the next pass stores. Memory holds every value of s.
func Cache[T any](s Stream[T]) Stream[T] {
	s.check("stream.Cache")
	return Stream[T]{&cacheNode[T]{src: s.n}}
}

type cacheNode[T any] struct {
	src    node[T]
	mu     sync.Mutex
	stored []T
	full   bool
}

func (n *cacheNode[T]) cached() ([]T, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.stored, n.full
}

func (n *cacheNode[T]) store(vs []T) {
	n.mu.Lock()
	if !n.full {
		n.stored, n.full = vs, true
	}
	n.mu.Unlock()
}

func (n *cacheNode[T]) ordered() bool { return n.src.ordered() }
func (n *cacheNode[T]) iter(int) iterator[T] {
	it := &cacheIter[T]{n: n}
	if vs, ok := n.cached(); ok {
		it.vals, it.replay = vs, true
	} else {
		it.src, it.record = n.src.iter(0), true
	}
	return it
}

type cacheIter[T any] struct {
	n      *cacheNode[T]
	replay bool // yielding vals[pos:]
	vals   []T
	pos    int
	src    iterator[T] // reading s
	record bool        // storing what src yields in vals
}

func (it *cacheIter[T]) next() (T, error, bool) {
	var zero T
	if it.replay {
		if it.pos == len(it.vals) {
			return zero, nil, false
		}
		it.pos++
		return it.vals[it.pos-1], nil, true
	}
	v, err, ok := it.src.next()
	if err != nil || !ok {
		if err == nil && it.record {
			it.n.store(it.vals)
		}
		it.record, it.vals = false, nil
		return v, err, ok
	}
	if it.record {
		it.vals = append(it.vals, v)
	}
	return v, nil, true
}

func (it *cacheIter[T]) save(w *state.Writer) {
	w.String("cache")
	w.Bool(it.replay)
	if it.replay {
		w.Uint(uint64(it.pos))
		return
	}
	it.src.save(w)
}

func (it *cacheIter[T]) load(r *state.Reader) {
	r.Enter("cache")
	replay := r.Bool()
	if r.Err() != nil {
		return
	}
	if !replay {
		if it.replay { // the cache is full here, but the saved pass was reading s
			it.replay, it.vals = false, nil
			it.src = it.n.src.iter(0)
		}
		it.record, it.vals = false, nil
		it.src.load(r)
		return
	}
	pos := r.Count()
	if r.Err() != nil {
		return
	}
	if !it.replay { // fill the cache from s first
		it.src.close()
		fill := it.n.src.iter(0)
		var vs []T
		for {
			v, err, ok := fill.next()
			if err != nil {
				fill.close()
				r.Fail("filling the cache: %v", err)
				return
			}
			if !ok {
				break
			}
			vs = append(vs, v)
		}
		fill.close()
		it.n.store(vs)
		it.vals, _ = it.n.cached()
		it.replay, it.src, it.record = true, nil, false
	}
	if pos > len(it.vals) {
		r.Fail("position %d in a cache of %d values", pos, len(it.vals))
		return
	}
	it.pos = pos
}

func (it *cacheIter[T]) pause() {
	if it.src != nil {
		it.src.pause()
	}
}

func (it *cacheIter[T]) close() {
	if it.src != nil {
		it.src.close()
	}
}
