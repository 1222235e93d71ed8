package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/layers"
	"github.com/gomlx/gomlx/pkg/ml/layers/activations"
	"github.com/gomlx/gomlx/pkg/ml/train"
	"github.com/gomlx/gomlx/pkg/ml/train/losses"
	"github.com/gomlx/gomlx/pkg/ml/train/metrics"
	"github.com/gomlx/gomlx/pkg/ml/train/optimizers"
)

// model returns the perceptron's logits for a batch of images of uint8 pixel
// counts 0..16: scaled to [0, 1] in the graph, flattened, one hidden layer of
// ReLUs, 10 logits.
func model(hidden int) train.ModelFn {
	return func(ctx *context.Context, _ any, inputs []*graph.Node) []*graph.Node {
		ctx = ctx.In("model")
		x := inputs[0]
		x = graph.DivScalar(graph.ConvertDType(x, dtypes.Float32), 16)
		x = graph.Reshape(x, x.Shape().Dimensions[0], -1)
		x = activations.Relu(layers.DenseWithBias(ctx.In("hidden"), x, hidden))
		return []*graph.Node{layers.DenseWithBias(ctx.In("logits"), x, 10)}
	}
}

// A fit is one model being trained: a trainer with its own variables.
type fit struct {
	trainer *train.Trainer
	loop    *train.Loop
	steps   time.Duration // time in the training loop (steps and Yield)
}

// newFit returns a fresh model trained by Adam at rate, its weights drawn from
// seed.
func newFit(backend backends.Backend, cfg config, rate float64, seed uint64) (*fit, error) {
	ctx := context.New()
	if err := ctx.SetRNGStateFromSeed(int64(seed)); err != nil {
		return nil, err
	}
	tr := train.NewTrainer(backend, ctx, model(cfg.hidden), losses.SparseCategoricalCrossEntropyLogits,
		optimizers.Adam().LearningRate(rate).Done(),
		[]metrics.Interface{metrics.NewSparseCategoricalAccuracy("accuracy", "acc")},
		[]metrics.Interface{metrics.NewSparseCategoricalAccuracy("accuracy", "acc")})
	return &fit{trainer: tr, loop: train.NewLoop(tr)}, nil
}

// epoch trains one epoch of ds and returns the mean accuracy of its batches.
func (f *fit) epoch(ds train.Dataset) (float64, error) {
	start := time.Now()
	m, err := f.loop.RunEpochs(ds, 1)
	f.steps += time.Since(start)
	if err != nil {
		return 0, err
	}
	return value(m[len(m)-1]), nil // batch loss, ~loss+, ~loss, accuracy
}

// eval returns the mean loss and the accuracy of the model on ds.
func (f *fit) eval(ds train.Dataset) (loss, acc float64, err error) {
	m, err := f.trainer.Eval(ds)
	if err != nil {
		return 0, 0, err
	}
	if len(m) != 3 {
		return 0, 0, fmt.Errorf("evaluation gave %d metrics, want 3", len(m))
	}
	return value(m[1]), value(m[2]), nil // #loss+, #loss, accuracy
}

func value(t *tensors.Tensor) float64 { return shapes.ConvertTo[float64](t.Value()) }

// weights are copies of a model's variables, by scope and name.
type weights map[string]*tensors.Tensor

// snapshot returns copies of the model's weights, to restore the best epoch's.
func (f *fit) snapshot() (weights, error) {
	out := weights{}
	for v := range f.trainer.Context().IterVariables() {
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
		out[v.ScopeAndName()] = c
	}
	return out, nil
}

// restore sets the model's weights to a snapshot.
func (f *fit) restore(s weights) error {
	for v := range f.trainer.Context().IterVariables() {
		if t, ok := s[v.ScopeAndName()]; ok {
			if err := v.SetValue(t); err != nil {
				return err
			}
		}
	}
	return nil
}
