package stream_test

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"log"
	"slices"
	"strconv"
	"strings"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/mix"
	"github.com/obskit/obskit/stream"
	"github.com/obskit/obskit/subset"
)

// A PaddlePaddle-style pipeline: a reader of single entries, mapped on several
// goroutines in order, shuffled through a buffer, batched by the trainer.
func Example() {
	samples := stream.FromSlice([]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	squares := stream.ParallelMap(samples, 4, func(v int) (int, error) { return v * v, nil })
	batches := stream.Batches(stream.ShuffleBuffer(squares, 4, 42), 4, index.Keep)
	for batch, err := range batches.All() {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		fmt.Println(batch)
	}
	// Output:
	// [16 1 25 4]
	// [64 81 49 9]
	// [100 36]
}

// Iter starts a pass as a pull iterator: Next until it returns false, then
// Err for the error that ended it, if any.
func ExampleStream_Iter() {
	it := stream.MapErr(stream.FromSlice([]string{"1", "2", "x"}), strconv.Atoi).Iter()
	defer it.Close()
	for v, ok := it.Next(); ok; v, ok = it.Next() {
		fmt.Println(v)
	}
	fmt.Println("error:", it.Err())
	// Output:
	// 1
	// 2
	// error: strconv.Atoi: parsing "x": invalid syntax
}

// Every range over Stream.All is a new pass from the start.
func ExampleStream_All() {
	s := stream.Map(stream.FromSlice([]string{"a", "b"}), strings.ToUpper)
	for pass := range 2 {
		for v, err := range s.All() {
			fmt.Println(pass, v, err)
		}
	}
	// Output:
	// 0 A <nil>
	// 0 B <nil>
	// 1 A <nil>
	// 1 B <nil>
}

// A break out of Iter.All pauses the pass: the next range continues with the
// next value (the goroutines of Prefetch stop at the break and start again).
func ExampleIter_All() {
	it := stream.Prefetch(stream.FromSlice([]int{1, 2, 3, 4, 5}), 2).Iter()
	defer it.Close()
	for v := range it.All() {
		fmt.Println("first loop:", v)
		if v == 2 {
			break
		}
	}
	for v := range it.All() {
		fmt.Println("second loop:", v)
	}
	// Output:
	// first loop: 1
	// first loop: 2
	// second loop: 3
	// second loop: 4
	// second loop: 5
}

// A pass saved by one run continues in another: the restarted run builds the
// same pipeline and restores the state into a pass of it. The shuffle buffer's
// values are in the state.
func ExampleIter_UnmarshalBinary() {
	build := func() stream.Stream[[]int] {
		nums := make([]int, 20)
		for i := range nums {
			nums[i] = i
		}
		return stream.Batches(stream.ShuffleBuffer(stream.FromSlice(nums), 8, 42), 4, index.Keep)
	}

	// A first run takes two batches and saves its state after each.
	it := build().Iter()
	var saved []byte
	for done := 0; done < 2; done++ { // preempted after two batches
		b, _ := it.Next()
		fmt.Println("run 1:", b)
		var err error
		if saved, err = it.MarshalBinary(); err != nil {
			fmt.Println(err)
			return
		}
	}
	it.Close()

	// A restarted run builds the same stream and resumes from the state.
	it = build().Iter()
	defer it.Close()
	if err := it.UnmarshalBinary(saved); err != nil {
		fmt.Println(err)
		return
	}
	for b, err := range it.All() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("run 2:", b)
	}
	// Output:
	// run 1: [7 4 8 1]
	// run 1: [11 5 9 2]
	// run 2: [12 13 0 18]
	// run 2: [3 6 10 17]
	// run 2: [15 14 16 19]
}

// A stream over a plain iter.Seq cannot be rewound, so its state cannot be
// saved: MarshalBinary says which stage holds it.
func ExampleIter_MarshalBinary() {
	it := stream.Map(stream.From(slices.Values([]int{1, 2, 3})), func(v int) int { return v * 10 }).Iter()
	defer it.Close()
	it.Next()
	_, err := it.MarshalBinary()
	fmt.Println(errors.Is(err, container.ErrState))
	fmt.Println(err)
	// Output:
	// true
	// stream.Iter.MarshalBinary: stream.From: a plain iter.Seq cannot be rewound (use stream.Replay for one that yields the same values on every range, or stream.Seek): state does not fit the iterator
}

func ExampleFrom() {
	s := stream.From(slices.Values([]string{"a", "b"}))
	for v, err := range s.All() {
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

// Seek's open starts the source at any value: a restored pass opens it where
// the saved one stood, without reading what came before.
func ExampleSeek() {
	squares := stream.Seek(func(pos int) iter.Seq2[int, error] {
		fmt.Println("open at", pos)
		return func(yield func(int, error) bool) {
			for i := pos; i < 5; i++ {
				if !yield(i*i, nil) {
					return
				}
			}
		}
	})
	it := squares.Iter()
	a, _ := it.Next()
	b, _ := it.Next()
	fmt.Println(a, b)
	saved, _ := it.MarshalBinary()
	it.Close()

	it = squares.Iter()
	defer it.Close()
	if err := it.UnmarshalBinary(saved); err != nil {
		log.Fatal(err)
	}
	for v := range it.All() {
		fmt.Println(v)
	}
	// Output:
	// open at 0
	// 0 1
	// open at 2
	// 4
	// 9
	// 16
}

// Replay restores by ranging over the sequence again and skipping the values
// the saved pass had yielded: the sequence must yield the same values on every
// range.
func ExampleReplay() {
	ranges := 0
	letters := stream.Replay(func(yield func(string, error) bool) {
		ranges++
		for _, s := range []string{"a", "b", "c", "d"} {
			if !yield(s, nil) {
				return
			}
		}
	})
	it := letters.Iter()
	first, _ := it.Next()
	saved, _ := it.MarshalBinary()
	it.Close()

	it = letters.Iter()
	defer it.Close()
	if err := it.UnmarshalBinary(saved); err != nil {
		log.Fatal(err)
	}
	var rest []string
	for v, err := range it.All() {
		if err != nil {
			log.Fatal(err)
		}
		rest = append(rest, v)
	}
	fmt.Println(first, rest, "ranges:", ranges)
	// Output: a [b c d] ranges: 2
}

// FromIter reads any container.Iterator, here an eachobs loader's batches
// (owned by the consumer, so that stages may keep them): a stream of its
// batches whose state is the loader's position.
func ExampleFromIter() {
	x := container.FromSlice([]int{10, 11, 12, 13, 14})
	loader := eachobs.NewLoader(x, 2, eachobs.Owned())
	batches := stream.Take(stream.FromIter(loader.Iter), 4) // an epoch of 3 batches, then the next epoch
	for b, err := range batches.All() {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(b.Pos.Epoch, b.Pos.Batch, b.Data)
	}
	// Output:
	// 0 0 [10 11]
	// 0 1 [12 13]
	// 0 2 [14]
	// 1 0 [10 11]
}

func ExampleCollect() {
	vals, err := stream.Collect(stream.Take(stream.From(slices.Values([]int{0, 1, 2, 3, 4})), 3))
	fmt.Println(vals, err)
	// Output: [0 1 2] <nil>
}

// An error from a source reaches the consumer as the last element of the
// stream, through any stage.
func ExampleLines() {
	open := func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader("3\n1\nfour\n5\n")), nil // os.Open("numbers.txt")
	}
	numbers := stream.MapErr(stream.Lines(open, 1<<20), strconv.Atoi)
	for v, err := range stream.Prefetch(numbers, 2).All() {
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
	s := stream.Map(stream.FromSlice([]string{"a", "bb"}), func(s string) int { return len(s) })
	vals, err := stream.Collect(s)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(vals)
	// Output: [1 2]
}

func ExampleMapErr() {
	s := stream.MapErr(stream.FromSlice([]string{"1", "2", "x"}), strconv.Atoi)
	vals, err := stream.Collect(s)
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

// Repeat runs epochs: the shuffle draws epoch e's order from (seed, e), so
// every epoch has its own order and the same seed gives the same epochs.
func ExampleRepeat() {
	epochs := stream.Repeat(stream.ShuffleBuffer(stream.FromSlice([]int{1, 2, 3, 4}), 4, 7), 3)
	vals, err := stream.Collect(epochs)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(vals[:4], vals[4:8], vals[8:])
	// Output:
	// [4 2 1 3] [1 4 3 2] [4 2 3 1]
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
	for p, err := range stream.Zip(images, labels, stream.Strict).All() {
		if err != nil {
			fmt.Println("error:", err)
			break
		}
		fmt.Println(p.X, p.Y)
	}
	// Output:
	// img0 7
	// img1 3
	// error: stream.Zip: stream 1 ended after 2 values, stream 0 has more: streams have different lengths
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
	s := stream.BlockShuffle(stream.FromSlice([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), 4, 1)
	vals, err := stream.Collect(s)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(vals)
	// Output:
	// [1 2 0 3 5 7 6 4 9 8]
}

// ShuffleBuffer's sliding buffer: a value can move at most size-1 places
// earlier, but any number of places later.
func ExampleShuffleBuffer() {
	s := stream.ShuffleBuffer(stream.FromSlice([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), 4, 1)
	vals, err := stream.Collect(s)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(vals)
	// Output:
	// [3 2 5 0 7 8 9 4 1 6]
}

func ExampleBatches() {
	s := stream.FromSlice([]int{0, 1, 2, 3, 4, 5, 6})
	keep, err := stream.Collect(stream.Batches(s, 3, index.Keep))
	if err != nil {
		log.Fatal(err)
	}
	drop, err := stream.Collect(stream.Batches(s, 3, index.Drop))
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
	batches, err := stream.Collect(stream.BatchSizes(naturals, slices.Values([]int{4, 4, 2}), index.Keep))
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
	s := stream.Cache(expensive)
	for range 3 {
		vals, err := stream.Collect(s)
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
	s := stream.Prefetch(stream.FromSlice([]string{"a", "b", "c"}), 2)
	vals, err := stream.Collect(s)
	fmt.Println(vals, err)
	// Output: [a b c] <nil>
}

// ParallelMap keeps the input order, however the work is scheduled.
func ExampleParallelMap() {
	decode := func(s string) (int, error) { return strconv.Atoi(s) }
	s := stream.ParallelMap(stream.FromSlice([]string{"10", "20", "30", "40", "50"}), 3, decode)
	vals, err := stream.Collect(s)
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
	s := stream.ParallelMap(stream.FromSlice([]int{1, 0, 2}), 2, func(v int) (int, error) { return 10 / v, nil })
	for v := range s.All() {
		fmt.Println(v)
	}
	// Output:
	// 10
	// stream.ParallelMap: panic at step 1: runtime error: integer divide by zero
}

// Unordered releases the order: results come as workers finish them. The
// output here is sorted because the order varies from run to run.
func ExampleUnordered() {
	s := stream.ParallelMap(stream.FromSlice([]int{1, 2, 3, 4}), 2, func(v int) (int, error) { return v * v, nil }, stream.Unordered())
	vals, err := stream.Collect(s)
	slices.Sort(vals)
	fmt.Println(vals, err)
	// Output: [1 4 9 16] <nil>
}

func ExampleMix() {
	web := stream.FromSlice([]string{"w0", "w1", "w2", "w3", "w4", "w5"})
	books := stream.FromSlice([]string{"b0", "b1"})
	for _, rule := range []mix.Rule{mix.FirstExhausted, mix.AllExhausted, mix.Resample} {
		out, err := stream.Collect(stream.Mix(rule, []float64{2, 1}, 0, web, books))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(rule, out)
	}
	// Output:
	// first-exhausted [w0 b0 w1 w2 b1 w3 w4]
	// all-exhausted [w0 b0 w1 w2 b1 w3 w4 w5]
	// resample [w0 b0 w1 w2 b1 w3 w4 b0 w5]
}

func ExamplePack() {
	sentences := stream.FromSlice([][]int{{1, 2, 3}, {4, 5}, {6, 7, 8, 9}, {10}, {11, 12}})
	packed := stream.Pack(sentences, 6, 2, stream.PackOptions{Method: stream.BestFitDecreasing, Window: 5})
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

// Pack reuses one batch: Clone keeps a batch past the next step.
func ExamplePacked_Clone() {
	sentences := stream.FromSlice([][]int{{1, 2}, {3}, {4, 5, 6}})
	kept, err := stream.Collect(stream.Map(stream.Pack(sentences, 3, 1, stream.PackOptions{}), (*stream.Packed[int]).Clone))
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range kept {
		fmt.Println(p.Tokens, p.Segments)
	}
	// Output:
	// [1 2 3] [1 1 2]
	// [4 5 6] [1 1 1]
}

func ExampleHashPart() {
	// A log of events by user: the events of a held-out quarter of the users
	// (part 1 of 0.75 and the rest), stable as the log grows, read as it streams.
	type event struct {
		User string
		Page int
	}
	var events []event
	for i := range 12 {
		events = append(events, event{fmt.Sprint("user-", i%5), i})
	}
	h, err := subset.NewHash("holdout-v1", 0.75)
	if err != nil {
		log.Fatal(err)
	}
	user := func(e event) string { return e.User }
	for e, err := range stream.HashPart(stream.FromSlice(events), h, 1, user).All() {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(e)
	}
	// Output:
	// {user-0 0}
	// {user-4 4}
	// {user-0 5}
	// {user-4 9}
	// {user-0 10}
}
