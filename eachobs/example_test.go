package eachobs_test

import (
	"fmt"
	"log"
	"math/rand/v2"
	"slices"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/tuples"
)

func ExampleBatches() {
	x := container.FromSlice([]float64{0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6})
	y := container.FromSlice([]string{"a", "b", "a", "b", "a", "b", "a"})
	data, err := tuples.Zip2(x, y)
	if err != nil {
		log.Fatal(err)
	}

	// b.Data is a tuples.Pair of batches, valid until the next step.
	for b := range eachobs.Batches(data, 3) {
		fmt.Println(b.Pos.Batch, b.Data.X, b.Data.Y)
	}
	// Output:
	// 0 [0 0.1 0.2] [a b a]
	// 1 [0.3 0.4 0.5] [b a b]
	// 2 [0.6] [a]
}

func ExampleShuffle() {
	data := container.FromSlice([]int{0, 1, 2, 3, 4, 5})
	seq := eachobs.Batches(data, 4, eachobs.Shuffle(7), eachobs.Tail(index.Drop))
	// Every range is the next epoch, in the permutation drawn from (seed, epoch);
	// Drop skips the short batch.
	for pass := range 2 {
		for b := range seq {
			fmt.Println(pass, b.Pos, b.Data)
		}
	}
	// Output:
	// 0 {7 0 0} [3 2 0 4]
	// 1 {7 1 0} [2 1 0 5]
}

func ExampleTail() {
	data := container.FromSlice([]int{10, 11, 12, 13, 14})
	for b := range eachobs.Batches(data, 2, eachobs.Tail(index.Pad)) {
		// Real is MXNet's count_samples: the padding, which repeats the epoch's
		// first observations, follows the real ones.
		fmt.Println(b.Data, b.Indices, "real:", b.Real, "pad:", b.Pad())
	}
	// Output:
	// [10 11] [0 1] real: 2 pad: 0
	// [12 13] [2 3] real: 2 pad: 0
	// [14 10] [4 0] real: 1 pad: 1
}

func ExampleOwned() {
	data := container.FromSlice([]int{1, 2, 3, 4})
	var kept [][]int
	for b := range eachobs.Batches(data, 2, eachobs.Owned()) {
		kept = append(kept, b.Data) // safe: every batch is new memory
	}
	fmt.Println(kept)
	// Output:
	// [[1 2] [3 4]]
}

func ExampleObs() {
	data := container.FromSlice([]string{"x", "y", "z"})
	for i, obs := range eachobs.Obs(data) {
		fmt.Println(i, obs)
	}
	// Output:
	// 0 x
	// 1 y
	// 2 z
}

func ExampleNewLoader() {
	data := container.FromSlice([]int{0, 1, 2, 3, 4, 5, 6})
	l := eachobs.NewLoader(data, 3, eachobs.Shuffle(42), eachobs.Tail(index.RollOver))
	// The tail of each epoch leads the next one, computed from the previous
	// epoch's permutation: observation 6, last in epoch 0's permutation, opens
	// epoch 1 (whose own permutation starts with 6 again).
	for e := range 3 {
		var batches [][]int
		for b := range l.Epoch(e) {
			// b.Data is reused by the next step: keep a copy.
			batches = append(batches, slices.Clone(b.Data))
		}
		fmt.Println("epoch", e, batches)
	}
	// Output:
	// epoch 0 [[2 3 4] [1 0 5]]
	// epoch 1 [[6 6 0] [5 4 2]]
	// epoch 2 [[3 1 2] [1 4 3] [6 5 0]]
}

func ExampleLoader_Resume() {
	data := container.FromSlice([]int{0, 1, 2, 3, 4, 5, 6, 7})
	l := eachobs.NewLoader(data, 3, eachobs.Shuffle(7))

	// A first run stops after two batches and saves its position.
	var saved eachobs.Position
	seq, err := l.Resume(eachobs.Position{Seed: l.Seed()})
	if err != nil {
		log.Fatal(err)
	}
	for b := range seq {
		fmt.Println(b.Pos, b.Data)
		saved = b.Next()
		if b.Pos.Batch == 1 {
			break
		}
	}
	// A second run resumes exactly there, into the next epoch.
	seq, err = l.Resume(saved)
	if err != nil {
		fmt.Println(err)
		return
	}
	for b := range seq {
		fmt.Println(b.Pos, b.Data)
		if b.Pos.Epoch == 1 {
			break
		}
	}
	// Output:
	// {7 0 0} [4 1 3]
	// {7 0 1} [7 5 0]
	// {7 0 2} [2 6]
	// {7 1 0} [2 3 6]
}

func ExampleLoader_Epoch() {
	data := container.FromSlice([]int{0, 1, 2, 3, 4})
	l := eachobs.NewLoader(data, 2, eachobs.Shuffle(3))
	// Any epoch on its own, without running the ones before it.
	for b := range l.Epoch(1000) {
		fmt.Println(b.Pos, b.Data, b.Count)
	}
	// Output:
	// {3 1000 0} [2 3] 3
	// {3 1000 1} [1 0] 3
	// {3 1000 2} [4] 3
}

func ExamplePrefetch() {
	data := container.FromSlice([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	// The same batches in the same order, serial and gathered ahead by two
	// goroutines.
	for _, opts := range [][]eachobs.Option{nil, {eachobs.Prefetch(2), eachobs.Workers(2)}} {
		l := eachobs.NewLoader(data, 4, append(opts, eachobs.Shuffle(1))...)
		for b := range l.Epoch(0) {
			fmt.Print(b.Data)
		}
		fmt.Println()
	}
	// Output:
	// [6 3 1 9][7 4 8 2][0 5]
	// [6 3 1 9][7 4 8 2][0 5]
}

func ExampleRandomBatches() {
	data := container.FromSlice([]string{"a", "b", "c"})
	batches, err := eachobs.RandomBatches(data, 4, 2, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		fmt.Println(err) // an empty container: container.ErrEmpty
		return
	}
	for b := range batches {
		fmt.Println(b.Data, b.Indices)
	}
	// Output:
	// [a c c a] [0 2 2 0]
	// [a b c c] [0 1 2 2]
}

func ExampleRandomObs() {
	data := container.FromSlice([]string{"a", "b", "c"})
	draws, err := eachobs.RandomObs(data, 4, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		fmt.Println(err) // an empty container: container.ErrEmpty
		return
	}
	for i, obs := range draws {
		fmt.Println(i, obs)
	}
	// Output:
	// 2 c
	// 0 a
	// 2 c
	// 2 c
}

func ExamplePartition() {
	data := container.FromSlice([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	// Three workers with one seed: disjoint shares of one permutation per epoch,
	// padded to equal length by repeating its start (PyTorch's DistributedSampler,
	// drop_last=False): 3 and 2, first in the permutation, are seen twice.
	for rank := range 3 {
		part := index.Part{Index: rank, Parts: 3, Strided: true, Tail: index.Pad}
		l := eachobs.NewLoader(data, 2, eachobs.Shuffle(42), eachobs.Partition(part))
		var batches [][]int
		for b := range l.Epoch(0) {
			batches = append(batches, slices.Clone(b.Data))
		}
		fmt.Println("rank", rank, batches)
	}
	// Output:
	// rank 0 [[3 6] [0 8]]
	// rank 1 [[2 4] [7 3]]
	// rank 2 [[5 1] [9 2]]
}

func ExampleBalancedObs() {
	x := container.FromSlice([]float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6})
	y := container.FromSlice([]string{"common", "common", "common", "common", "common", "rare"})
	data, err := tuples.Zip2(x, y)
	if err != nil {
		log.Fatal(err)
	}
	seq, err := eachobs.BalancedObs(data, 1000, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		fmt.Println(err)
		return
	}
	count := map[string]int{}
	for _, obs := range seq {
		count[obs.Y]++
	}
	// Each class is drawn about half of the time, though "rare" is 1 in 6.
	fmt.Println(count["rare"] > 400, count["common"] > 400)
	// Output:
	// true true
}
