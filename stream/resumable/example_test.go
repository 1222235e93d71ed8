package resumable_test

import (
	"fmt"

	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/mix"
	"github.com/obskit/obskit/stream/resumable"
)

func ExampleStream_Start() {
	build := func() resumable.Stream[[]int] {
		nums := make([]int, 20)
		for i := range nums {
			nums[i] = i
		}
		return resumable.Batches(resumable.ShuffleBuffer(resumable.Slice(nums), 8, 42), 4, index.Keep)
	}

	// A first run takes two batches and saves its state after each.
	p, err := build().Start(nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	var saved []byte
	done := 0
	for b := range p.All() {
		fmt.Println("run 1:", b)
		if saved, err = p.Save(); err != nil {
			fmt.Println(err)
			return
		}
		if done++; done == 2 {
			break // preempted
		}
	}

	// A restarted run builds the same stream and resumes from the state.
	q, err := build().Start(saved)
	if err != nil {
		fmt.Println(err)
		return
	}
	for b := range q.All() {
		fmt.Println("run 2:", b)
	}
	// Output:
	// run 1: [7 4 8 1]
	// run 1: [11 5 9 2]
	// run 2: [12 13 0 18]
	// run 2: [3 6 10 17]
	// run 2: [15 14 16 19]
}

func ExampleMix() {
	web := resumable.Slice([]string{"w0", "w1", "w2", "w3", "w4", "w5"})
	books := resumable.Slice([]string{"b0", "b1"})
	for _, rule := range []mix.Rule{mix.FirstExhausted, mix.AllExhausted, mix.Resample} {
		var out []string
		for v, err := range resumable.Mix(rule, []float64{2, 1}, 0, web, books).All() {
			if err != nil {
				fmt.Println(err)
				return
			}
			out = append(out, v)
		}
		fmt.Println(rule, out)
	}
	// Output:
	// first-exhausted [w0 b0 w1 w2 b1 w3 w4]
	// all-exhausted [w0 b0 w1 w2 b1 w3 w4 w5]
	// resample [w0 b0 w1 w2 b1 w3 w4 b0 w5]
}

func ExamplePack() {
	sentences := resumable.Slice([][]int{{1, 2, 3}, {4, 5}, {6, 7, 8, 9}, {10}, {11, 12}})
	packed := resumable.Pack(sentences, 6, 2, resumable.PackOptions{Method: resumable.BestFitDecreasing, Window: 5})
	for p, err := range packed.All() {
		if err != nil {
			fmt.Println(err)
			return
		}
		for r := range p.Rows {
			fmt.Println(p.Row(r), p.Segments[r*p.Length:(r+1)*p.Length], p.Positions[r*p.Length:(r+1)*p.Length])
		}
		fmt.Println("real rows", p.Real, "padding", p.Padding)
	}
	// Output:
	// [6 7 8 9 4 5] [1 1 1 1 2 2] [0 1 2 3 0 1]
	// [1 2 3 11 12 10] [1 1 1 2 2 3] [0 1 2 0 1 0]
	// real rows 2 padding 0
}
