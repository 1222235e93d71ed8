package docs_test

// The examples of resume.md and distributed.md.

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/subset"
)

func Example_resume() {
	data := subset.Iota(7) // stands for any container: observation i is i
	loader := eachobs.NewLoader(data, 3, eachobs.Shuffle(99))

	// A first run trains for four steps, then saves its position beside the model.
	var checkpoint []byte
	seq, err := loader.Resume(eachobs.Position{Seed: 99}) // the start
	if err != nil {
		panic(err)
	}
	steps := 0
	for b := range seq {
		fmt.Println("run 1", b.Pos, b.Data)
		if steps++; steps == 4 {
			checkpoint, _ = json.Marshal(b.Next()) // the position after this batch
			break
		}
	}
	fmt.Println("checkpoint", string(checkpoint))

	// A second run, maybe on another machine, continues with the next batch.
	var pos eachobs.Position
	if err := json.Unmarshal(checkpoint, &pos); err != nil {
		panic(err)
	}
	seq, err = loader.Resume(pos)
	if err != nil {
		panic(err)
	}
	for b := range seq {
		if b.Pos.Epoch == 2 {
			break // train for 2 epochs in all
		}
		fmt.Println("run 2", b.Pos, b.Data)
	}
	// Output:
	// run 1 {99 0 0} [3 2 1]
	// run 1 {99 0 1} [6 0 4]
	// run 1 {99 0 2} [5]
	// run 1 {99 1 0} [2 1 5]
	// checkpoint {"Seed":99,"Epoch":1,"Batch":1}
	// run 2 {99 1 1} [6 4 3]
	// run 2 {99 1 2} [0]
}

func Example_twoMachines() {
	data := subset.Iota(11) // stands for any container: observation i is i
	const seed, machines = 42, 2
	for epoch := range 2 {
		var seen []int
		for rank := range machines { // on machine rank, with its own rank only
			part := index.Part{Index: rank, Parts: machines, Tail: index.Pad}
			loader := eachobs.NewLoader(data, 3, eachobs.Shuffle(seed), eachobs.Partition(part))
			var batches [][]int
			for b := range loader.Epoch(epoch) {
				batches = append(batches, slices.Clone(b.Data))
				seen = append(seen, b.Data...)
			}
			fmt.Println("epoch", epoch, "machine", rank, batches)
		}
		slices.Sort(seen)
		fmt.Println("epoch", epoch, "both machines", seen)
	}
	// Output:
	// epoch 0 machine 0 [[0 3 6] [2 4 5]]
	// epoch 0 machine 1 [[7 8 1] [10 9 0]]
	// epoch 0 both machines [0 0 1 2 3 4 5 6 7 8 9 10]
	// epoch 1 machine 0 [[7 10 4] [3 8 0]]
	// epoch 1 machine 1 [[6 2 9] [5 1 7]]
	// epoch 1 both machines [0 1 2 3 4 5 6 7 7 8 9 10]
}
