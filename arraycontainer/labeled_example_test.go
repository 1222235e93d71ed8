package arraycontainer_test

import (
	"fmt"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// classCounts is a user helper on labeled arrays: its parameter takes a tuple of
// features and labels and every subset, split or fold of one.
func classCounts(d arraycontainer.Labeled[float32, int]) map[int]int {
	counts := make(map[int]int)
	for _, l := range tuples.Labels(d) {
		counts[l]++
	}
	return counts
}

// Labeled, LabeledBatch and LabeledTuple are short names for the types of
// labeled arrays, for the signatures of helpers; the kit's calls infer them.
func ExampleLabeled() {
	x, err := arraycontainer.New([]float32{
		0, 0,
		1, 1,
		2, 2,
		3, 3,
		4, 4,
		5, 5,
	}, []int{6, 2}, obsdim.First)
	if err != nil {
		fmt.Println(err)
		return
	}
	data, err := tuples.Zip2(x, container.FromSlice([]int{0, 1, 0, 1, 1, 1})) // a *LabeledTuple[float32, int]
	if err != nil {
		fmt.Println(err)
		return
	}
	parts, err := subset.StratifiedSplit(data, nil, 0.5)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(classCounts(data), classCounts(parts[0]), classCounts(parts[1]))

	batch := container.GetBatch(parts[1], []int{0, 2}) // a LabeledBatch[float32, int]
	fmt.Println(batch.X, batch.Y)
	// Output:
	// map[0:2 1:4] map[0:1 1:2] map[0:1 1:2]
	// [[2 2]
	//  [5 5]] [0 1]
}

// step is a user helper that takes one step of a batch loop: the loop's batch
// type is eachobs.Batch of the container's batch, here the LabeledBatch of
// float32 features and int64 labels.
func step(b eachobs.Batch[arraycontainer.LabeledBatch[float32, int64]]) {
	fmt.Println(b.Indices, b.Data.Y)
}

// Labels read from a file (npy.Load, npy.Open) are a rank-1 array, a container
// of rank-0 arrays: Scalars makes them a container of values, which labels must
// be. A helper that takes a loop's batch spells its type as step does.
func ExampleLabeledBatch() {
	x, err := arraycontainer.New([]float32{0, 1, 2, 3, 4, 5}, []int{6, 1}, obsdim.First)
	if err != nil {
		fmt.Println(err)
		return
	}
	y, err := arraycontainer.New([]int64{0, 1, 0, 1, 0, 1}, []int{6}, obsdim.First) // as npy.Load returns labels
	if err != nil {
		fmt.Println(err)
		return
	}
	labels, err := y.Scalars() // without it, StratifiedSplit does not compile
	if err != nil {
		fmt.Println(err)
		return
	}
	data, err := tuples.Zip2(x, labels)
	if err != nil {
		fmt.Println(err)
		return
	}
	parts, err := subset.StratifiedSplit(data, nil, 0.5)
	if err != nil {
		fmt.Println(err)
		return
	}
	for b := range eachobs.Batches(parts[0], 2) {
		step(b)
	}
	// Output:
	// [0 1] [0 1]
	// [2 3] [0 1]
}
