package gomlx_test

import (
	"iter"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/layers/activation"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/loss"
	"github.com/gomlx/gomlx/ml/train/optimizer"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/tuples"
)

// BenchmarkNormalizeStep measures the training step of a small CNN (a 3x3
// convolution of 16 channels, stride 2, ReLU, a 2x2 max-pool, 10 logits) on
// batches of 32 images of 64x64x3 through the adapter, fed two ways, the sides
// alternating stepsPerRound steps at a time:
//
//   - uint8: the 8-bit pixels (augment's ApplyUint8), normalized in the graph
//     by Normalize with ImageNet's mean and std;
//   - float32: the same images already normalized (augment's Apply with
//     augment.ImageNet), four times the bytes.
//
// It reports ns/step of both and uint8 over float32. The loader's side of
// the two (images per CPU second) is augment's BenchmarkImages.
//
//	go test -C gomlx -run '^$' -bench NormalizeStep -count 5
func BenchmarkNormalizeStep(b *testing.B) {
	const n, batch, side, stepsPerRound = 512, 32, 64, 10
	rng := rand.New(rand.NewPCG(5, 6))
	pixels := make([]uint8, n*side*side*3)
	for i := range pixels {
		pixels[i] = uint8(rng.IntN(256))
	}
	floats := make([]float32, len(pixels))
	for i, v := range pixels {
		c := i % 3
		floats[i] = (float32(v)/255 - augment.ImageNet.Mean[c]) / augment.ImageNet.Std[c]
	}
	labels := make(container.Slice[int], n)
	for i := range labels {
		labels[i] = rng.IntN(10)
	}
	cnn := func(normalize bool) func(*model.Scope, *graph.Node) *graph.Node {
		return func(scope *model.Scope, x *graph.Node) *graph.Node {
			if normalize {
				x = gomlx.Normalize(x, gomlx.ChannelsLast, gomlx.ChannelsLast, 255, augment.ImageNet.Mean[:], augment.ImageNet.Std[:])
			}
			x = layers.Convolution(scope.In("conv"), x).Channels(16).KernelSize(3).Strides(2).PadSame().Done()
			x = graph.MaxPool(activation.Relu(x)).Window(2).Done()
			return layers.DenseWithBias(scope.In("logits"), graph.Reshape(x, batch, -1), 10)
		}
	}
	type sideT struct {
		name  string
		next  func() (train.Batch, error, bool)
		tr    *train.Trainer
		total time.Duration
		steps int
	}
	dims := []int{n, side, side, 3}
	var sides []*sideT
	add := func(name string, ds train.Dataset, normalize bool) {
		store := model.NewStore()
		tr := train.NewTrainer(backend(), store, cnn(normalize), loss.SparseCategoricalCrossEntropyLogits, optimizer.Adam().Done(), nil, nil)
		next, stop := iter.Pull2(ds.Iter())
		b.Cleanup(stop)
		sides = append(sides, &sideT{name: name, next: next, tr: tr})
	}
	x8, err := arraycontainer.New(pixels, dims, obsdim.First)
	if err != nil {
		b.Fatal(err)
	}
	d8, err := tuples.Zip2(x8, labels)
	if err != nil {
		b.Fatal(err)
	}
	ds8, err := gomlx.Labeled(backend(), "uint8", eachobs.NewLoader(d8, batch, eachobs.Shuffle(1), eachobs.Tail(index.Drop), eachobs.Prefetch(1)).Iter(), gomlx.Endless())
	if err != nil {
		b.Fatal(err)
	}
	defer ds8.Close()
	add("uint8", ds8, true)
	xf, err := arraycontainer.New(floats, dims, obsdim.First)
	if err != nil {
		b.Fatal(err)
	}
	df, err := tuples.Zip2(xf, labels)
	if err != nil {
		b.Fatal(err)
	}
	dsf, err := gomlx.Labeled(backend(), "float32", eachobs.NewLoader(df, batch, eachobs.Shuffle(1), eachobs.Tail(index.Drop), eachobs.Prefetch(1)).Iter(), gomlx.Endless())
	if err != nil {
		b.Fatal(err)
	}
	defer dsf.Close()
	add("float32", dsf, false)

	step := func(s *sideT, timed bool) {
		start := time.Now()
		bt, err, ok := s.next()
		if !ok || err != nil {
			b.Fatalf("%s: no batch: %v", s.name, err)
		}
		m, err := s.tr.TrainStep(bt)
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range m {
			_ = t.FinalizeAll()
		}
		if timed {
			s.total += time.Since(start)
			s.steps++
		}
	}
	for _, s := range sides { // compiles the graphs
		for range 2 {
			step(s, false)
		}
	}
	for b.Loop() {
		for _, s := range sides {
			for range stepsPerRound {
				step(s, true)
			}
		}
	}
	per := func(s *sideT) float64 { return float64(s.total.Nanoseconds()) / float64(s.steps) }
	b.ReportMetric(per(sides[0]), "ns/step-uint8")
	b.ReportMetric(per(sides[1]), "ns/step-float32")
	b.ReportMetric(per(sides[0])/per(sides[1]), "x-uint8/float32")
}
