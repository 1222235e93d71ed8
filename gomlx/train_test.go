package gomlx_test

import (
	"iter"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/layers/activation"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/checkpoint"
	"github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/loss"
	"github.com/gomlx/gomlx/ml/train/metric"
	"github.com/gomlx/gomlx/ml/train/optimizer"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"go.uber.org/goleak"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/convert"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/transform"
	"github.com/obskit/obskit/tuples"
)

// mlp is a classifier of flattened inputs: one hidden layer of 32 ReLUs, 10
// logits.
func mlp(scope *model.Scope, _ any, inputs []*graph.Node) []*graph.Node {
	x := graph.Reshape(inputs[0], inputs[0].Shape().Dimensions[0], -1)
	x = activation.Relu(layers.DenseWithBias(scope.In("hidden"), x, 32))
	return []*graph.Node{layers.DenseWithBias(scope.In("logits"), x, 10)}
}

func newTrainer(t *testing.T, store *model.Store) *train.Trainer {
	t.Helper()
	if err := store.SetRNGStateFromSeed(42); err != nil {
		t.Fatal(err)
	}
	return train.NewTrainer(backend(), store, mlp, loss.SparseCategoricalCrossEntropyLogits,
		optimizer.Adam().LearningRate(0.01).Done(), nil,
		[]metric.Interface{metric.NewSparseCategoricalAccuracy("accuracy", "acc"), gomlx.MaskedAccuracy("masked accuracy", "macc")})
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
	ds, err := gomlx.Labeled(backend(), "train", eachobs.NewLoader(trainPart, 128, eachobs.Shuffle(5), eachobs.Tail(index.Drop), eachobs.Prefetch(1)).Iter())
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	trainer := newTrainer(t, model.NewStore())
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
		return shapes.ConvertTo[float64](m[2].Value()) // loss, accuracy, masked accuracy
	}
	padded, err := gomlx.Labeled(backend(), "test", eachobs.NewLoader(test, 64, eachobs.Tail(index.Pad)).Iter(), gomlx.Mask())
	if err != nil {
		t.Fatal(err)
	}
	defer padded.Close()
	whole, err := gomlx.Labeled(backend(), "test", eachobs.NewLoader(test, test.Nobs()).Iter(), gomlx.Mask()) // one batch
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
	if again := accuracy(padded); again != a { // each Eval is the next epoch: the same batches
		t.Errorf("a second evaluation gave %.6f, the first %.6f", again, a)
	}
}

// A seen is what one training step was given and what it gave: the batch's
// first labels and the sum of its pixels, and the step's loss.
type seen struct {
	Labels []int64
	Sum    float64
	Loss   float64
}

// recorder is a train.Dataset that notes the batches of ds as the trainer
// takes them.
type recorder struct {
	train.Dataset
	got *[]seen
}

func (r recorder) Iter() iter.Seq2[train.Batch, error] {
	return func(yield func(train.Batch, error) bool) {
		for b, err := range r.Dataset.Iter() {
			if err == nil {
				y := tensors.MustCopyFlatData[int64](b.Labels[0])[:8]
				sum := 0.0
				for _, v := range tensors.MustCopyFlatData[float32](b.Inputs[0]) {
					sum += float64(v)
				}
				*r.got = append(*r.got, seen{Labels: y, Sum: sum})
			}
			if !yield(b, err) {
				return
			}
		}
	}
}

// TestResumeFromCheckpoint: a run stopped after step 17 and restarted from its
// last checkpoint (step 10: the weights, the optimizer and the loader's
// state, saved together by SaveOnStep) trains on exactly the batches of the
// uninterrupted run from step 10 on, with its loss curve, though the
// restarted loader has other workers and prefetching. The batches are
// shuffled and augmented at random per observation (transform.MapRand).
func TestResumeFromCheckpoint(t *testing.T) {
	defer goleak.VerifyNone(t)
	d := datasets.Digits()
	x := convert.Scale(d.X(), float32(1.0/16), 0) // [1797 8 8]
	data, err := tuples.Zip2(transform.MapRand(x, shift), d.Y())
	if err != nil {
		t.Fatal(err)
	}
	const steps, stopAt, every = 30, 17, 10
	run := func(store *model.Store, opts []eachobs.Option, restore bool, n int, ckpt *checkpoint.Handler) []seen {
		t.Helper()
		l := eachobs.NewLoader(data, 64, append(opts, eachobs.Shuffle(5), eachobs.Tail(index.Drop))...)
		ds, err := gomlx.New(backend(), "train", l.Iter(), func(w *gomlx.Writer, b tuples.Pair[[]*arraycontainer.Array[float32], []int]) {
			gomlx.Stack(w.Input(), b.X)
			gomlx.Values(w.Label(), b.Y)
		}, gomlx.Endless())
		if err != nil {
			t.Fatal(err)
		}
		defer ds.Close()
		if restore {
			ok, err := ds.RestoreState(store)
			if err != nil || !ok {
				t.Fatalf("RestoreState: %v, %v", ok, err)
			}
		}
		loop := train.NewLoop(newTrainer(t, store))
		var got []seen
		if ckpt != nil {
			train.EveryNSteps(loop, every, "checkpoint", 100, ds.SaveOnStep(ckpt, store))
		}
		loop.OnStep("loss", 200, func(_ *train.Loop, m []*tensors.Tensor) error {
			got[len(got)-1].Loss = shapes.ConvertTo[float64](m[0].Value())
			return nil
		})
		if _, err := loop.RunSteps(recorder{ds, &got}, n); err != nil {
			t.Fatal(err)
		}
		return got
	}
	want := run(model.NewStore(), []eachobs.Option{eachobs.Workers(2), eachobs.Prefetch(2)}, false, steps, nil)

	dir := t.TempDir()
	store := model.NewStore()
	ckpt, err := checkpoint.Build(store).Dir(dir).Keep(2).Done()
	if err != nil {
		t.Fatal(err)
	}
	first := run(store, []eachobs.Option{eachobs.Workers(2), eachobs.Prefetch(2)}, false, stopAt, ckpt)

	// The restart: a new process would build all this anew.
	store = model.NewStore()
	if _, err := checkpoint.Build(store).Dir(dir).Done(); err != nil { // loads the step-10 checkpoint
		t.Fatal(err)
	}
	if step := optimizer.GetGlobalStep(store); step != every {
		t.Fatalf("the checkpoint is of step %d, want %d", step, every)
	}
	rest := run(store, []eachobs.Option{eachobs.Workers(3)}, true, steps-every, nil)

	approx := cmpopts.EquateApprox(1e-6, 1e-9)
	if diff := cmp.Diff(want[:stopAt], first, approx); diff != "" {
		t.Errorf("the run before the stop differs from the uninterrupted one (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want[every:], rest, approx); diff != "" {
		t.Errorf("the restarted run differs from the uninterrupted one from step %d (-want +got):\n%s", every, diff)
	}
	if cmp.Equal(want[0].Labels, want[every].Labels) || want[0].Loss <= want[steps-1].Loss {
		t.Errorf("the run does not shuffle or does not learn: losses %v ... %v", want[0].Loss, want[steps-1].Loss)
	}
}
