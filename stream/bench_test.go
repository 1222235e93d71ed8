package stream_test

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/internal/cputime"
	"github.com/obskit/obskit/stream"
)

// burn does n rounds of xorshift: real CPU work that the compiler cannot drop.
func burn(seed uint64, n int) uint64 {
	x := seed | 1
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

var (
	calibrateOnce  sync.Once
	roundsPer100us int
)

// rounds100us returns the number of burn rounds that take 100µs of CPU on this
// machine: the fastest of several timings, so that load from other processes
// makes the work longer rather than shorter.
func rounds100us() int {
	calibrateOnce.Do(func() {
		const probe = 1 << 20
		best := time.Duration(1 << 62)
		for range 15 {
			start := time.Now()
			sink = burn(uint64(start.UnixNano()), probe)
			best = min(best, time.Since(start))
		}
		roundsPer100us = int(float64(probe) * float64(100*time.Microsecond) / float64(best))
	})
	return roundsPer100us
}

var sink uint64

const benchItems = 10_000

// costly is the map of the benchmark: 100µs of CPU per item; it returns its
// input so the benchmark can check the order.
func costly(rounds int) func(int) (int, error) {
	return func(v int) (int, error) {
		if burn(uint64(v), rounds) == 0 {
			return -1, nil // never: xorshift of a nonzero seed is nonzero
		}
		return v, nil
	}
}

func checkOrder(b *testing.B, s stream.Stream[int]) {
	i := 0
	for v, err := range s.All() {
		if err != nil || v != i {
			b.Fatalf("value %d: got %d, %v", i, v, err)
		}
		i++
	}
	if i != benchItems {
		b.Fatalf("%d values, want %d", i, benchItems)
	}
}

// BenchmarkParallelMap maps 10,000 items at 100µs of CPU each, serially (the
// baseline) and with workers, checking that the order is kept. One op is one
// pass over the 10,000 items.
func BenchmarkParallelMap(b *testing.B) {
	f := costly(rounds100us())
	b.Run("serial", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			checkOrder(b, stream.MapErr(ints(benchItems), f))
		}
	})
	for _, w := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				checkOrder(b, stream.ParallelMap(ints(benchItems), w, f))
			}
		})
	}
}

// BenchmarkParallelMapSpeedup alternates a serial pass and a 4-worker pass in
// every op and reports their ratio, so that both see the same load on a shared
// machine.
func BenchmarkParallelMapSpeedup(b *testing.B) {
	f := costly(rounds100us())
	var serial, parallel, serialCPU, parallelCPU time.Duration
	for b.Loop() {
		start, cpu0 := time.Now(), processCPU()
		checkOrder(b, stream.MapErr(ints(benchItems), f))
		mid, cpu1 := time.Now(), processCPU()
		checkOrder(b, stream.ParallelMap(ints(benchItems), 4, f))
		serial += mid.Sub(start)
		parallel += time.Since(mid)
		serialCPU += cpu1 - cpu0
		parallelCPU += processCPU() - cpu1
	}
	b.ReportMetric(float64(serial.Microseconds())/float64(b.N)/1e3, "serial-ms/pass")
	b.ReportMetric(float64(parallel.Microseconds())/float64(b.N)/1e3, "parallel-ms/pass")
	b.ReportMetric(float64(serial)/float64(parallel), "speedup")
	// The cores each kind of pass actually got: CPU time over wall time. On a
	// quiet 2-core machine it is near 1 for serial passes and near 2 for parallel
	// ones; when the parallel figure is well below 2, the machine, not the code,
	// limits the speedup.
	if parallelCPU > 0 {
		b.ReportMetric(float64(serialCPU)/float64(serial), "serial-cores")
		b.ReportMetric(float64(parallelCPU)/float64(parallel), "parallel-cores")
	}
}

// BenchmarkOverhead measures what each stage costs per value with no work in
// the pipeline, pulled with Iter.Next; the source alone is the baseline.
func BenchmarkOverhead(b *testing.B) {
	const n = 100_000
	id := func(v int) (int, error) { return v, nil }
	for _, bc := range []struct {
		name string
		s    stream.Stream[int]
	}{
		{"source", ints(n)},
		{"Map", stream.Map(ints(n), func(v int) int { return v })},
		{"ShuffleBuffer/1000", stream.ShuffleBuffer(ints(n), 1000, 1)},
		{"BlockShuffle/1000", stream.BlockShuffle(ints(n), 1000, 1)},
		{"Batches+Unbatch/32", stream.Unbatch(stream.Batches(ints(n), 32, index.Keep))},
		{"Prefetch/64", stream.Prefetch(ints(n), 64)},
		{"ParallelMap/4", stream.ParallelMap(ints(n), 4, id)},
		{"ParallelMap/4/unordered", stream.ParallelMap(ints(n), 4, id, stream.Unordered())},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				it := bc.s.Iter()
				for _, ok := it.Next(); ok; _, ok = it.Next() {
				}
				if err := it.Err(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/value")
		})
	}
}

// plainShuffleBuffer and plainBatches are the range-over-func readers the
// package had before its stages saved their state (copies of them, kept here as
// the baseline of BenchmarkStagesVsPlain): a closure over a *rand.Rand, its
// state in local variables that nothing can save.
func plainShuffleBuffer(r iter.Seq2[int, error], size int, rng *rand.Rand) iter.Seq2[int, error] {
	return func(yield func(int, error) bool) {
		buf := make([]int, 0, min(size, 1024))
		for v, err := range r {
			if err != nil {
				yield(v, err)
				return
			}
			if len(buf) < size {
				buf = append(buf, v)
				continue
			}
			i := rng.IntN(size)
			out := buf[i]
			buf[i] = v
			if !yield(out, nil) {
				return
			}
		}
		rng.Shuffle(len(buf), func(i, j int) { buf[i], buf[j] = buf[j], buf[i] })
		for _, v := range buf {
			if !yield(v, nil) {
				return
			}
		}
	}
}

func plainBatches(r iter.Seq2[int, error], size int) iter.Seq2[[]int, error] {
	return func(yield func([]int, error) bool) {
		var b []int
		for v, err := range r {
			if err != nil {
				yield(nil, err)
				return
			}
			if b == nil {
				b = make([]int, 0, size)
			}
			if b = append(b, v); len(b) == size {
				if !yield(b, nil) {
					return
				}
				b = nil
			}
		}
		if len(b) > 0 {
			yield(b[:len(b):len(b)], nil)
		}
	}
}

// BenchmarkStagesVsPlain runs 100,000 integers through a shuffle buffer of
// 1000 and batches of 32, as this package's stages (pulled with Iter.Next,
// their state saveable at any value) and as the plain range-over-func readers
// above, alternating in every iteration; it reports each side's ns/value and
// the stages' time over the plain readers' (stages/plain).
func BenchmarkStagesVsPlain(b *testing.B) {
	const n = 100_000
	x := seq(n)
	stages := stream.Batches(stream.ShuffleBuffer(stream.FromSlice(x), 1000, 1), 32, index.Keep)
	source := func(yield func(int, error) bool) {
		for _, v := range x {
			if !yield(v, nil) {
				return
			}
		}
	}
	runStages := func() time.Duration {
		start := time.Now()
		it := stages.Iter()
		for _, ok := it.Next(); ok; _, ok = it.Next() {
		}
		if err := it.Err(); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	runPlain := func() time.Duration {
		start := time.Now()
		for _, err := range plainBatches(plainShuffleBuffer(source, 1000, rand.New(rand.NewPCG(1, 0))), 32) {
			if err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start)
	}
	var tp, ts time.Duration
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			tp += runPlain()
			ts += runStages()
		} else {
			ts += runStages()
			tp += runPlain()
		}
	}
	values := float64(b.N) * n
	b.ReportMetric(float64(tp.Nanoseconds())/values, "plain-ns/value")
	b.ReportMetric(float64(ts.Nanoseconds())/values, "stages-ns/value")
	b.ReportMetric(float64(ts)/float64(tp), "stages/plain")
}

// BenchmarkSave saves a pass standing in a shuffle buffer of 10,000 integers
// (full) over a slice: the time of a checkpoint (ns/op) and its size
// (state-bytes), and the time of restoring it (resume-µs).
func BenchmarkSave(b *testing.B) {
	s := stream.ShuffleBuffer(ints(1_000_000), 10_000, 1)
	it := s.Iter()
	defer it.Close()
	for range 20_000 {
		it.Next()
	}
	var st []byte
	for b.Loop() {
		var err error
		if st, err = it.MarshalBinary(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(st)), "state-bytes")
	start := time.Now()
	q := s.Iter()
	if err := q.UnmarshalBinary(st); err != nil {
		b.Fatal(err)
	}
	q.Close()
	b.ReportMetric(float64(time.Since(start).Microseconds()), "resume-µs")
}

// BenchmarkPrefetchOverlap reads 2,000 values from a source that spends 50µs
// of CPU on each while the consumer spends 50µs more, serially (the baseline)
// and through Prefetch(s, 2). On 2 cores the prefetched pass can take half the
// serial time; it reports prefetch/serial (0.5 is perfect overlap).
func BenchmarkPrefetchOverlap(b *testing.B) {
	const items = 2000
	half := rounds100us() / 2
	source := stream.Replay(func(yield func(int, error) bool) {
		for i := range items {
			if burn(uint64(i), half) == 0 || !yield(i, nil) {
				return
			}
		}
	})
	pass := func(s stream.Stream[int]) time.Duration {
		t := time.Now()
		n := 0
		for v, err := range s.All() {
			if err != nil || v != n {
				b.Fatalf("value %d: got %d, %v", n, v, err)
			}
			sink += burn(uint64(v), half)
			n++
		}
		if n != items {
			b.Fatalf("%d values, want %d", n, items)
		}
		return time.Since(t)
	}
	prefetched := stream.Prefetch(source, 2)
	var tSerial, tPrefetch time.Duration
	for b.Loop() {
		tSerial += pass(source)
		tPrefetch += pass(prefetched)
	}
	b.ReportMetric(float64(tPrefetch)/float64(tSerial), "prefetch/serial")
}

// processCPU is the process's CPU time, all threads (0 where it cannot be read).
func processCPU() time.Duration { d, _ := cputime.Process(); return d }
