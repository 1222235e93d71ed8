package gomlx_test

import (
	"fmt"
	"io"
	"log"

	"github.com/obskit/obskit/convert"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/index"
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
	ds, err := gomlx.Labeled("digits", loader)
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
	// resume at {Seed:1 Epoch:1 Batch:1}
}
