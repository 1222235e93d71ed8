package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/layers/activation"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/loss"
	"github.com/gomlx/gomlx/ml/train/metric"
	"github.com/gomlx/gomlx/ml/train/optimizer"

	"github.com/obskit/obskit/gomlx"
)

// cnn returns the network's logits for a batch of 8x8 images of uint8 pixel
// counts 0..16: normalized in the graph (gomlx.Normalize: v/16, one channel),
// two 3x3 convolutions of filters and 2*filters channels (same padding, ReLU),
// each followed by a 2x2 max-pool, then a dense layer of hidden ReLUs and 10
// logits. torch_train.py builds the same network with PyTorch.
func cnn(filters, hidden int) train.ModelFn {
	return func(scope *model.Scope, _ any, inputs []*graph.Node) []*graph.Node {
		scope = scope.In("model")
		x := inputs[0]
		n := x.Shape().Dimensions[0]
		x = graph.Reshape(x, n, 8, 8, 1)
		x = gomlx.Normalize(x, gomlx.ChannelsLast, gomlx.ChannelsLast, 16, []float32{0}, []float32{1})
		for i, c := range []int{filters, 2 * filters} {
			x = layers.Convolution(scope.In("conv%d", i), x).Channels(c).KernelSize(3).PadSame().Done()
			x = activation.Relu(x)
			x = graph.MaxPool(x).Window(2).Done() // 8x8 -> 4x4 -> 2x2
		}
		x = graph.Reshape(x, n, -1)
		x = activation.Relu(layers.DenseWithBias(scope.In("hidden"), x, hidden))
		return []*graph.Node{layers.DenseWithBias(scope.In("logits"), x, 10)}
	}
}

// A fit is one model being trained: a trainer with its own variables.
type fit struct {
	store   *model.Store
	trainer *train.Trainer
	loop    *train.Loop
	steps   time.Duration // time in the training loop (steps and waits for batches)
}

// newFit returns a fresh model trained by Adam at rate, its weights drawn from
// seed.
func newFit(backend compute.Backend, cfg config, rate float64, seed uint64) (*fit, error) {
	store := model.NewStore()
	if err := store.SetRNGStateFromSeed(int64(seed)); err != nil {
		return nil, err
	}
	tr := train.NewTrainer(backend, store, cnn(cfg.filters, cfg.hidden), loss.SparseCategoricalCrossEntropyLogits,
		optimizer.Adam().LearningRate(rate).Done(),
		[]metric.Interface{metric.NewSparseCategoricalAccuracy("accuracy", "acc")},
		[]metric.Interface{metric.NewSparseCategoricalAccuracy("accuracy", "acc")})
	return &fit{store: store, trainer: tr, loop: train.NewLoop(tr)}, nil
}

// epoch trains one epoch of ds and returns the mean accuracy of its batches.
func (f *fit) epoch(ds train.Dataset) (float64, error) {
	start := time.Now()
	m, err := f.loop.RunEpochs(ds, 1)
	f.steps += time.Since(start)
	if err != nil {
		return 0, err
	}
	return value(m[len(m)-1]), nil // batch loss, ~loss, accuracy
}

// eval returns the mean loss and the accuracy of the model on ds.
func (f *fit) eval(ds train.Dataset) (loss, acc float64, err error) {
	m, err := f.trainer.Eval(ds)
	if err != nil {
		return 0, 0, err
	}
	if len(m) != 2 {
		return 0, 0, fmt.Errorf("evaluation gave %d metrics, want 2", len(m))
	}
	return value(m[0]), value(m[1]), nil // #loss, accuracy
}

func value(t *tensors.Tensor) float64 { return shapes.ConvertTo[float64](t.Value()) }

// weights are copies of a model's variables, by path.
type weights map[string]*tensors.Tensor

// snapshot returns copies of the model's weights, to restore the best epoch's.
func (f *fit) snapshot() (weights, error) {
	out := weights{}
	for v := range f.store.IterVariables() {
		if v.Scope() != "/model" && !strings.HasPrefix(v.Scope(), "/model/") {
			continue
		}
		t, err := v.Value()
		if err != nil {
			return nil, err
		}
		c, err := t.LocalClone()
		if err != nil {
			return nil, err
		}
		out[v.Path()] = c
	}
	return out, nil
}

// restore sets the model's weights to a snapshot (which it then owns).
func (f *fit) restore(s weights) error {
	for v := range f.store.IterVariables() {
		if t, ok := s[v.Path()]; ok {
			if err := v.SetValue(t); err != nil {
				return err
			}
		}
	}
	return nil
}
