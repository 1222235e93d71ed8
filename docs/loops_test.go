package docs_test

// The example of loops.md.

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/obskit/obskit/convert"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

func Example_loop() {
	digits := datasets.Digits() // 1,797 images: [8 8] uint8 pixels 0..16, labels 0..9

	// Pixels become float32 in [0, 1] as they are gathered, into the batch buffer.
	pixels := convert.Scale(digits.X(), float32(1.0/16), 0)
	data, err := tuples.Zip2(pixels, digits.Y())
	if err != nil {
		panic(err)
	}
	parts, err := subset.StratifiedSplit(data, rand.New(rand.NewPCG(1, 2)), 0.8)
	if err != nil {
		panic(err)
	}
	train := parts[0]

	// Two epochs of shuffled batches of 500, the short last batch dropped,
	// the next batch gathered in the background while the body works.
	loop := eachobs.Batches(train, 500, eachobs.Shuffle(42), eachobs.Tail(index.Drop), eachobs.Prefetch(1))
	for range 2 {
		for b := range loop { // each range statement runs the next epoch
			x, y := b.Data.X, b.Data.Y // a [500 8 8] float32 array and a []int, reused next step
			fmt.Println("epoch", b.Pos.Epoch, "batch", b.Pos.Batch, "of", b.Count, x.Shape(),
				"pixels in", slices.Min(x.Data()), "..", slices.Max(x.Data()), "labels", y[:4])
		}
	}
	// Output:
	// epoch 0 batch 0 of 2 [500 8 8] pixels in 0 .. 1 labels [8 4 2 1]
	// epoch 0 batch 1 of 2 [500 8 8] pixels in 0 .. 1 labels [4 8 9 8]
	// epoch 1 batch 0 of 2 [500 8 8] pixels in 0 .. 1 labels [4 8 5 7]
	// epoch 1 batch 1 of 2 [500 8 8] pixels in 0 .. 1 labels [3 9 7 6]
}
