package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/bench/internal/cref"
	"github.com/obskit/obskit/internal/gather"
	"github.com/obskit/obskit/internal/pipeline"
)

// splitRows are the batch sizes of BenchmarkSplit.
var splitRows = []int{32, 64, 128, 256, 512, 1024, 2048, 4096}

// BenchmarkSplit gathers one shuffled batch of rows (60000 x 784 float32,
// observation-first, batches of 32 to 4096 rows) with two goroutines, each
// gathering half of it with gather.GatherPart into its part of the one batch,
// beside one goroutine gathering the whole batch with gather.Gather. x-one is
// one goroutine's time over two's: the speedup of the split (issue 11 asks for
// at least 1.6 on batches of 1024 on 2 cores), and the batch size where it
// passes 1 is the crossover below which a split does not pay.
//
// The second goroutine is the benchmark's, started once per batch size and
// fed through internal/pipeline.Poll, the polling receive, as the kit's pipelines hand
// off work; the benchmark's goroutine gathers the first half itself and waits
// for the second. The kit starts no goroutine here: a split is for the
// pipeline that runs the kit's workers to make (see docs/design.md).
//
// With cgo the same split runs in C ("c-two": each goroutine copies its half
// with the C reference's memcpy and 8 KiB prefetch cursor, on its own thread)
// beside C on one thread ("c-one"): x-c-one / x-c-two is the speedup the
// memory system gives two cores in the same run, the ceiling of the kit's.
func BenchmarkSplit(b *testing.B) {
	a := arrays(b, float32Layouts).first
	data := a.Data()
	shape, strides := a.Shape(), a.Strides()
	for _, rows := range splitRows {
		b.Run(fmt.Sprint(rows), func(b *testing.B) {
			batches := cutBatches(rand.New(rand.NewPCG(42, 1)).Perm(Obs), rows)
			nb := len(batches)
			bytes := int64(rows * Width * 4)
			two, one := make([]float32, rows*Width), make([]float32, rows*Width)

			type job struct {
				part   func(idx []int, lo, hi int)
				idx    []int
				lo, hi int
			}
			// Buffered both ways, so that neither side parks on a send: a
			// goroutine parked on a send is woken onto the receiver's core
			// and waits there until the receiver yields (see internal/pipeline.PollBudget).
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
			// split gathers idx with part, the second half on the other
			// goroutine.
			split := func(part func(idx []int, lo, hi int), idx []int) {
				half := len(idx) / 2
				work <- job{part, idx, half, len(idx)}
				part(idx, 0, half)
				pipeline.Poll(done, stop)
			}
			kit := func(idx []int, lo, hi int) { gather.GatherPart(two, data, shape, strides, 0, 0, idx, lo, hi) }
			sides := []side{
				{"two", bytes, func(k int) { split(kit, batches[k%nb]) }},
				{"one", bytes, func(k int) { gather.Gather(one, data, shape, strides, 0, 0, batches[(k+nb/2)%nb]) }},
			}
			if cref.Available {
				raw, n := asBytes(data), Width*4
				c1, c2 := make([]byte, rows*n), make([]byte, rows*n)
				c := func(idx []int, lo, hi int) {
					cref.RowsDist(c2[lo*n:hi*n], raw, n, n, idx[lo:hi], gather.PrefetchDistance)
				}
				sides = append(sides,
					side{"c-two", bytes, func(k int) { split(c, batches[(k+nb/4)%nb]) }},
					side{"c-one", bytes, func(k int) {
						cref.RowsDist(c1, raw, n, n, batches[(k+3*nb/4)%nb], gather.PrefetchDistance)
					}},
				)
			}
			paired(b, sides...)
		})
	}
}
