package objstore

import (
	"fmt"
	"iter"
)

// A ReadAhead fetches whole copies of a list of objects into a [Cache], in
// the list's order, ahead of a reader that opens them in about that order:
// the shards of an epoch in the order a loop reads them (the blocks of its
// two-level order, a window at a time). It keeps the copies of up to depth
// names past the furthest one the reader has opened fetched or in flight,
// parallel fetches at a time, so that while the reader reads a window of
// shards by ranges or from copies, the next window lands.
//
// A fetch ahead waits when the cache has no room beside the objects in use
// and the copies fetched ahead the reader has not reached; it never evicts
// those, and it never blocks a reader (which reads by ranges meanwhile).
// Objects already copied or in flight are skipped, as are objects larger
// than the cache. A fetch that fails (a server down past its retries, a
// checksum that does not match) is left to the reader, whose Open or reads
// meet the fault and report it; [ReadAhead.Err] returns the first.
type ReadAhead struct {
	c               *Cache
	names           iter.Seq[string]
	depth, parallel int
	// Guarded by c.mu:
	at      map[string]int  // the place of each name pulled so far (its first)
	early   map[string]bool // names the reader opened before they were pulled
	pos     int             // the furthest place the reader has opened, -1 before
	stopped bool
	err     error
	slots   int // fetches in flight

	done chan struct{}
}

// ReadAhead starts fetching the objects names yields ahead of the reader
// (see [ReadAhead]) and returns the read-ahead; [ReadAhead.Stop] ends it (and
// [Cache.Close]). names is pulled lazily, a name at a time as the reader
// moves on, in a goroutine of the read-ahead: an epoch's list of shards may
// be computed as it goes. A name should appear once: the reader's place is
// that of its first occurrence. ReadAhead panics with an error when depth or
// parallel is below 1.
func (c *Cache) ReadAhead(names iter.Seq[string], depth, parallel int) *ReadAhead {
	if depth < 1 || parallel < 1 {
		panic(fmt.Errorf("objstore.Cache.ReadAhead: depth %d, parallel %d, want >= 1", depth, parallel))
	}
	r := &ReadAhead{c: c, names: names, at: map[string]int{}, early: map[string]bool{}, depth: depth, parallel: parallel, pos: -1, done: make(chan struct{})}
	c.mu.Lock()
	if c.closed {
		r.stopped = true
		close(r.done)
	} else {
		c.aheads[r] = struct{}{}
		go r.run()
	}
	c.mu.Unlock()
	return r
}

// moved records that the reader opened name.
func (c *Cache) moved(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for r := range c.aheads {
		i, ok := r.at[name]
		if !ok {
			r.early[name] = true
		} else if i > r.pos {
			r.pos = i
			c.cond.Broadcast()
		}
	}
}

// Stop ends the read-ahead and waits until it starts nothing more; fetches
// in flight finish (into the cache).
func (r *ReadAhead) Stop() {
	c := r.c
	c.mu.Lock()
	r.stopped = true
	c.cond.Broadcast()
	c.mu.Unlock()
	<-r.done
	c.mu.Lock()
	delete(c.aheads, r)
	c.mu.Unlock()
}

// Err returns the first error of a fetch ahead, nil when none failed.
func (r *ReadAhead) Err() error {
	r.c.mu.Lock()
	defer r.c.mu.Unlock()
	return r.err
}

// Done returns a channel closed when the read-ahead has started its last
// fetch or was stopped.
func (r *ReadAhead) Done() <-chan struct{} { return r.done }

func (r *ReadAhead) run() {
	defer close(r.done)
	c := r.c
	i := -1
	for name := range r.names {
		c.mu.Lock()
		if _, ok := r.at[name]; ok {
			c.mu.Unlock()
			continue
		}
		i++
		r.at[name] = i
		if r.early[name] {
			delete(r.early, name)
			r.pos = max(r.pos, i)
		}
		for !r.stopped && !c.closed && (i > r.pos+r.depth || r.slots >= r.parallel) {
			c.cond.Wait()
		}
		stop := r.stopped || c.closed
		c.mu.Unlock()
		if stop {
			return
		}
		if !r.fetch(i, name) {
			return
		}
	}
}

// fetch starts fetching the object at place i, unless it is copied or in
// flight. It returns false when the read-ahead was stopped while waiting
// for room.
func (r *ReadAhead) fetch(i int, name string) bool {
	c := r.c
	c.mu.Lock()
	exp, known := c.expected[name]
	if known && c.entries[key(name, sumVersion(exp.sum))] != nil {
		c.mu.Unlock()
		return true
	}
	c.mu.Unlock()
	remote, err := c.openSrc(name, known, exp.size)
	if err != nil {
		r.fail(err)
		return true
	}
	ver, size := sumVersion(exp.sum), exp.size
	if !known {
		ver, size = version(remote), remote.Size()
	}
	k := key(name, ver)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case ver == "", size > c.limit, c.entries[k] != nil:
		remote.Close()
		return true
	case known && remote.Size() != size:
		remote.Close()
		r.err = firstErr(r.err, fmt.Errorf("objstore: cache: %s is %d bytes, the manifest says %d: %w", c.describe(name), remote.Size(), size, ErrChecksum))
		return true
	}
	for !c.evictLocked(size, false) {
		if r.stopped || c.closed {
			remote.Close()
			return false
		}
		c.stats.Waits.Add(1)
		c.cond.Wait()
	}
	if c.entries[k] != nil { // fetched by a reader meanwhile
		remote.Close()
		return true
	}
	if err := c.startLocked(k, name, size, known, exp.sum, remote, r, i); err != nil {
		remote.Close()
		r.err = firstErr(r.err, err)
		return true
	}
	r.slots++
	e := c.entries[k]
	go func() {
		<-e.done
		c.mu.Lock()
		r.slots--
		if e.err != nil {
			r.err = firstErr(r.err, e.err)
		}
		c.cond.Broadcast()
		c.mu.Unlock()
	}()
	return true
}

func (r *ReadAhead) fail(err error) {
	r.c.mu.Lock()
	r.err = firstErr(r.err, err)
	r.c.mu.Unlock()
}

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
