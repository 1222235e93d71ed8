package gomlx_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/tuples"
)

// benchData is n observations of features float32 and an int label.
func benchData(b *testing.B, n, features int) ([]float32, arraycontainer.Labeled[float32, int]) {
	rng := rand.New(rand.NewPCG(1, 2))
	xs := make([]float32, n*features)
	for i := range xs {
		xs[i] = rng.Float32()
	}
	x, err := arraycontainer.New(xs, []int{n, features}, obsdim.First)
	if err != nil {
		b.Fatal(err)
	}
	ys := make(container.Slice[int], n)
	for i := range ys {
		ys[i] = rng.IntN(10)
	}
	data, err := tuples.Zip2(x, ys)
	if err != nil {
		b.Fatal(err)
	}
	return xs, data
}

// BenchmarkAdapter measures what the adapter adds to the kit's loop per batch:
// each iteration runs a shuffled epoch of the plain loop (the batches gathered
// and handed to an empty body) and the same epoch through a Dataset's Iter
// (gathered, then written into new device tensors, freed after each batch as
// the trainer frees them), alternating, and reports the time per batch of each,
// their ratio, and the time per batch of a copy() of the batch's bytes, the
// least the write into a tensor can cost.
//
//	go test -C gomlx -run '^$' -bench Adapter -count 5
func BenchmarkAdapter(b *testing.B) {
	for _, c := range []struct {
		name        string
		n, features int
		batch       int
	}{
		{"digits-64x32", 1797, 64, 32},     // the demo's data and batch
		{"mnist-784x128", 60000, 784, 128}, // MNIST's shape, 188 MB of float32
	} {
		b.Run(c.name, func(b *testing.B) {
			xs, data := benchData(b, c.n, c.features)
			l := eachobs.NewLoader(data, c.batch, eachobs.Shuffle(3), eachobs.Tail(index.Drop))
			ds, err := gomlx.Labeled(backend(), "bench", l.Iter())
			if err != nil {
				b.Fatal(err)
			}
			defer ds.Close()
			batches := c.n / c.batch
			dst := make([]float32, c.batch*c.features)
			var plain, adapter, copies time.Duration
			e := 0
			for b.Loop() {
				start := time.Now()
				for bt := range l.Epoch(e) {
					_ = bt
				}
				plain += time.Since(start)

				start = time.Now()
				for bt, err := range ds.Iter() {
					if err != nil {
						b.Fatal(err)
					}
					_ = bt.Finalize()
				}
				adapter += time.Since(start)

				start = time.Now()
				for k := range batches {
					copy(dst, xs[k*len(dst):(k+1)*len(dst)])
				}
				copies += time.Since(start)
				e++
			}
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(e*batches) }
			b.ReportMetric(per(plain), "ns/batch-loop")
			b.ReportMetric(per(adapter), "ns/batch-adapter")
			b.ReportMetric(per(adapter)-per(plain), "ns/batch-added")
			b.ReportMetric(per(copies), "ns/batch-copy")
			b.ReportMetric(float64(adapter)/float64(plain), "x-loop")
		})
	}
}
