package gomlx_test

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/layers"
	"github.com/gomlx/gomlx/pkg/ml/layers/activations"
	"github.com/gomlx/gomlx/pkg/ml/train"
	"github.com/gomlx/gomlx/pkg/ml/train/losses"
	"github.com/gomlx/gomlx/pkg/ml/train/metrics"
	"github.com/gomlx/gomlx/pkg/ml/train/optimizers"

	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/subset"
)

// backend is the pure-Go backend every test shares. It runs a graph's ops one
// after another: simplego v0.26.0's parallel scheduling of ops reads its
// bookkeeping without a lock (the race detector reports it).
var backend = sync.OnceValue(func() backends.Backend {
	b, err := simplego.New("ops_sequential")
	if err != nil {
		panic(err)
	}
	return b
})

// mlp is a classifier of flattened inputs: one hidden layer of 32 ReLUs, 10
// logits.
func mlp(ctx *context.Context, _ any, inputs []*graph.Node) []*graph.Node {
	x := graph.Reshape(inputs[0], inputs[0].Shape().Dimensions[0], -1)
	x = activations.Relu(layers.DenseWithBias(ctx.In("hidden"), x, 32))
	return []*graph.Node{layers.DenseWithBias(ctx.In("logits"), x, 10)}
}

func newTrainer(t *testing.T, seed int64) *train.Trainer {
	ctx := context.New()
	if err := ctx.SetRNGStateFromSeed(seed); err != nil {
		t.Fatal(err)
	}
	return train.NewTrainer(backend(), ctx, mlp, losses.SparseCategoricalCrossEntropyLogits,
		optimizers.Adam().LearningRate(0.01).Done(), nil,
		[]metrics.Interface{metrics.NewSparseCategoricalAccuracy("accuracy", "acc"), gomlx.MaskedAccuracy("masked accuracy", "macc")})
}

// TestTrainLearns: a short training run through the adapter with GoMLX's
// trainer learns the digits, and an evaluation over a padded, masked last batch
// gives the accuracy of an evaluation over whole batches.
func TestTrainLearns(t *testing.T) {
	data := digits(t)
	parts, err := subset.StratifiedSplit(data, rand.New(rand.NewPCG(1, 2)), 0.8)
	if err != nil {
		t.Fatal(err)
	}
	trainPart, test := parts[0], parts[1] // 1438 and 359 observations
	ds, err := gomlx.Labeled("train", eachobs.NewLoader(trainPart, 128, eachobs.Shuffle(5), eachobs.Tail(index.Drop), eachobs.Prefetch(1)).Iter())
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	trainer := newTrainer(t, 42)
	loop := train.NewLoop(trainer)
	const epochs = 3
	if _, err := loop.RunEpochs(ds, epochs); err != nil {
		t.Fatal(err)
	}
	if st, want := ds.Stats(), epochs*(trainPart.Nobs()/128); st.Batches != want {
		t.Errorf("Stats().Batches = %d, want %d", st.Batches, want)
	}
	if p := ds.Position(); p.Epoch != epochs || p.Batch != 0 {
		t.Errorf("Position after %d epochs = %+v, want epoch %d batch 0", epochs, p, epochs)
	}

	accuracy := func(ds train.Dataset) float64 {
		t.Helper()
		m, err := trainer.Eval(ds)
		if err != nil {
			t.Fatal(err)
		}
		return shapes.ConvertTo[float64](m[3].Value()) // loss+, loss, accuracy, masked accuracy
	}
	padded, err := gomlx.Labeled("test", eachobs.NewLoader(test, 64, eachobs.Tail(index.Pad)).Iter(), gomlx.Mask())
	if err != nil {
		t.Fatal(err)
	}
	defer padded.Close()
	whole, err := gomlx.Labeled("test", eachobs.NewLoader(test, test.Nobs()).Iter(), gomlx.Mask()) // one batch
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	a, b := accuracy(padded), accuracy(whole)
	if a < 0.85 {
		t.Errorf("test accuracy after %d epochs %.3f, want >= 0.85", epochs, a)
	}
	if math.Abs(a-b) > 1e-6 {
		t.Errorf("accuracy over a padded, masked last batch %.6f, over whole batches %.6f", a, b)
	}
	if again := accuracy(padded); again != a { // Eval resets: the same batches again
		t.Errorf("a second evaluation gave %.6f, the first %.6f", again, a)
	}

	// An Endless dataset serves train.Loop.RunSteps across epochs (the graph
	// of the same shape is reused), and its position counts the steps.
	trainLoader := eachobs.NewLoader(trainPart, 128, eachobs.Shuffle(5), eachobs.Tail(index.Drop))
	endless, err := gomlx.Labeled("train", trainLoader.Iter(), gomlx.Endless())
	if err != nil {
		t.Fatal(err)
	}
	defer endless.Close()
	at := trainLoader.Iter().Pos() // epoch 3 batch 9
	at.Epoch, at.Consumed, at.Batch = trainLoader.Steps().After(3, 8)
	if err := endless.Resume(at); err != nil {
		t.Fatal(err)
	}
	if _, err := loop.RunSteps(endless, 4); err != nil { // 11 batches an epoch
		t.Fatal(err)
	}
	if p := endless.Position(); p.Epoch != 4 || p.Batch != 2 {
		t.Errorf("Position after 4 steps from epoch 3 batch 9 = %+v, want epoch 4 batch 2", p)
	}
	// The tensors the trainer used are the dataset's own, shared with the
	// backend after the first step: no copy beyond the writer's.
	_, in, _, err := endless.Yield()
	if err != nil {
		t.Fatal(err)
	}
	if !in[0].IsShared() {
		t.Errorf("the input tensor is not shared with the simplego backend after training")
	}
}
