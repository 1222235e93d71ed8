// Package lru is the bounded cache of decoded chunks (decompressed Arrow
// record batches, decoded Parquet row groups) that the format packages share:
// at most Max entries, the least recently used dropped first, each entry made
// once by the first goroutine that asks for it while the others wait.
package lru

import "sync"

// A Cache maps chunk numbers to values made on demand. The zero Cache is not
// usable; make one with New. A Cache is safe for concurrent use.
type Cache[V any] struct {
	max   int
	make  func(k int) (V, error)
	mu    sync.Mutex
	tick  int64
	items map[int]*entry[V]
	made  int64
}

type entry[V any] struct {
	once sync.Once
	used int64
	v    V
	err  error
}

// New returns a cache of at most max values, made by make. max must be at
// least 1.
func New[V any](max int, make func(k int) (V, error)) *Cache[V] {
	if max < 1 {
		max = 1
	}
	return &Cache[V]{max: max, make: make, items: map[int]*entry[V]{}}
}

// Get returns the value of chunk k, making it if it is not cached. An error of
// make is cached with its entry, like a value.
func (c *Cache[V]) Get(k int) (V, error) {
	c.mu.Lock()
	c.tick++
	e := c.items[k]
	if e == nil {
		if len(c.items) >= c.max {
			old, oldest := -1, int64(0)
			for j, x := range c.items {
				if old < 0 || x.used < oldest {
					old, oldest = j, x.used
				}
			}
			delete(c.items, old)
		}
		e = &entry[V]{}
		c.items[k] = e
	}
	e.used = c.tick
	c.mu.Unlock()
	e.once.Do(func() {
		e.v, e.err = c.make(k)
		c.mu.Lock()
		c.made++
		c.mu.Unlock()
	})
	return e.v, e.err
}

// Made returns how many values the cache has made: the decodes a test or a
// benchmark counts.
func (c *Cache[V]) Made() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.made
}
