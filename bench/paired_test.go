package bench

import (
	"runtime"
	"testing"
	"time"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/bench/internal/cpuclock"
)

// issue2 returns the float32 arrays of issue 2's benchmark.
func issue2() *layouts[float32] {
	l, err := float32Layouts()
	if err != nil {
		panic(err)
	}
	return l
}

// A baseline of BenchmarkPaired takes the batch it should gather.
type baseline func(idx []int)

// copyBaseline is the physical limit: copy() of a batch-sized contiguous block,
// taken at successive positions of the same source so that it is not cache-hot.
func copyBaseline() baseline {
	src := issue2().first.Data()
	dst := make([]float32, BatchSize*Width)
	n, pos := len(dst), 0
	return func([]int) {
		copy(dst, src[pos:pos+n])
		if pos += n; pos+n > len(src) {
			pos = 0
		}
	}
}

// naiveBaseline is what a user would write for observation-last data: observation
// by observation, element by element, into an observation-first batch.
func naiveBaseline() baseline {
	src := issue2().last.Data()
	dst := make([]float32, BatchSize*Width)
	return func(idx []int) {
		for j, i := range idx {
			for f := range Width {
				dst[j*Width+f] = src[f*Obs+i]
			}
		}
	}
}

// naiveRowsBaseline is the same loop in the row order of the source: one element
// per observation from each row, into an observation-last batch.
func naiveRowsBaseline() baseline {
	src := issue2().last.Data()
	dst := make([]float32, BatchSize*Width)
	return func(idx []int) {
		for f := range Width {
			row := src[f*Obs : (f+1)*Obs]
			for j, i := range idx {
				dst[f*BatchSize+j] = row[i]
			}
		}
	}
}

// kitBaseline gathers from a into a reused buffer.
func kitBaseline(a *arraycontainer.Array[float32]) baseline {
	buf := a.GetObsInto(nil, permBatches()[0])
	return func(idx []int) { buf = a.GetObsInto(buf, idx) }
}

// BenchmarkPaired runs the kit and its baseline alternately in every iteration
// and reports the ratio of their times, so that load from other processes on a
// shared machine hits both alike. The two take turns going first and read
// different batches (half the permutation apart), so neither finds the other's
// data in cache. Each side is timed with the thread's CPU clock (on Linux; the
// goroutine is locked to its thread), which counts memory stalls but not the
// time the thread waited for a core while other processes ran. (It was
// arraycontainer's benchmark until the thread clock, which needs
// golang.org/x/sys, moved out of the library module.)
//
// "speedup" is baseline time / kit time: 1 means the kit is as fast as the
// baseline, above 1 faster. MB/s counts the bytes of both sides.
func BenchmarkPaired(b *testing.B) {
	cases := []struct {
		name      string
		base, kit func() baseline
	}{
		{"first-vs-copy", copyBaseline, func() baseline { return kitBaseline(issue2().first) }},
		{"last-vs-naive", naiveBaseline, func() baseline { return kitBaseline(issue2().last) }},
		{"last-vs-naive-rows", naiveRowsBaseline, func() baseline { return kitBaseline(issue2().last) }},
		{"relaid-vs-first", func() baseline { return kitBaseline(issue2().first) }, func() baseline { return kitBaseline(issue2().relaid) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			batches := permBatches()
			b.SetBytes(2 * BatchSize * Width * 4)
			b.ReportAllocs()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			base, kit := c.base(), c.kit()
			var tb, tk time.Duration
			k, nb := 0, len(batches)
			for b.Loop() {
				first, second := base, kit
				fi, si := batches[k], batches[(k+nb/2)%nb]
				if k%2 == 1 {
					first, second, fi, si = kit, base, si, fi
				}
				t0 := cpuclock.Thread()
				first(fi)
				t1 := cpuclock.Thread()
				second(si)
				t2 := cpuclock.Thread()
				if k%2 == 0 {
					tb, tk = tb+t1-t0, tk+t2-t1
				} else {
					tk, tb = tk+t1-t0, tb+t2-t1
				}
				k = (k + 1) % nb
			}
			b.ReportMetric(float64(tb)/float64(tk), "speedup")
		})
	}
}
