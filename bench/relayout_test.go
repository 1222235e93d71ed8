package bench

import (
	"runtime"
	"testing"

	"github.com/obskit/obskit/bench/internal/cpuclock"
	"github.com/obskit/obskit/internal/gather"
)

// BenchmarkObsFirst measures the one-time relayout of the observation-last array
// of BenchmarkPaired: "alloc" is Array.ObsFirst, allocation of the new array
// (and the faulting in of its pages) included; "kernel" is its kernel alone
// (gather.Copy) into a preallocated buffer; "copy" is copy() of the same bytes
// into a buffer allocated once, the floor of any one-pass relayout.
// "cpu-ms/op" is the thread's CPU time per relayout, user and system.
func BenchmarkObsFirst(b *testing.B) {
	last := arrays(b, float32Layouts).last
	shape, strides := []int{Obs, Width}, []int{1, Obs}
	dst := make([]float32, Obs*Width)
	copy(dst, last.Data()) // fault the pages in before timing
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"copy", func() { copy(dst, last.Data()) }},
		{"kernel", func() { gather.Copy(dst, last.Data(), shape, strides, 0) }},
		{"alloc", func() { last.ObsFirst() }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(Obs * Width * 4)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			t0 := cpuclock.Thread()
			for b.Loop() {
				c.f()
			}
			b.ReportMetric(float64(cpuclock.Thread()-t0)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}
