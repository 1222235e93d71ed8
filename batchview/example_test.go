package batchview_test

import (
	"fmt"

	"github.com/obskit/obskit/batchview"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

func ExampleNew() {
	data := container.FromSlice([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	for _, tail := range []index.Tail{index.Keep, index.Drop, index.Pad, index.RollOver} {
		v := batchview.New(data, 3, tail)
		fmt.Printf("%-9s", tail)
		for i := range v.Nobs() {
			fmt.Print(" ", v.GetObs(i), v.Real(i))
		}
		fmt.Println()
	}
	// Output:
	// keep      [0 1 2] 3 [3 4 5] 3 [6 7 8] 3 [9] 1
	// drop      [0 1 2] 3 [3 4 5] 3 [6 7 8] 3
	// pad       [0 1 2] 3 [3 4 5] 3 [6 7 8] 3 [9 0 1] 1
	// roll-over [0 1 2] 3 [3 4 5] 3 [6 7 8] 3
}

func ExampleNew_tuple() {
	// A view of a tuple gathers every member of a batch in one call; the padded
	// slots of the last batch repeat the first observations of the epoch.
	x := container.FromSlice([]float64{0.5, 1.5, 2.5, 3.5, 4.5})
	y := container.FromSlice([]string{"a", "b", "c", "d", "e"})
	data, err := tuples.Zip2(x, y)
	if err != nil {
		panic(err)
	}
	v := batchview.New(data, 2, index.Pad)
	last := v.Nobs() - 1
	b := v.GetObs(last)
	idx, real := v.Indices(nil, last)
	fmt.Println(b.X, b.Y, idx, real)
	// Output:
	// [4.5 0.5] [e a] [4 0] 1
}

func ExampleNew_subset() {
	// Batches of a subset: here every other observation, in batches of 2.
	data := container.FromSlice([]string{"a", "b", "c", "d", "e", "f", "g"})
	v := batchview.New(subset.Of(data, []int{0, 2, 4, 6}), 2, index.Keep)
	for i := range v.Nobs() {
		fmt.Print(v.GetObs(i))
	}
	fmt.Println()
	// Output:
	// [a c][e g]
}

func ExampleView_Epoch() {
	v := batchview.New(container.FromSlice([]int{0, 1, 2, 3, 4}), 2, index.RollOver)
	for e := range 3 {
		ve := v.Epoch(e)
		fmt.Print("epoch ", e, ":")
		for i := range ve.Nobs() {
			fmt.Print(" ", ve.GetObs(i))
		}
		fmt.Println()
	}
	// Output:
	// epoch 0: [0 1] [2 3]
	// epoch 1: [4 0] [1 2] [3 4]
	// epoch 2: [0 1] [2 3]
}

func ExampleView_GetObsInto() {
	v := batchview.New(container.FromSlice([]string{"a", "b", "c", "d", "e"}), 2, index.Keep)
	// One buffer per requested batch, reused on the next call.
	var bufs [][]string
	bufs = v.GetObsInto(bufs, []int{2, 0})
	fmt.Println(bufs)
	// Output:
	// [[e] [a b]]
}

func ExampleView_Steps() {
	// The index arithmetic of a view is an index.Steps of one part: 10
	// observations per epoch in batches of 4 with roll-over. Positions are of
	// one stream of epochs; position g is position g mod 10 of epoch g / 10.
	v := batchview.New(container.FromSlice(make([]int, 10)), 4, index.RollOver)
	steps := v.Steps()
	for e := range 3 {
		fmt.Print("epoch ", e, ":")
		for k := range steps.Len(e) {
			start, end := steps.Span(e, k)
			fmt.Printf(" [%d,%d)", start, end)
		}
		fmt.Println()
	}
	// Output:
	// epoch 0: [0,4) [4,8)
	// epoch 1: [8,12) [12,16) [16,20)
	// epoch 2: [20,24) [24,28)
}
