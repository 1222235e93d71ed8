package bench

import (
	"testing"

	"github.com/obskit/obskit/arraycontainer"
)

// naiveSide is what a user would write for observation-last data src ([Width
// Obs]): observation by observation, element by element, into an
// observation-first batch. It gathers batch k+phase of batches.
func naiveSide(src []float32, batches [][]int, phase int) side {
	dst := make([]float32, BatchSize*Width)
	return side{"naive", int64(len(dst)) * 4, func(k int) {
		for j, i := range batches[(k+phase)%len(batches)] {
			for f := range Width {
				dst[j*Width+f] = src[f*Obs+i]
			}
		}
	}}
}

// naiveRowsSide is the same loop in the row order of the source: one element
// per observation from each row, into an observation-last batch.
func naiveRowsSide(src []float32, batches [][]int, phase int) side {
	dst := make([]float32, BatchSize*Width)
	return side{"naive-rows", int64(len(dst)) * 4, func(k int) {
		idx := batches[(k+phase)%len(batches)]
		for f := range Width {
			row := src[f*Obs : (f+1)*Obs]
			for j, i := range idx {
				dst[f*BatchSize+j] = row[i]
			}
		}
	}}
}

// BenchmarkPaired runs the kit's gather of issue 2's float32 arrays and its
// baseline alternately in every iteration and reports the ratio of their
// times, so that load from other processes on a shared machine hits both
// alike. The two take turns going first and read different batches (half the
// permutation apart), so neither finds the other's data in cache. Each side
// is timed with the thread's CPU clock (threadClock: on Linux, the goroutine
// locked to its thread), which counts memory stalls but not the time the
// thread waited for a core while other processes ran. (It was
// arraycontainer's benchmark until the thread clock, which needs
// golang.org/x/sys, moved out of the library module.)
//
// "speedup" is baseline time / kit time: 1 means the kit is as fast as the
// baseline, above 1 faster. MB/s counts the bytes of both sides, and
// "<side>-MB/s" the throughput of each ("kit" and the baseline's name).
func BenchmarkPaired(b *testing.B) {
	l := arrays(b, float32Layouts)
	batches := permBatches()
	half := len(batches) / 2
	const bytes = BatchSize * Width * 4
	for _, c := range []struct {
		name string
		kit  *arraycontainer.Array[float32] // the array the kit gathers from
		base func() side
	}{
		{"first-vs-copy", l.first, func() side { return copySide(l.first.Data(), bytes) }},
		{"last-vs-naive", l.last, func() side { return naiveSide(l.last.Data(), batches, half) }},
		{"last-vs-naive-rows", l.last, func() side { return naiveRowsSide(l.last.Data(), batches, half) }},
		{"relaid-vs-first", l.relaid, func() side { return gatherSide("first", l.first, batches, half, bytes) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			spent := alternate(b, threadClock, gatherSide("kit", c.kit, batches, 0, bytes), c.base())
			b.ReportMetric(float64(spent[1])/float64(spent[0]), "speedup")
		})
	}
}
