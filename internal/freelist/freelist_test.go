package freelist

import (
	"runtime"
	"slices"
	"sync"
	"testing"
)

type buf struct{ b []byte }

// Get returns what Put put back, the last first, and a new zero value when
// the list is empty; no buffer is handed out twice while held.
func TestGetPut(t *testing.T) {
	var l List[buf]
	a, b := l.Get(), l.Get()
	if a == b || a.b != nil {
		t.Fatalf("two Gets from an empty list: %p, %p (%v): want two new zero buffers", a, b, a.b)
	}
	a.b = []byte("kept")
	l.Put(b)
	l.Put(a)
	if got := l.Get(); got != a || string(got.b) != "kept" {
		t.Errorf("Get after Put(b), Put(a) = %p (%q), want a (%p) as it was", got, got.b, a)
	}
	if got := l.Get(); got != b {
		t.Errorf("second Get = %p, want b (%p)", got, b)
	}
	if got := l.Get(); got == a || got == b {
		t.Errorf("Get with both held returned a held buffer")
	}
}

// Putting back the buffers Get made never allocates, however many are back
// at once (the lists of augment and imagedata once grew the first time two
// were, at the end of a loop's first epoch with two workers: their
// benchmarks' allocs/batch-w2 of 0.2).
func TestPutAllocs(t *testing.T) {
	for _, n := range []int{1, 2, 3} {
		var counts []uint64
		for range 3 { // the runtime's own allocations do not recur
			var l List[buf]
			held := make([]*buf, n)
			for i := range held {
				held[i] = l.Get()
			}
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			for _, x := range held {
				l.Put(x)
			}
			runtime.ReadMemStats(&m1)
			if counts = append(counts, m1.Mallocs-m0.Mallocs); counts[len(counts)-1] == 0 {
				break
			}
		}
		if !slices.Contains(counts, 0) {
			t.Errorf("%d buffers put back: %v allocations in three tries, want 0", n, counts)
		}
	}
}

// Many goroutines taking and putting back never share a buffer: each marks
// the buffer it holds, yields to the others, and finds its mark unchanged
// (and -race sees any two holding one at once).
func TestConcurrent(t *testing.T) {
	var l List[buf]
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				x := l.Get()
				x.b = append(x.b[:0], byte(g), byte(i))
				runtime.Gosched()
				if x.b[0] != byte(g) || x.b[1] != byte(i) {
					t.Errorf("goroutine %d: buffer changed while held", g)
					return
				}
				l.Put(x)
			}
		}()
	}
	wg.Wait()
}
