package provider_test

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/provider"
	"github.com/obskit/obskit/tuples"
)

// benchCase is one data shape of the benchmarks: n observations of width
// float32 features and one int32 label, in batches of size. "mnist" moves
// MNIST-sized rows, where the gather dominates; "tiny" moves 4 features in
// batches of 4, where the per-batch bookkeeping of the loops dominates, so any
// cost the provider adds shows there first.
type benchCase struct {
	name           string
	n, width, size int
}

var benchCases = []benchCase{
	{"mnist", 10000, 784, 128},
	{"tiny", 10000, 4, 4},
}

// benchLoops returns one shuffled, constant-padded epoch loop of the case as
// the provider runs it and as eachobs runs it without the provider (a Loader
// over the same groups zipped, with the index.Pad tail the provider's padding
// overwrites), both drained by the returned functions.
func benchLoops(b *testing.B, c benchCase) (viaProvider, viaEachobs func()) {
	xs := make([]float32, c.n*c.width)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range xs {
		xs[i] = rng.Float32()
	}
	ys := make([]int32, c.n)
	for i := range ys {
		ys[i] = int32(rng.IntN(10))
	}
	x := must(arraycontainer.New(xs, []int{c.n, c.width}, obsdim.First))
	y := must(arraycontainer.New(ys, []int{c.n}, obsdim.First))
	data := must(tuples.NewNamed([]string{"data"}, x))
	label := must(tuples.NewNamed([]string{"label"}, y))

	p := must(provider.New(data, label, c.size, provider.Loop(eachobs.Shuffle(7)), provider.PadWith(0)))
	zipped := must(tuples.Zip2(data, label))
	l := eachobs.NewLoader(zipped, c.size, eachobs.Shuffle(7), eachobs.Tail(index.Pad))

	// Each call runs the next epoch, as training does: a loop keeps the
	// permutation of its last epoch, so repeating one epoch would skip drawing it.
	var real, pe, le int
	viaProvider = func() {
		for bt := range p.Epoch(pe) {
			real += bt.Real
		}
		pe++
	}
	viaEachobs = func() {
		for bt := range l.Epoch(le) {
			real += bt.Real
		}
		le++
	}
	viaProvider() // the first epochs allocate the buffers
	viaEachobs()
	return viaProvider, viaEachobs
}

// BenchmarkEpoch runs one epoch through the provider and through the eachobs
// loop it wraps. Read MB/s side by side, and allocs/batch: the heap allocations
// of the timed epochs divided by their batches.
func BenchmarkEpoch(b *testing.B) {
	for _, c := range benchCases {
		viaProvider, viaEachobs := benchLoops(b, c)
		batches := (c.n + c.size - 1) / c.size
		for _, loop := range []struct {
			name string
			run  func()
		}{{"eachobs", viaEachobs}, {"provider", viaProvider}} {
			b.Run(c.name+"/"+loop.name, func(b *testing.B) {
				b.SetBytes(int64(c.n * (c.width + 1) * 4))
				b.ReportAllocs()
				m0 := mallocs()
				for b.Loop() {
					loop.run()
				}
				b.ReportMetric(float64(mallocs()-m0)/float64(b.N*batches), "allocs/batch")
			})
		}
	}
}

// BenchmarkEpochRatio runs an epoch through eachobs and one through the provider
// in every iteration, in alternating order, so that load from other processes
// hits both alike, and reports the provider's time over eachobs's: 1 when the
// provider adds nothing.
func BenchmarkEpochRatio(b *testing.B) {
	for _, c := range benchCases {
		b.Run(c.name, func(b *testing.B) {
			viaProvider, viaEachobs := benchLoops(b, c)
			var tProvider, tEachobs time.Duration
			first := true
			for b.Loop() {
				runs := []func(){viaEachobs, viaProvider}
				times := []*time.Duration{&tEachobs, &tProvider}
				if first = !first; first {
					runs[0], runs[1], times[0], times[1] = runs[1], runs[0], times[1], times[0]
				}
				for k, run := range runs {
					t0 := time.Now()
					run()
					*times[k] += time.Since(t0)
				}
			}
			b.ReportMetric(float64(tProvider)/float64(tEachobs), "provider/eachobs")
		})
	}
}

// BenchmarkSplit measures splitting a batch of four sources into views for 2
// and 8 devices: no data is copied; Split allocates the views' headers,
// SplitInto reuses those of the previous split.
func BenchmarkSplit(b *testing.B) {
	data, label := sources(b, 256)
	p := must(provider.New(data, label, 128))
	next, stop := iter.Pull(p.Epoch(0))
	defer stop()
	bt, _ := next()
	for _, k := range []int{2, 8} {
		b.Run(fmt.Sprint("Split/devices=", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				splitSink = provider.Split(bt, k)
			}
		})
		b.Run(fmt.Sprint("SplitInto/devices=", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				splitSink = provider.SplitInto(splitSink, bt, k)
			}
		})
	}
}

var splitSink []provider.Batch[float32, uint8]

// mallocs returns the number of heap allocations so far.
func mallocs() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs
}
