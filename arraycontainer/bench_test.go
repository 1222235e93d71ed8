package arraycontainer_test

import (
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/obsdim"
)

// BenchmarkObsFirst measures the one-time relayout of a 60000 x 784 float32
// observation-last array (188 MB): "alloc" is ObsFirst, allocation and page
// faults included; "copy" is copy() of the same bytes into a buffer allocated
// once, the floor of any one-pass relayout.
func BenchmarkObsFirst(b *testing.B) {
	first, err := arraycontainer.Zeros[float32]([]int{60000, 784}, obsdim.First)
	if err != nil {
		b.Fatal(err)
	}
	t, err := first.Transpose().WithDim(obsdim.Last)
	if err != nil {
		b.Fatal(err)
	}
	last := t.Clone()
	dst := make([]float32, len(last.Data()))
	copy(dst, last.Data()) // fault the pages in
	for _, c := range []struct {
		name string
		f    func()
	}{{"alloc", func() { last.ObsFirst() }}, {"copy", func() { copy(dst, last.Data()) }}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(dst)) * 4)
			for b.Loop() {
				c.f()
			}
		})
	}
}
