package eachobs_test

import (
	"fmt"
	"log"
	"math/rand/v2"
	"slices"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/mix"
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
	// Every range is the next epoch, in the permutation of (seed, epoch);
	// Drop skips the short batch.
	for range 2 {
		for b := range seq {
			fmt.Println(b.Pos, b.Data)
		}
	}
	// Output:
	// epoch 0 batch 0 (0 of 6 consumed; cipher seed 7; drop) [1 4 5 2]
	// epoch 1 batch 0 (0 of 6 consumed; cipher seed 7; drop) [2 0 4 1]
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
	// epoch's permutation: the last observation of epoch 0's permutation opens
	// epoch 1.
	for e := range 3 {
		var batches [][]int
		for b := range l.Epoch(e) {
			// b.Data is reused by the next step: keep a copy.
			batches = append(batches, slices.Clone(b.Data))
		}
		fmt.Println("epoch", e, batches)
	}
	// Output:
	// epoch 0 [[3 0 6] [2 5 4]]
	// epoch 1 [[1 3 4] [2 0 6]]
	// epoch 2 [[1 5 0] [1 6 2] [3 4 5]]
}

func ExampleIter() {
	data := container.FromSlice([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	l := eachobs.NewLoader(data, 3, eachobs.Shuffle(7))

	// A first run stops after two batches and saves its state.
	it := l.Iter()
	var saved []byte
	for b := range it.All() {
		fmt.Println(b.Data)
		var err error
		if saved, err = it.MarshalBinary(); err != nil {
			log.Fatal(err)
		}
		if b.Pos.Batch == 1 {
			break
		}
	}
	it.Close()
	fmt.Println("saved:", it.Pos())
	// A second run continues exactly there, with batches of 2: the rest of
	// the epoch, each observation once, then the next epoch.
	resumed := eachobs.NewLoader(data, 2, eachobs.Shuffle(7)).Iter()
	defer resumed.Close()
	if err := resumed.UnmarshalBinary(saved); err != nil {
		fmt.Println(err)
		return
	}
	for b, ok := resumed.Next(); ok && b.Pos.Epoch == 0; b, ok = resumed.Next() {
		fmt.Println(b.Data)
	}
	// Output:
	// [3 5 8]
	// [9 2 6]
	// saved: epoch 0 batch 2 (6 of 10 consumed; cipher seed 7; keep)
	// [7 4]
	// [1 0]
}

func ExampleLoader_Epoch() {
	data := container.FromSlice([]int{0, 1, 2, 3, 4})
	l := eachobs.NewLoader(data, 2, eachobs.Shuffle(3))
	// Any epoch on its own, without running the ones before it.
	for b := range l.Epoch(1000) {
		fmt.Println(b.Pos, b.Data, b.Count)
	}
	// Output:
	// epoch 1000 batch 0 (0 of 5 consumed; cipher seed 3; keep) [0 3] 3
	// epoch 1000 batch 1 (2 of 5 consumed; cipher seed 3; keep) [1 4] 3
	// epoch 1000 batch 2 (4 of 5 consumed; cipher seed 3; keep) [2] 3
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
	// [7 6 4 1][0 3 9 2][5 8]
	// [7 6 4 1][0 3 9 2][5 8]
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
	// Three workers with one seed, batches of 2: each step takes the next 6
	// observations of the epoch's order and deals 2 to each worker (strided, as
	// PyTorch's DistributedSampler). The last step is padded so that every
	// worker gets a full batch; Real says how many of it are real.
	for rank := range 3 {
		part := index.Part{Index: rank, Parts: 3, Strided: true}
		l := eachobs.NewLoader(data, 2, eachobs.Shuffle(42), eachobs.Partition(part), eachobs.Tail(index.Pad))
		fmt.Print("rank ", rank, ":")
		for b := range l.Epoch(0) {
			fmt.Print(" ", b.Data[:b.Real], b.Data[b.Real:])
		}
		fmt.Println()
	}
	// Output:
	// rank 0: [5 3] [] [9 1] []
	// rank 1: [4 6] [] [7] [5]
	// rank 2: [2 0] [] [8] [4]
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

// A loop over a mix in the mix's own order keeps each source's share in every
// batch, but repeats one order every epoch; ShuffleWithin shuffles each source's
// observations among the positions the mix gives that source, so every epoch
// differs and every batch holds its sources where the mix's order has them.
func ExampleShuffleWithin() {
	a := container.Slice[string]{"a0", "a1", "a2", "a3", "a4", "a5"}
	b := container.Slice[string]{"b0", "b1", "b2"}
	m, err := mix.New(mix.FirstExhausted, []float64{2, 1}, 0, a, b)
	if err != nil {
		log.Fatal(err)
	}
	seq := eachobs.Batches(m, 3, eachobs.ShuffleWithin(7, m))
	fmt.Println(container.Collect[string](m))
	for range 2 {
		var epoch [][]string
		for b := range seq {
			epoch = append(epoch, slices.Clone(b.Data))
		}
		fmt.Println(epoch)
	}
	// Output:
	// [a0 b0 a1 a2 b1 a3 a4 b2]
	// [[a3 b1 a0] [a2 b0 a1] [a4 b2]]
	// [[a0 b2 a4] [a3 b1 a2] [a1 b0]]
}

// rowGroups is a container of 10 rows stored in blocks of 4, 2 and 4 rows, as
// the row groups of a Parquet file are: it says so by its BlockStarts method
// (container.Blocked).
type rowGroups struct{ container.Slice[int] }

func (rowGroups) BlockStarts() []int { return []int{0, 4, 6, 10} }

// ShuffleBlocks takes the container's own blocks: they come in a random order,
// and the rows of each window of 2 blocks are shuffled among themselves (here
// the first window holds the blocks of rows 0-3 and 4-5, the second the block
// of rows 6-9), so a reader that caches 2 decoded blocks decodes each block
// once. The loop saves where it stands and resumes there, here with batches of
// 2, as any loop does.
func ExampleShuffleBlocks() {
	data := rowGroups{container.FromSlice(iotaEx(10))}
	l := eachobs.NewLoader(data, 3, eachobs.ShuffleBlocks(1, 2))
	it := l.Iter()
	for b := range it.All() {
		fmt.Println(b.Pos.Epoch, b.Data)
		if b.Pos.Epoch == 0 && b.Pos.Batch == 1 {
			break
		}
	}
	saved, err := it.MarshalBinary()
	if err != nil {
		log.Fatal(err)
	}
	it.Close()
	again := eachobs.NewLoader(data, 2, eachobs.ShuffleBlocks(1, 2)).Iter() // another batch size
	if err := again.UnmarshalBinary(saved); err != nil {
		log.Fatal(err)
	}
	defer again.Close()
	for b := range again.All() {
		if b.Pos.Epoch > 0 {
			break
		}
		fmt.Println(b.Pos.Epoch, b.Data)
	}
	// Output:
	// 0 [2 0 3]
	// 0 [4 5 1]
	// 0 [8 6]
	// 0 [9 7]
}

// ShuffleBlocksOf reads blocks of consecutive observations (here 3) in a
// random order, shuffling the observations of each window of blocks (here 2)
// among themselves: each batch of 6 below is two whole blocks.
func ExampleShuffleBlocksOf() {
	data := container.FromSlice(iotaEx(12))
	for b := range eachobs.Batches(data, 6, eachobs.ShuffleBlocksOf(1, 3, 2)) {
		fmt.Println(b.Data)
	}
	// Output:
	// [2 0 3 4 5 1]
	// [11 10 8 9 6 7]
}

func ExampleMeasure() {
	data := container.FromSlice(iotaEx(1000))
	var st eachobs.Stats
	sum := 0
	for b := range eachobs.Batches(data, 100, eachobs.Measure(&st), eachobs.Prefetch(2)) {
		for _, x := range b.Data {
			sum += x
		}
	}
	// Times vary from run to run; the counts do not.
	fmt.Println(sum, st.Passes, st.Batches, st.Bytes)
	// Output:
	// 499500 1 10 8000
}

func ExampleIter_Warm() {
	loader := eachobs.NewLoader(container.FromSlice(iotaEx(10)), 4, eachobs.Shuffle(3))
	it := loader.Iter()
	defer it.Close()
	it.Warm()
	// ... build the model: the first batch is gathered meanwhile ...
	for b := range it.All() {
		fmt.Println(b.Pos.Epoch, b.Data)
		if it.Pos().Epoch > 0 {
			break
		}
	}
	// Output:
	// 0 [2 8 5 4]
	// 0 [1 7 0 9]
	// 0 [6 3]
}

func iotaEx(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
