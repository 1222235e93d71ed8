package bench

import (
	"fmt"
	"testing"

	"github.com/obskit/obskit/bench/internal/cref"
	"github.com/obskit/obskit/internal/gather"
	"github.com/obskit/obskit/internal/pipeline"
)

// BenchmarkSplit gathers every shuffled batch of a pass (an epoch of the
// 60000 x 784 float32 array, batches of 32 to 4096 rows) with two goroutines,
// each gathering half of the batch with gather.GatherPart into its part of the
// one batch, beside one goroutine gathering it with gather.Gather. x-one is
// one's time over two's, the speedup of the split; the batch size where it
// passes 1 is the crossover below which a split does not pay.
//
// The second goroutine is the benchmark's, fed through pipeline.Poll as the
// kit's pipelines hand off work. With cgo the same split runs in C ("c-two":
// each goroutine copies its half with memcpy and the kernel's 8 KiB prefetch
// cursor, on its own thread) beside C on one thread ("c-one"): their ratio is
// what the memory system gives two cores in the same run, and x-c, the kit's
// speedup over C's, is issue 15's target (at least 0.95).
func BenchmarkSplit(b *testing.B) {
	x := filled[float32](b, Obs)
	data, shape, strides := x.Data(), x.Shape(), x.Strides()
	raw, n := asBytes(data), Width*4
	for _, rows := range []int{32, 64, 128, 256, 512, 1024, 2048, 4096} {
		b.Run(fmt.Sprint(rows), func(b *testing.B) {
			batches := cutBatches(shuffled(Obs), rows)
			amount := int64(len(batches) * rows * n)
			two, one := make([]float32, rows*Width), make([]float32, rows*Width)
			c1, c2 := make([]byte, rows*n), make([]byte, rows*n)
			type job struct {
				part   func(idx []int, lo, hi int)
				idx    []int
				lo, hi int
			}
			// Buffered both ways, so that neither side parks on a send (see
			// pipeline.PollBudget).
			work, done, stop := make(chan job, 1), make(chan struct{}, 1), make(chan struct{})
			defer close(stop)
			go func() {
				for {
					j, _, stopped := pipeline.Poll(work, stop)
					if stopped {
						return
					}
					j.part(j.idx, j.lo, j.hi)
					done <- struct{}{}
				}
			}()
			split := func(part func(idx []int, lo, hi int)) func() {
				return func() {
					for _, idx := range batches {
						half := len(idx) / 2
						work <- job{part, idx, half, len(idx)}
						part(idx, 0, half)
						pipeline.Poll(done, stop)
					}
				}
			}
			sides := []side{
				wallTimed("two", amount, split(func(idx []int, lo, hi int) { gather.GatherPart(two, data, shape, strides, 0, 0, idx, lo, hi) })),
				wallTimed("one", amount, func() {
					for _, idx := range batches {
						gather.Gather(one, data, shape, strides, 0, 0, idx)
					}
				}),
			}
			if cref.Available {
				sides = append(sides,
					wallTimed("c-two", amount, split(func(idx []int, lo, hi int) {
						cref.Cursor(c2[lo*n:hi*n], raw, n, n, idx[lo:hi], 8<<10, gather.PrefetchHead, cref.Memcpy)
					})),
					wallTimed("c-one", amount, func() {
						for _, idx := range batches {
							cref.Cursor(c1, raw, n, n, idx, 8<<10, gather.PrefetchHead, cref.Memcpy)
						}
					}))
			}
			best := paired(b, "MB/s", false, sides...)
			if len(best) == 4 {
				b.ReportMetric(float64(best[1])/float64(best[0])*float64(best[2])/float64(best[3]), "x-c")
			}
		})
	}
}
