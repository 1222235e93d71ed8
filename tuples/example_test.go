package tuples_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

func ExampleZip2() {
	heights := container.FromSlice([]float64{1.62, 1.80, 1.75, 1.55})
	labels := container.FromSlice([]string{"f", "m", "m", "f"})

	data, err := tuples.Zip2(heights, labels)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(data.Nobs(), data.GetObs(1))

	// A batch is a Pair of the members' batches, each gathered by the member's
	// own GetObsInto; handed back, its memory is reused.
	buf := container.GetBatch(data, []int{3, 0})
	fmt.Println(buf.X, buf.Y)
	buf = data.GetObsInto(buf, []int{1, 2})
	fmt.Println(buf.X, buf.Y)
	// Output:
	// 4 {1.8 m}
	// [1.55 1.62] [f f]
	// [1.8 1.75] [m m]
}

// The members of a tuple keep their own types: X() is the array itself, with
// every method of an array, and a batch of the tuple holds an array of the batch's
// observations.
func ExampleZip2_array() {
	x, err := arraycontainer.New([]float32{0, 1, 2, 3, 4, 5, 6, 7}, []int{4, 2}, obsdim.First)
	if err != nil {
		fmt.Println(err)
		return
	}
	data, err := tuples.Zip2(x, container.FromSlice([]int{0, 1, 1, 0}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(data.X().Shape(), data.X().ObsShape(), data.Y())

	batch := container.GetBatch(data, []int{3, 1})
	fmt.Println(batch.X, batch.Y)
	// Output:
	// [4 2] [2] [0 1 1 0]
	// [[6 7]
	//  [2 3]] [0 1]
}

func ExampleZip2_mismatch() {
	_, err := tuples.Zip2(container.FromSlice([]int{1, 2, 3}), container.FromSlice([]int{0, 1}))
	fmt.Println(err)
	// Output:
	// tuples.Zip2: members hold different numbers of observations: X has 3, Y has 2
}

func ExampleZip3() {
	images := container.FromSlice([]string{"img0", "img1", "img2"})
	masks := container.FromSlice([]string{"mask0", "mask1", "mask2"})
	labels := container.FromSlice([]int{7, 3, 7})
	data, err := tuples.Zip3(images, masks, labels)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(data.GetObs(2))
	b := container.GetBatch(data, []int{1, 0})
	fmt.Println(b.X, b.Y, b.Z)
	// Output:
	// {img2 mask2 7}
	// [img1 img0] [mask1 mask0] [3 7]
}

// Labels reads the labels of a labeled container: a tuple of features and labels,
// or any subset, shuffle, split or fold of one, without gathering the features.
func ExampleLabels() {
	heights := container.FromSlice([]float64{1.62, 1.80, 1.75, 1.55, 1.70})
	labels := container.FromSlice([]string{"f", "m", "m", "f", "m"})
	data, err := tuples.Zip2(heights, labels)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tuples.Labels(data))

	shuffled := subset.Shuffle(data, rand.New(rand.NewPCG(1, 2)))
	fmt.Println(shuffled.Indices(), tuples.Labels(shuffled))
	// Output:
	// [f m m f m]
	// [1 4 2 0 3] [m m m f f]
}

func ExampleNewNamed() {
	g, err := tuples.NewNamed([]string{"pixels", "mask"},
		container.FromSlice([]float32{0.1, 0.2, 0.3}),
		container.FromSlice([]float32{1, 0, 1}))
	if err != nil {
		fmt.Println(err)
		return
	}
	b := g.GetObsInto(nil, []int{2, 1})
	fmt.Println(g.Names(), b[g.Index("mask")])
	// Member returns the member with its own type: here a container.Slice.
	fmt.Println(g.Member(0).GetObs(2), len(g.Member(1)))
	// Output:
	// [pixels mask] [1 0]
	// 0.3 3
}
