package gomlx_test

import (
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"slices"

	"github.com/gomlx/gomlx/pkg/core/tensors"

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
// Yield until io.EOF, then Reset for the next epoch, reshuffled. The images
// become one float32 input of [batch 8 8], the labels one int64 label of
// [batch 1]; the partial last batch is dropped, so that every step has the
// shapes of the first. Position is where to resume after a checkpoint.
func ExampleLabeled() {
	digits := datasets.Digits()
	data, err := tuples.Zip2(convert.Scale(digits.X(), float32(1.0/16), 0), digits.Y())
	if err != nil {
		log.Fatal(err)
	}
	loader := eachobs.NewLoader(data, 512, eachobs.Shuffle(1), eachobs.Tail(index.Drop), eachobs.Prefetch(1))
	ds, err := gomlx.Labeled("digits", loader.Iter())
	if err != nil {
		log.Fatal(err)
	}
	defer ds.Close()
	for range 5 {
		pos := ds.Position()
		_, inputs, labels, err := ds.Yield()
		if err == io.EOF {
			fmt.Println("end of epoch", ds.Epoch())
			ds.Reset() // the trainer's call: the next epoch, reshuffled
			continue
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("epoch %d batch %d: input %s, label %s\n", pos.Epoch, pos.Batch, inputs[0].Shape(), labels[0].Shape())
	}
	fmt.Printf("resume at %+v\n", ds.Position())
	// Output:
	// epoch 0 batch 0: input (Float32)[512 8 8], label (Int64)[512 1]
	// epoch 0 batch 1: input (Float32)[512 8 8], label (Int64)[512 1]
	// epoch 0 batch 2: input (Float32)[512 8 8], label (Int64)[512 1]
	// end of epoch 0
	// epoch 1 batch 0: input (Float32)[512 8 8], label (Int64)[512 1]
	// resume at epoch 1 batch 1 (512 of 1797 consumed; cipher seed 1; drop)
}

// A provider's named sources as a GoMLX dataset: its data sources are the
// inputs and its label sources the labels, in order. Constant padding fills
// the last batch to full size, and Mask adds the label that tells its real
// observations (true) from the padding (false).
func ExampleProvided() {
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
	ds, err := gomlx.Provided("eval", p, gomlx.Mask())
	if err != nil {
		log.Fatal(err)
	}
	defer ds.Close()
	for {
		spec, inputs, labels, err := ds.Yield()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(spec, inputs[0].Value(), labels[0].Value(), labels[1].Value())
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
	ds, err := gomlx.New("augmented", loader.Iter(), func(w *gomlx.Writer, b tuples.Pair[[]*arraycontainer.Array[uint8], []int]) {
		gomlx.Stack(w.Input(), b.X)  // [100 8 8] uint8
		gomlx.Values(w.Label(), b.Y) // [100 1] int64
	})
	if err != nil {
		log.Fatal(err)
	}
	defer ds.Close()
	_, inputs, labels, err := ds.Yield()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(inputs[0].Shape(), labels[0].Shape())
	// Output:
	// (Uint8)[100 8 8] (Int64)[100 1]
}

// A training run interrupted mid-epoch goes on where it stopped: save
// Position with the checkpoint, and Resume a new dataset (over a new loop,
// with any prefetching or workers) there. The resumed dataset yields the
// batches the uninterrupted run would have.
func ExampleDataset_Resume() {
	digits := datasets.Digits()
	data, err := tuples.Zip2(digits.X(), digits.Y())
	if err != nil {
		log.Fatal(err)
	}
	labels := func(ds *gomlx.Dataset[arraycontainer.LabeledBatch[uint8, int]], n int) [][]int64 {
		var out [][]int64
		for range n {
			_, _, lab, err := ds.Yield()
			if err != nil {
				log.Fatal(err)
			}
			out = append(out, tensors.MustCopyFlatData[int64](lab[0])[:4]) // the first 4 labels
		}
		return out
	}
	loader := func() *eachobs.Loader[arraycontainer.LabeledBatch[uint8, int]] {
		return eachobs.NewLoader(data, 256, eachobs.Shuffle(5), eachobs.Tail(index.Drop), eachobs.Prefetch(2))
	}

	run, err := gomlx.Labeled("train", loader().Iter())
	if err != nil {
		log.Fatal(err)
	}
	labels(run, 3)        // 3 of the epoch's 7 batches...
	pos := run.Position() // ...and the checkpoint
	fmt.Println("checkpoint at", pos)
	uninterrupted := labels(run, 2)
	run.Close()

	resumed, err := gomlx.Labeled("train", loader().Iter())
	if err != nil {
		log.Fatal(err)
	}
	defer resumed.Close()
	if err := resumed.Resume(pos); err != nil {
		log.Fatal(err)
	}
	fmt.Println("uninterrupted:", uninterrupted)
	fmt.Println("resumed:      ", labels(resumed, 2))
	// Output:
	// checkpoint at epoch 0 batch 3 (768 of 1797 consumed; cipher seed 5; drop)
	// uninterrupted: [[6 7 4 9] [9 4 5 5]]
	// resumed:       [[6 7 4 9] [9 4 5 5]]
}
