// Command quickstart splits the embedded iris data into training and test
// sets, then loops over shuffled batches that reuse one buffer.
package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/subset"
)

func main() {
	data := datasets.Iris() // 150 flowers: features X [150 4], species Y 0..2

	// A stratified, shuffled 80/20 split: both parts keep the class proportions.
	parts, err := subset.StratifiedSplit(data, rand.New(rand.NewPCG(1, 2)), 0.8)
	if err != nil {
		panic(err)
	}
	train, test := parts[0], parts[1]
	fmt.Println("train:", train.Nobs(), "test:", test.Nobs())

	// One epoch in shuffled batches of 50. b.Data.X (a [50 4] array) and
	// b.Data.Y (a []int) live in one reused buffer: valid until the next step.
	for b := range eachobs.Batches(train, 50, eachobs.Shuffle(7)) {
		fmt.Println("batch", b.Pos.Batch, b.Data.X.Shape(), "labels", b.Data.Y[:8], "...")
	}
}
