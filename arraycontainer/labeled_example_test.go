package arraycontainer_test

import (
	"fmt"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
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
