package stream_test

import (
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/stream"
)

// A PaddlePaddle-style pipeline: a reader of single entries, shuffled through a
// buffer, mapped on several goroutines in order, batched by the trainer.
func Example() {
	rng := rand.New(rand.NewPCG(1, 2))
	samples := stream.FromSlice([]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	squares := stream.ParallelMap(samples, 4, func(v int) (int, error) { return v * v, nil })
	batches := stream.Batches(stream.ShuffleBuffer(squares, 4, rng), 4, index.Keep)
	for batch, err := range batches {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		fmt.Println(batch)
	}
	// Output:
	// [1 25 36 9]
	// [49 81 100 64]
	// [16 4]
}

func ExampleFrom() {
	r := stream.From(slices.Values([]string{"a", "b"}))
	for v, err := range r {
		fmt.Println(v, err)
	}
	// Output:
	// a <nil>
	// b <nil>
}

func ExampleFromSlice() {
	vals, err := stream.Collect(stream.FromSlice([]float64{0.5, 1.5}))
	fmt.Println(vals, err)
	// Output: [0.5 1.5] <nil>
}

// Defer makes a reader creator of a function that builds a single-use source,
// so that every pass starts afresh.
func ExampleDefer() {
	passes := 0
	r := stream.Defer(func() stream.Reader[int] {
		passes++
		return stream.FromSlice([]int{passes})
	})
	first, err := stream.Collect(r)
	if err != nil {
		log.Fatal(err)
	}
	second, err := stream.Collect(r)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(first, second)
	// Output: [1] [2]
}

func ExampleCollect() {
	vals, err := stream.Collect(stream.Take(stream.From(index.Sequential(100)), 3))
	fmt.Println(vals, err)
	// Output: [0 1 2] <nil>
}

// An error from a source reaches the consumer as the last element of the stream,
// through any decorator.
func ExampleLines() {
	open := func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader("3\n1\nfour\n5\n")), nil
	}
	numbers := stream.MapErr(stream.Lines(open), strconv.Atoi)
	for v, err := range stream.Prefetch(numbers, 2) {
		if err != nil {
			fmt.Println("error:", err)
			var numErr *strconv.NumError
			fmt.Println("is a *strconv.NumError:", errors.As(err, &numErr))
			break
		}
		fmt.Println(v)
	}
	// Output:
	// 3
	// 1
	// error: strconv.Atoi: parsing "four": invalid syntax
	// is a *strconv.NumError: true
}

func ExampleMap() {
	r := stream.Map(stream.FromSlice([]string{"a", "bb"}), func(s string) int { return len(s) })
	vals, err := stream.Collect(r)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(vals)
	// Output: [1 2]
}

func ExampleMapErr() {
	r := stream.MapErr(stream.FromSlice([]string{"1", "2", "x"}), strconv.Atoi)
	vals, err := stream.Collect(r)
	fmt.Println(vals, err)
	// Output: [1 2] strconv.Atoi: parsing "x": invalid syntax
}

func ExampleFilter() {
	odd := stream.Filter(stream.FromSlice([]int{1, 2, 3, 4, 5}), func(v int) bool { return v%2 == 1 })
	vals, err := stream.Collect(odd)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(vals)
	// Output: [1 3 5]
}

func ExampleTake() {
	naturals := stream.From(func(yield func(int) bool) {
		for i := 0; yield(i); i++ {
		}
	})
	vals, err := stream.Collect(stream.Take(naturals, 4))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(vals)
	// Output: [0 1 2 3]
}

func ExampleChain() {
	vals, err := stream.Collect(stream.Chain(stream.FromSlice([]int{1, 2}), stream.FromSlice([]int{3})))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(vals)
	// Output: [1 2 3]
}

func ExampleZip() {
	images := stream.FromSlice([]string{"img0", "img1", "img2"})
	labels := stream.FromSlice([]int{7, 3})
	for p, err := range stream.Zip(images, labels, stream.Strict) {
		if err != nil {
			fmt.Println("error:", err)
			break
		}
		fmt.Println(p.X, p.Y)
	}
	// Output:
	// img0 7
	// img1 3
	// error: stream.Zip: reader 1 ended after 2 values, reader 0 has more: readers have different lengths
}

func ExampleZipN() {
	a := stream.FromSlice([]int{1, 2, 3})
	b := stream.FromSlice([]int{10, 20})
	rows, err := stream.Collect(stream.ZipN(stream.Truncate, a, b))
	fmt.Println(rows, err)
	// Output: [[1 10] [2 20]] <nil>
}

// BlockShuffle shuffles within blocks of the buffer size: 0-3 stay in the first
// four places, 4-7 in the next four, 8-9 at the end.
func ExampleBlockShuffle() {
	r := stream.BlockShuffle(stream.From(index.Sequential(10)), 4, rand.New(rand.NewPCG(1, 2)))
	vals, err := stream.Collect(r)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(vals)
	// Output: [2 3 1 0 5 7 4 6 8 9]
}

// ShuffleBuffer's sliding buffer: a value can move at most size-1 places
// earlier, but any number of places later.
func ExampleShuffleBuffer() {
	r := stream.ShuffleBuffer(stream.From(index.Sequential(10)), 4, rand.New(rand.NewPCG(1, 2)))
	vals, err := stream.Collect(r)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(vals)
	// Output: [0 4 5 2 6 8 9 7 3 1]
}

func ExampleBatches() {
	r := stream.From(index.Sequential(7))
	keep, err := stream.Collect(stream.Batches(r, 3, index.Keep))
	if err != nil {
		log.Fatal(err)
	}
	drop, err := stream.Collect(stream.Batches(r, 3, index.Drop))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(keep)
	fmt.Println(drop)
	// Output:
	// [[0 1 2] [3 4 5] [6]]
	// [[0 1 2] [3 4 5]]
}

// BatchSizes with a constant scheme: Fuel's DataStream over an iterable
// dataset. The scheme asks for 10 values, in batches of 4.
func ExampleBatchSizes() {
	naturals := stream.From(func(yield func(int) bool) {
		for i := 0; yield(i); i++ {
		}
	})
	batches, err := stream.Collect(stream.BatchSizes(naturals, index.Sizes(4, 10), index.Keep))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(batches)
	// Output: [[0 1 2 3] [4 5 6 7] [8 9]]
}

func ExampleUnbatch() {
	vals, err := stream.Collect(stream.Unbatch(stream.FromSlice([][]string{{"a", "b"}, {"c"}})))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(vals)
	// Output: [a b c]
}

func ExampleCache() {
	reads := 0
	expensive := stream.Map(stream.FromSlice([]int{1, 2, 3}), func(v int) int { reads++; return v * 100 })
	r := stream.Cache(expensive)
	for range 3 {
		vals, err := stream.Collect(r)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(vals)
	}
	fmt.Println("source values read:", reads)
	// Output:
	// [100 200 300]
	// [100 200 300]
	// [100 200 300]
	// source values read: 3
}

func ExamplePrefetch() {
	r := stream.Prefetch(stream.FromSlice([]string{"a", "b", "c"}), 2)
	vals, err := stream.Collect(r)
	fmt.Println(vals, err)
	// Output: [a b c] <nil>
}

// ParallelMap keeps the input order, however the work is scheduled.
func ExampleParallelMap() {
	decode := func(s string) (int, error) { return strconv.Atoi(s) }
	r := stream.ParallelMap(stream.FromSlice([]string{"10", "20", "30", "40", "50"}), 3, decode)
	vals, err := stream.Collect(r)
	fmt.Println(vals, err)
	// Output: [10 20 30 40 50] <nil>
}

// A panic in a worker reaches the consumer as a *container.PanicError naming the
// step (the position of the value in the stream), after every value before it
// and after every goroutine has stopped; errors.As on the recovered value finds
// it, and the original value through it. Its message's first line:
func ExampleParallelMap_panic() {
	defer func() {
		msg, _, _ := strings.Cut(fmt.Sprint(recover()), "\n") // the rest is the worker's stack
		fmt.Println(msg)
	}()
	r := stream.ParallelMap(stream.FromSlice([]int{1, 0, 2}), 2, func(v int) (int, error) { return 10 / v, nil })
	for v := range r {
		fmt.Println(v)
	}
	// Output:
	// 10
	// stream.ParallelMap: panic at step 1: runtime error: integer divide by zero
}

// Unordered releases the order: results come as workers finish them. The
// output here is sorted because the order varies from run to run.
func ExampleUnordered() {
	r := stream.ParallelMap(stream.FromSlice([]int{1, 2, 3, 4}), 2, func(v int) (int, error) { return v * v, nil }, stream.Unordered())
	vals, err := stream.Collect(r)
	slices.Sort(vals)
	fmt.Println(vals, err)
	// Output: [1 4 9 16] <nil>
}
