package gomlx_test

import (
	"fmt"
	"log"
	"math/rand/v2"
	"slices"

	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/convert"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/provider"
	"github.com/obskit/obskit/transform"
	"github.com/obskit/obskit/tuples"
)

// The embedded digits as a GoMLX dataset, read as GoMLX's trainer reads it:
// one Iter per epoch (train.Loop.RunEpochs), each the next epoch, reshuffled.
// The images become one float32 input of [batch 8 8], the labels one int64
// label of [batch 1]; the partial last batch is dropped, so that every step
// has the shapes of the first. Each batch's tensors are new and the caller's:
// GoMLX's trainer frees them after the step, as Finalize does here.
func ExampleLabeled() {
	backend, err := gobackend.New("") // GoMLX's pure-Go backend: no cgo, nothing downloaded
	if err != nil {
		log.Fatal(err)
	}
	digits := datasets.Digits()
	data, err := tuples.Zip2(convert.Scale(digits.X(), float32(1.0/16), 0), digits.Y())
	if err != nil {
		log.Fatal(err)
	}
	loader := eachobs.NewLoader(data, 512, eachobs.Shuffle(1), eachobs.Tail(index.Drop), eachobs.Prefetch(1))
	ds, err := gomlx.Labeled(backend, "digits", loader.Iter())
	if err != nil {
		log.Fatal(err)
	}
	defer ds.Close()
	for range 2 { // two epochs
		for b, err := range ds.Iter() {
			if err != nil {
				log.Fatal(err)
			}
			fmt.Printf("input %s, label %s\n", b.Inputs[0].Shape(), b.Labels[0].Shape())
			if err := b.Finalize(); err != nil {
				log.Fatal(err)
			}
		}
		fmt.Println("next:", ds.Position())
	}
	// Output:
	// input (Float32)[512, 8, 8], label (Int64)[512, 1]
	// input (Float32)[512, 8, 8], label (Int64)[512, 1]
	// input (Float32)[512, 8, 8], label (Int64)[512, 1]
	// next: epoch 1 batch 0 (0 of 1797 consumed; cipher seed 1; drop)
	// input (Float32)[512, 8, 8], label (Int64)[512, 1]
	// input (Float32)[512, 8, 8], label (Int64)[512, 1]
	// input (Float32)[512, 8, 8], label (Int64)[512, 1]
	// next: epoch 2 batch 0 (0 of 1797 consumed; cipher seed 1; drop)
}

// A provider's named sources as a GoMLX dataset: its data sources are the
// inputs and its label sources the labels, in order. Constant padding fills
// the last batch to full size, and Mask adds the label that tells its real
// observations (true) from the padding (false).
func ExampleProvided() {
	backend, err := gobackend.New("")
	if err != nil {
		log.Fatal(err)
	}
	x, err := arraycontainer.New([]float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, []int{5, 2}, obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	y, err := arraycontainer.New([]int32{10, 11, 12, 13, 14}, []int{5}, obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	data, err := tuples.NewNamed([]string{"pixels"}, x)
	if err != nil {
		log.Fatal(err)
	}
	label, err := tuples.NewNamed([]string{"digit"}, y)
	if err != nil {
		log.Fatal(err)
	}
	p, err := provider.New(data, label, 3, provider.PadWith(-1))
	if err != nil {
		log.Fatal(err)
	}
	ds, err := gomlx.Provided(backend, "eval", p, gomlx.Mask())
	if err != nil {
		log.Fatal(err)
	}
	defer ds.Close()
	for b, err := range ds.Iter() {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(b.Spec, b.Inputs[0].Value(), b.Labels[0].Value(), b.Labels[1].Value())
		if err := b.Finalize(); err != nil {
			log.Fatal(err)
		}
	}
	// Output:
	// gomlx.Mask [[0 1] [2 3] [4 5]] [[10] [11] [12]] [true true true]
	// gomlx.Mask [[6 7] [8 9] [-1 -1]] [[13] [14] [-1]] [true true false]
}

// New with a fill function of one's own: the batches of transform.MapRand (a
// random augmentation, drawn per observation from the loop's seed and epoch)
// are lists of arrays, which Stack writes as one tensor, batch first; Values
// writes one label per observation.
func ExampleNew() {
	backend, err := gobackend.New("")
	if err != nil {
		log.Fatal(err)
	}
	digits := datasets.Digits()
	flip := func(img *arraycontainer.Array[uint8], rng *rand.Rand) *arraycontainer.Array[uint8] {
		if rng.IntN(2) == 0 { // mirror the image left to right, half of the time
			px := img.Data()
			for r := range 8 {
				slices.Reverse(px[8*r : 8*r+8])
			}
		}
		return img
	}
	data, err := tuples.Zip2(transform.MapRand(digits.X(), flip), digits.Y())
	if err != nil {
		log.Fatal(err)
	}
	loader := eachobs.NewLoader(data, 100, eachobs.Shuffle(3), eachobs.Tail(index.Drop), eachobs.Workers(2))
	ds, err := gomlx.New(backend, "augmented", loader.Iter(), func(w *gomlx.Writer, b tuples.Pair[[]*arraycontainer.Array[uint8], []int]) {
		gomlx.Stack(w.Input(), b.X)  // [100 8 8] uint8
		gomlx.Values(w.Label(), b.Y) // [100 1] int64
	})
	if err != nil {
		log.Fatal(err)
	}
	defer ds.Close()
	for b, err := range ds.Iter() {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(b.Inputs[0].Shape(), b.Labels[0].Shape())
		if err := b.Finalize(); err != nil {
			log.Fatal(err)
		}
		break
	}
	// Output:
	// (Uint8)[100, 8, 8] (Int64)[100, 1]
}

// A training run stopped mid-epoch goes on where it stopped: SaveState puts
// the dataset's state (its loop's MarshalBinary) into the model's store, which
// GoMLX's checkpoints save with the weights (SaveOnStep does both), and
// RestoreState sets a new dataset, over a new loader with any prefetching or
// workers, to it. The restored dataset yields the batches the uninterrupted
// run would have.
func ExampleDataset_RestoreState() {
	backend, err := gobackend.New("")
	if err != nil {
		log.Fatal(err)
	}
	digits := datasets.Digits()
	data, err := tuples.Zip2(digits.X(), digits.Y())
	if err != nil {
		log.Fatal(err)
	}
	labels := func(ds *gomlx.Dataset[arraycontainer.LabeledBatch[uint8, int]], n int) [][]int64 {
		var out [][]int64
		for b, err := range ds.Iter() {
			if err != nil {
				log.Fatal(err)
			}
			out = append(out, tensors.MustCopyFlatData[int64](b.Labels[0])[:4]) // the first 4 labels
			if err := b.Finalize(); err != nil {
				log.Fatal(err)
			}
			if len(out) == n {
				break
			}
		}
		return out
	}
	loader := func(opts ...eachobs.Option) *eachobs.Loader[arraycontainer.LabeledBatch[uint8, int]] {
		return eachobs.NewLoader(data, 256, append(opts, eachobs.Shuffle(5), eachobs.Tail(index.Drop))...)
	}

	run, err := gomlx.Labeled(backend, "train", loader(eachobs.Prefetch(2)).Iter())
	if err != nil {
		log.Fatal(err)
	}
	labels(run, 3) // 3 of the epoch's 7 batches...
	store := model.NewStore()
	if err := run.SaveState(store); err != nil { // ...and the checkpoint
		log.Fatal(err)
	}
	uninterrupted := labels(run, 2)
	run.Close()

	resumed, err := gomlx.Labeled(backend, "train", loader(eachobs.Workers(2)).Iter())
	if err != nil {
		log.Fatal(err)
	}
	defer resumed.Close()
	if _, err := resumed.RestoreState(store); err != nil {
		log.Fatal(err)
	}
	fmt.Println("restored at", resumed.Position())
	fmt.Println("uninterrupted:", uninterrupted)
	fmt.Println("resumed:      ", labels(resumed, 2))
	// Output:
	// restored at epoch 0 batch 3 (768 of 1797 consumed; cipher seed 5; drop)
	// uninterrupted: [[6 7 4 9] [9 4 5 5]]
	// resumed:       [[6 7 4 9] [9 4 5 5]]
}
