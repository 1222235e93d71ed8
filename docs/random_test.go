package docs_test

// The example of random.md.

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/transform"
	"github.com/obskit/obskit/tuples"
)

func Example_randomTransforms() {
	digits := datasets.Digits() // 1,797 images of [8 8] uint8 pixels, labels 0..9

	// A random augmentation: each image is mirrored left to right with
	// probability 1/2, drawn from the image's own generator.
	mirror := transform.MapRand(digits.X(), func(img *arraycontainer.Array[uint8], rng *rand.Rand) *arraycontainer.Array[uint8] {
		if rng.IntN(2) == 1 {
			px := img.Data() // GetObs gave a fresh copy: change it in place
			for row := range 8 {
				slices.Reverse(px[8*row : 8*row+8])
			}
		}
		return img
	})
	data, err := tuples.Zip2(mirror, digits.Y())
	if err != nil {
		panic(err)
	}

	// What a run sees: a checksum of the pixels of each batch of epochs 0 and 1.
	run := func(from eachobs.Position, opts ...eachobs.Option) []int {
		loader := eachobs.NewLoader(data, 600, append(opts, eachobs.Shuffle(42))...)
		seq, err := loader.Resume(from)
		if err != nil {
			panic(err)
		}
		var sums []int
		for b := range seq {
			if b.Pos.Epoch == 2 {
				break
			}
			sum := 0
			for j, img := range b.Data.X {
				for k, p := range img.Data() {
					sum += (j + k%8) * int(p) // weighs columns: a mirror changes it
				}
			}
			sums = append(sums, sum)
		}
		return sums
	}
	start := eachobs.Position{Seed: 42}
	serial := run(start)
	fmt.Println("serial:        ", serial)
	fmt.Println("4 workers:     ", run(start, eachobs.Workers(4), eachobs.Prefetch(2)))
	fmt.Println("resumed at 1/1:", run(eachobs.Position{Seed: 42, Epoch: 1, Batch: 1}, eachobs.Workers(2)))
	// Output:
	// serial:         [57223251 56947708 56036985 56887960 56589196 55813833]
	// 4 workers:      [57223251 56947708 56036985 56887960 56589196 55813833]
	// resumed at 1/1: [56589196 55813833]
}
