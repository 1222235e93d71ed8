package pipeline

import (
	"testing"
	"time"
)

// spin keeps the CPU busy for d.
func spin(d time.Duration) {
	for t := time.Now(); time.Since(t) < d; {
	}
}

// BenchmarkHandoff is the pipeline of a prefetching loop without the kit: a
// producer goroutine and the benchmark's hand 469 steps through a ring of two
// tokens, each spinning 50 µs per step (about a gather of 128 MNIST rows),
// against the same steps done serially, once with blocking receives
// (block/serial) and once with [Poll] (handoff/serial); 0.5 is perfect
// overlap. On 2-core VMs blocking receives do not overlap (golang/go#32113: a
// woken goroutine waits on its waker's core), which is why the kit polls
// before it parks. Each iteration runs the three in turn.
func BenchmarkHandoff(b *testing.B) {
	const steps, work = 469, 50 * time.Microsecond
	stop := make(chan struct{})
	pipe := func(recv func(c <-chan struct{})) {
		ready, freed, done := make(chan struct{}, 2), make(chan struct{}, 2), make(chan struct{})
		freed <- struct{}{}
		freed <- struct{}{}
		go func() {
			defer close(done)
			for range steps {
				recv(freed)
				spin(work)
				ready <- struct{}{}
			}
		}()
		for range steps {
			recv(ready)
			spin(work)
			freed <- struct{}{}
		}
		<-done
	}
	var t [3]time.Duration
	for b.Loop() {
		for i, f := range []func(){
			func() { spin(2 * steps * work) },
			func() { pipe(func(c <-chan struct{}) { <-c }) },
			func() { pipe(func(c <-chan struct{}) { Poll(c, stop) }) },
		} {
			t0 := time.Now()
			f()
			t[i] += time.Since(t0)
		}
	}
	b.ReportMetric(float64(t[1])/float64(t[0]), "block/serial")
	b.ReportMetric(float64(t[2])/float64(t[0]), "handoff/serial")
}
