package provider_test

import (
	"fmt"
	"iter"
	"log"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/provider"
	"github.com/obskit/obskit/tuples"
)

// groups returns the data and label groups of the examples: one source each,
// the arrays of tenByFourData.
func groups() (
	data *tuples.Named[*arraycontainer.Array[float32], *arraycontainer.Array[float32], *arraycontainer.Array[float32]],
	label *tuples.Named[*arraycontainer.Array[int32], *arraycontainer.Array[int32], *arraycontainer.Array[int32]],
) {
	xs, ys := tenByFourData()
	x, err := arraycontainer.New(xs, []int{10, 4}, obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	y, err := arraycontainer.New(ys, []int{10}, obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	if data, err = tuples.NewNamed([]string{"data"}, x); err != nil {
		log.Fatal(err)
	}
	if label, err = tuples.NewNamed([]string{"label"}, y); err != nil {
		log.Fatal(err)
	}
	return data, label
}

// tenByFourData returns the values of the examples: 10 observations of 4
// features (observation i holds 10i, 10i+1, 10i+2, 10i+3), and 10 labels
// (observation i holds i).
func tenByFourData() ([]float32, []int32) {
	xs := make([]float32, 40)
	for i := range xs {
		xs[i] = float32(i/4*10 + i%4)
	}
	ys := make([]int32, 10)
	for i := range ys {
		ys[i] = int32(i)
	}
	return xs, ys
}

// The provider of the issue: 10 observations of 4 features and 10 labels in
// batches of 4, padded with 0. Three batches, the last with 2 real samples;
// each batch splits into two views of 2 observations for two devices.
func ExampleNew() {
	xs, ys := tenByFourData()
	x, err := arraycontainer.New(xs, []int{10, 4}, obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	y, err := arraycontainer.New(ys, []int{10}, obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	data, err := tuples.NewNamed([]string{"data"}, x)
	if err != nil {
		log.Fatal(err)
	}
	label, err := tuples.NewNamed([]string{"label"}, y)
	if err != nil {
		log.Fatal(err)
	}

	p, err := provider.New(data, label, 4, provider.PadWith(0))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("provide_data:", p.ProvideData(), "provide_label:", p.ProvideLabel(), "batch size:", p.BatchSize())
	for b := range p.Epoch(0) {
		fmt.Println("batch", b.Pos.Batch, "count_samples:", b.Real, "pad:", b.Pad(), "indices:", b.Indices, "label:", b.Data.Y[0])
		for d, s := range provider.Split(b, 2) {
			fmt.Println("  device", d, s.Data.X[0].Shape(), p.Label(s, "label"))
		}
	}
	// Output:
	// provide_data: [{data [4 4]}] provide_label: [{label [4]}] batch size: 4
	// batch 0 count_samples: 4 pad: 0 indices: [0 1 2 3] label: [0 1 2 3]
	//   device 0 [2 4] [0 1]
	//   device 1 [2 4] [2 3]
	// batch 1 count_samples: 4 pad: 0 indices: [4 5 6 7] label: [4 5 6 7]
	//   device 0 [2 4] [4 5]
	//   device 1 [2 4] [6 7]
	// batch 2 count_samples: 2 pad: 2 indices: [8 9 -1 -1] label: [8 9 0 0]
	//   device 0 [2 4] [8 9]
	//   device 1 [2 4] [0 0]
}

// Each epoch of a shuffled provider is a permutation drawn from (seed, epoch):
// the same seed gives the same epochs, whatever the prefetching. Drop skips the
// short last batch.
func ExampleLoop() {
	data, label := groups()

	p, err := provider.New(data, label, 4, provider.Loop(eachobs.Shuffle(7), eachobs.Tail(index.Drop), eachobs.Prefetch(1)))
	if err != nil {
		log.Fatal(err)
	}
	for e := range 2 {
		for b := range p.Epoch(e) {
			fmt.Println(b.Pos, p.Label(b, "label"))
		}
	}
	// Output:
	// epoch 0 batch 0 (0 of 10 consumed; cipher seed 7; drop) [3 5 8 9]
	// epoch 0 batch 1 (4 of 10 consumed; cipher seed 7; drop) [2 6 7 4]
	// epoch 1 batch 0 (0 of 10 consumed; cipher seed 7; drop) [3 7 6 5]
	// epoch 1 batch 1 (4 of 10 consumed; cipher seed 7; drop) [0 8 1 9]
}

// Without padding values, a padded last batch repeats the epoch's first
// observations (the index.Pad tail), and its Indices say which.
func ExampleLoop_pad() {
	data, label := groups()

	p, err := provider.New(data, label, 4, provider.Loop(eachobs.Tail(index.Pad)))
	if err != nil {
		log.Fatal(err)
	}
	for b := range p.Epoch(0) {
		fmt.Println(b.Indices, "real:", b.Real, "label:", b.Data.Y[0])
	}
	// Output:
	// [0 1 2 3] real: 4 label: [0 1 2 3]
	// [4 5 6 7] real: 4 label: [4 5 6 7]
	// [8 9 0 1] real: 2 label: [8 9 0 1]
}

// Padding per source: the data is padded with -1, the labels with the
// default 0 of PadWith; padding slots have the index -1.
func ExamplePadSource() {
	data, label := groups()

	p, err := provider.New(data, label, 6, provider.PadSource("data", -1))
	if err != nil {
		log.Fatal(err)
	}
	for b := range p.Epoch(0) {
		if b.Pad() > 0 {
			fmt.Println(b.Real, b.Indices)
			fmt.Println(p.Data(b, "data"))
			fmt.Println(p.Label(b, "label"))
		}
	}
	// Output:
	// 4 [6 7 8 9 -1 -1]
	// [[60 61 62 63]
	//  [70 71 72 73]
	//  [80 81 82 83]
	//  [90 91 92 93]
	//  [-1 -1 -1 -1]
	//  [-1 -1 -1 -1]]
	// [6 7 8 9 0 0]
}

// Splitting a batch for devices: the slices are views of the batch, so a write
// through a slice is seen in the batch.
func ExampleSplit() {
	data, label := groups()

	p, err := provider.New(data, label, 5)
	if err != nil {
		log.Fatal(err)
	}
	for b := range p.Epoch(0) {
		slices := provider.Split(b, 2) // 3 and 2 observations
		slices[1].Data.Y[0].Set(-7, 0)
		fmt.Println(slices[0].Indices, slices[1].Indices, b.Data.Y[0])
		break
	}
	// Output:
	// [0 1 2] [3 4] [ 0  1  2 -7  4]
}

// Range takes consecutive slots of a batch, as views, with Real counted where
// the real observations lie.
func ExampleRange() {
	data, label := groups()

	p, err := provider.New(data, label, 4, provider.PadWith(0))
	if err != nil {
		log.Fatal(err)
	}
	for b := range p.Epoch(0) {
		s := provider.Range(b, 1, 4)
		fmt.Println(s.Indices, "real:", s.Real, "label:", s.Data.Y[0])
	}
	// Output:
	// [1 2 3] real: 3 label: [1 2 3]
	// [5 6 7] real: 3 label: [5 6 7]
	// [9 -1 -1] real: 1 label: [9 0 0]
}

// A provider for prediction has no labels.
func ExampleNewUnlabeled() {
	data, _ := groups()

	p, err := provider.NewUnlabeled(data, 8)
	if err != nil {
		log.Fatal(err)
	}
	for b := range p.Epoch(0) {
		fmt.Println(b.Real, len(b.Data.Y), b.Data.X[0].Shape())
	}
	fmt.Println(p.ProvideData(), p.ProvideLabel())
	// Output:
	// 8 0 [8 4]
	// 2 0 [2 4]
	// [{data [8 4]}] []
}

// A training job saves its iterator's state after each batch and continues
// there in a new iterator.
func ExampleProvider_Iter() {
	data, label := groups()

	p, err := provider.New(data, label, 4, provider.Loop(eachobs.Shuffle(3)), provider.PadWith(0))
	if err != nil {
		log.Fatal(err)
	}
	it := p.Iter()
	var saved []byte
	for b := range it.All() {
		fmt.Println(b.Pos, b.Data.Y[0])
		if saved, err = it.MarshalBinary(); err != nil {
			log.Fatal(err)
		}
		if b.Pos.Batch == 1 {
			break // the job stops here
		}
	}
	it.Close()

	resumed := p.Iter()
	defer resumed.Close()
	if err := resumed.UnmarshalBinary(saved); err != nil {
		fmt.Println(err)
		return
	}
	for b := range resumed.All() {
		fmt.Println(b.Pos, b.Data.Y[0])
		if b.Pos.Epoch == 1 {
			break
		}
	}
	// Output:
	// epoch 0 batch 0 (0 of 10 consumed; cipher seed 3; pad) [2 8 5 4]
	// epoch 0 batch 1 (4 of 10 consumed; cipher seed 3; pad) [1 7 0 9]
	// epoch 0 batch 2 (8 of 10 consumed; cipher seed 3; pad) [6 3 0 0]
	// epoch 1 batch 0 (0 of 10 consumed; cipher seed 3; pad) [7 4 6 8]
}

// Two workers of distributed training share one seed and see disjoint halves of
// every epoch (MXNet's num_parts = 2 and part_index).
func ExampleLoop_partition() {
	data, label := groups()

	for part := range 2 {
		p, err := provider.New(data, label, 5, provider.Loop(eachobs.Shuffle(1), eachobs.Partition(index.Part{Index: part, Parts: 2})))
		if err != nil {
			log.Fatal(err)
		}
		for b := range p.Epoch(0) {
			fmt.Println("part", part, b.Data.Y[0])
		}
	}
	// Output:
	// part 0 [7 6 4 1 0]
	// part 1 [3 9 2 5 8]
}

// A training loop for two devices that reuses its slices from batch to batch:
// the first Split makes them, and SplitInto refills them for every later batch
// with no allocation.
func ExampleSplitInto() {
	data, label := groups()

	p, err := provider.New(data, label, 4, provider.Loop(eachobs.Shuffle(5)), provider.PadWith(0))
	if err != nil {
		log.Fatal(err)
	}
	next, stop := iter.Pull(p.Epoch(0))
	defer stop()
	b, ok := next()
	devices := provider.Split(b, 2)
	for ; ok; b, ok = next() {
		devices = provider.SplitInto(devices, b, 2)
		fmt.Println(devices[0].Data.Y[0], devices[0].Real, devices[1].Data.Y[0], devices[1].Real)
	}
	// Output:
	// [8 0] 2 [2 7] 2
	// [3 4] 2 [9 6] 2
	// [5 1] 2 [0 0] 0
}
