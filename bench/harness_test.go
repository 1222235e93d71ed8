package bench

import (
	"runtime"
	"testing"
	"time"

	"github.com/obskit/obskit/bench/internal/cpuclock"
)

// A side is one of the operations a paired benchmark alternates: run(k) does its
// k-th operation (the k-th batch, the k-th epoch), which moves bytes bytes.
type side struct {
	name  string
	bytes int64
	run   func(k int)
}

// A clock times the sides of a paired benchmark.
type clock int

const (
	// wallClock is the wall time of a side: what its caller waits, whichever
	// goroutines do the work.
	wallClock clock = iota
	// threadClock is the CPU time of the benchmark's thread
	// (cpuclock.Thread), the goroutine locked to it while the sides run: it
	// counts memory stalls but not the time the thread waited for a core
	// while other processes ran. Only for sides that run on the calling
	// goroutine alone; it does not see the work of other goroutines.
	threadClock
)

// paired runs every side once per iteration, rotating which one goes first,
// and times each with the wall clock, so that load from other processes on a
// shared machine hits all sides alike and the ratios come from one run.
//
// It reports each side's own throughput as "<name>-MB/s" and, for every side
// after the first (the kit), "x-<name>": the time of an operation of that side
// divided by the time of an operation of the kit. Above 1 the kit is faster; for
// a side that moves the same bytes it is the kit's throughput as a multiple of
// that side's. b.SetBytes counts the bytes of all sides, so the standard MB/s
// column is their combined rate, and allocs/op counts the allocations of all
// sides (the baselines allocate nothing).
func paired(b *testing.B, sides ...side) {
	b.Helper()
	spent := alternate(b, wallClock, sides...)
	for i, s := range sides[1:] {
		b.ReportMetric(float64(spent[i+1])/float64(spent[0]), "x-"+s.name)
	}
}

// alternate is paired without the ratios: it runs the sides in turn, timed
// with c, reports their throughputs ("<name>-MB/s"), the bytes and the
// allocations of all sides, and returns the time each side spent.
func alternate(b *testing.B, c clock, sides ...side) []time.Duration {
	b.Helper()
	var total int64
	for _, s := range sides {
		total += s.bytes
	}
	b.SetBytes(total)
	b.ReportAllocs()
	start := time.Now()
	now := func() time.Duration { return time.Since(start) }
	if c == threadClock {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		now = cpuclock.Thread
	}
	spent := make([]time.Duration, len(sides))
	k := 0
	for b.Loop() {
		for j := range sides {
			i := (k + j) % len(sides)
			t0 := now()
			sides[i].run(k)
			spent[i] += now() - t0
		}
		k++
	}
	for i, s := range sides {
		b.ReportMetric(float64(s.bytes)*float64(k)/spent[i].Seconds()/1e6, s.name+"-MB/s")
	}
	return spent
}
