// Package freelist keeps the scratch buffers of finished calls for the next
// ones: as many buffers as calls ever ran at once, each reused as it is.
//
// A sync.Pool would do the same job but is emptied by garbage collections,
// and refilling it allocates, so a steady loop would allocate whenever the
// rest of the program collects. A [List] keeps its buffers for as long as it
// is reachable, and never allocates once it holds as many buffers as calls
// run at once: making a buffer also makes room for it on the list, so that
// [List.Put] never grows the list (it would otherwise grow the first time
// every buffer is back at once, which with two workers is the end of an
// epoch).
package freelist

import (
	"slices"
	"sync"
)

// A List is a free list of *T. The zero List is empty and ready to use; it is
// safe for use by many goroutines, and must not be copied after first use.
type List[T any] struct {
	mu   sync.Mutex
	free []*T
	made int // the buffers made: free has room for all of them
}

// Get takes a buffer from the list, or makes a new zero T when the list is
// empty.
func (l *List[T]) Get() *T {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := len(l.free); n > 0 {
		x := l.free[n-1]
		l.free = l.free[:n-1]
		return x
	}
	l.made++
	l.free = slices.Grow(l.free, l.made)
	return new(T)
}

// Put puts x back on the list, for a later Get. It never allocates for a
// buffer that Get made.
func (l *List[T]) Put(x *T) {
	l.mu.Lock()
	l.free = append(l.free, x)
	l.mu.Unlock()
}
