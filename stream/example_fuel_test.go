package stream_test

import (
	"cmp"
	"fmt"
	"log"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/stream"
	"github.com/obskit/obskit/tuples"
)

// A Fuel-style pipeline: a stateless dataset, a stream driven by an iteration
// scheme, and wrappers. Sentences are sorted by length within a window, batched
// and padded, so that each batch needs little padding.
func Example_fuel() {
	sentences := container.FromSlice([]string{
		"the cat sat", "hi", "a b c d e", "go", "one two", "x y z w",
	})
	order := slices.Values([]int{0, 1, 2, 3, 4, 5}) // an example scheme: the indices to read
	tokens := stream.Map(stream.Examples(sentences, order),
		func(s string) []string { return strings.Fields(s) })
	sorted := stream.SortWindow(tokens, 6, func(a, b []string) int { return cmp.Compare(len(a), len(b)) })
	for p, err := range stream.Mask(stream.Batches(sorted, 2, index.Keep), "<pad>").All() {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		for i := range p.Len() {
			fmt.Println(p.Row(i), p.MaskRow(i))
		}
	}
	// Output:
	// [hi] [1]
	// [go] [1]
	// [one two <pad>] [1 1 0]
	// [the cat sat] [1 1 1]
	// [x y z w <pad>] [1 1 1 1 0]
	// [a b c d e] [1 1 1 1 1]
}

// Examples over a shuffled example scheme: a permutation drawn once, the same
// on every pass, so that a restored pass (which ranges over the scheme again)
// reads what the saved one would have. A scheme that draws anew on every range
// gives a new order every pass but cannot be restored; the positions of an
// index.Cipher of the pass's epoch can.
func ExampleExamples() {
	labels := container.FromSlice([]string{"cat", "dog", "bird"})
	perm := rand.New(rand.NewPCG(1, 2)).Perm(labels.Nobs())
	s := stream.Examples(labels, slices.Values(perm))
	vals, err := stream.Collect(s)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(vals)
	// Output: [dog cat bird]
}

// Gather gathers each batch through the container's GetObsInto (an array's
// gather kernel here) into new memory that the consumer owns.
func ExampleGather() {
	x, err := arraycontainer.New([]float32{0, 0, 1, 1, 2, 2, 3, 3, 4, 4}, []int{5, 2}, obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	requests := slices.Chunk([]int{0, 1, 2, 3, 4}, 2) // a batch scheme: index lists
	for batch, err := range stream.Gather(x, requests).All() {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		fmt.Println(batch.Shape(), batch.Data())
	}
	// Output:
	// [2 2] [0 0 1 1]
	// [2 2] [2 2 3 3]
	// [1 2] [4 4]
}

// Gathered batches are the consumer's, so stages that hold values, such as
// Prefetch, may take them. A cipher's order yields the same lists on every
// range, so the pass can be saved and restored.
func ExampleGather_prefetch() {
	ys := container.FromSlice([]int{10, 11, 12, 13, 14})
	order := index.NewCipher(ys.Nobs(), 3, 0) // epoch 0 of seed 3
	s := stream.Gather(ys, order.Batches(2, index.Keep))
	batches, err := stream.Collect(stream.Prefetch(s, 2))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(batches)
	// Output:
	// [[14 13] [11 12] [10]]
}

func ExampleSortWindow() {
	s := stream.SortWindow(stream.FromSlice([]int{5, 3, 4, 1, 2}), 3, cmp.Compare)
	vals, err := stream.Collect(s)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(vals)
	// Output: [3 4 5 1 2]
}

func ExampleMaskBatch() {
	p := stream.MaskBatch([][]int{{1, 2, 3}, {4, 5}}, 0)
	fmt.Println(p.Row(0), p.Row(1))
	fmt.Println(p.MaskRow(0), p.MaskRow(1))
	fmt.Println(p.Data, p.Lens, p.Width)
	// Output:
	// [1 2 3] [4 5 0]
	// [1 1 1] [1 1 0]
	// [1 2 3 4 5 0] [3 2] 3
}

func ExampleMask() {
	seqs := stream.FromSlice([][]int{{1, 2, 3}, {4, 5}, {6}})
	for p, err := range stream.Mask(stream.Batches(seqs, 2, index.Keep), -1).All() {
		fmt.Println(p.Data, p.Mask, err)
	}
	// Output:
	// [1 2 3 4 5 -1] [1 1 1 1 1 0] <nil>
	// [6] [1] <nil>
}

// Bucket batches sequences of similar lengths, with a larger batch for short
// ones; Mask then pads within the bucket (tf.data bucket_by_sequence_length).
func ExampleBucket() {
	seqs := stream.FromSlice([][]int{{1}, {1, 2, 3, 4}, {1, 2}, {1, 2, 3, 4, 5}, {1}, {1, 2, 3}})
	length := func(s []int) int { return len(s) }
	// Lengths below 3 in batches of 3, lengths from 3 up in batches of 2.
	buckets := stream.Bucket(seqs, length, []int{3}, []int{3, 2}, index.Keep)
	for p, err := range stream.Mask(buckets, 0).All() {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		fmt.Println(p.Lens, "padded to", p.Width)
	}
	// Output:
	// [4 5] padded to 5
	// [1 2 1] padded to 2
	// [3] padded to 3
}

// A data stream over features and labels linked by one index: each batch
// gathers both through their own fast paths.
func ExampleGather_tuple() {
	x, err := arraycontainer.New([]float64{0, 0, 1, 1, 2, 2}, []int{3, 2}, obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	y := container.FromSlice([]string{"a", "b", "c"})
	xy, err := tuples.Zip2(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	for b, err := range stream.Gather(xy, slices.Chunk([]int{0, 1, 2}, 2)).All() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(b.X.Data(), b.Y)
	}
	// Output:
	// [0 0 1 1] [a b]
	// [2 2] [c]
}
