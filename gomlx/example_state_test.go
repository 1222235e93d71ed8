package gomlx_test

import (
	"fmt"
	"log"
	"os"

	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/checkpoint"
	"github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/loss"
	"github.com/gomlx/gomlx/ml/train/optimizer"

	"github.com/obskit/obskit/convert"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/tuples"
)

// Training that resumes with its data: SaveOnStep saves the loader's state
// with each checkpoint; a restarted process loads the last checkpoint, builds
// its dataset anew and RestoreState puts it after the last step saved, so that
// RunSteps goes on with the batches the stopped run would have had next.
func ExampleDataset_SaveOnStep() {
	dir, err := os.MkdirTemp("", "checkpoints")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	backend, err := gobackend.New("")
	if err != nil {
		log.Fatal(err)
	}
	digits := datasets.Digits()
	data, err := tuples.Zip2(convert.Scale(digits.X(), float32(1.0/16), 0), digits.Y())
	if err != nil {
		log.Fatal(err)
	}
	linear := func(scope *model.Scope, x *graph.Node) *graph.Node {
		return layers.DenseWithBias(scope.In("logits"), graph.Reshape(x, x.Shape().Dimensions[0], -1), 10)
	}
	// run trains steps steps in a "process" of its own, from the last
	// checkpoint in dir if there is one, and checkpoints every 5 steps.
	run := func(steps int) {
		store := model.NewStore()
		ckpt, err := checkpoint.Build(store).Dir(dir).Keep(2).Done() // loads the last checkpoint
		if err != nil {
			log.Fatal(err)
		}
		loader := eachobs.NewLoader(data, 100, eachobs.Shuffle(1), eachobs.Tail(index.Drop), eachobs.Prefetch(2))
		ds, err := gomlx.Labeled(backend, "train", loader.Iter(), gomlx.Endless())
		if err != nil {
			log.Fatal(err)
		}
		defer ds.Close()
		restored, err := ds.RestoreState(store)
		if err != nil {
			log.Fatal(err)
		}
		trainer := train.NewTrainer(backend, store, linear, loss.SparseCategoricalCrossEntropyLogits, optimizer.Adam().Done(), nil, nil)
		loop := train.NewLoop(trainer)
		train.EveryNSteps(loop, 5, "checkpoint", 100, ds.SaveOnStep(ckpt, store))
		fmt.Printf("restored %v, step %d, next batch: %v\n", restored, optimizer.GetGlobalStep(store), ds.Position())
		if _, err := loop.RunSteps(ds, steps); err != nil {
			log.Fatal(err)
		}
	}
	run(12) // checkpoints at steps 5 and 10, then stops
	run(8)  // goes on from step 10
	// Output:
	// restored false, step 0, next batch: epoch 0 batch 0 (0 of 1797 consumed; cipher seed 1; drop)
	// restored true, step 10, next batch: epoch 0 batch 10 (1000 of 1797 consumed; cipher seed 1; drop)
}

// Normalize in the graph: uint8 pixels (a batch of one 1x2 image of three
// channels, channels last) become (v/255 - mean)/std per channel, moved here
// to channels first, as PyTorch's layout has them.
func ExampleNormalize() {
	backend, err := gobackend.New("")
	if err != nil {
		log.Fatal(err)
	}
	pixels := tensors.FromValue([][][][]uint8{{{{0, 128, 255}, {255, 0, 51}}}}) // [1 1 2 3]
	exec, err := graph.NewExec(backend, func(x *graph.Node) *graph.Node {
		return gomlx.Normalize(x, gomlx.ChannelsLast, gomlx.ChannelsFirst, 255, []float32{0.5, 0.5, 0}, []float32{0.5, 0.5, 1})
	})
	if err != nil {
		log.Fatal(err)
	}
	out, err := exec.Call(pixels)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out[0].Shape(), out[0].Value())
	// Output:
	// (Float32)[1, 3, 1, 2] [[[[-1 1]] [[0.003921628 -1]] [[1 0.2]]]]
}
