package subset_test

import (
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

func ExampleOf() {
	data := container.FromSlice([]string{"a", "b", "c", "d", "e"})
	v := subset.Of(data, []int{4, 0, 2})
	w := subset.Of(v, []int{2, 2}) // flattened: indices into data
	fmt.Println(container.Collect(v), container.Collect(w), w.Indices())
	// Output: [e a c] [c c] [2 2]
}

func ExampleRange() {
	data := container.FromSlice([]string{"a", "b", "c", "d", "e"})
	v := subset.Range(data, 1, 4) // data[1:4], no index list
	fmt.Println(container.Collect(v), v.Indices())
	// Output: [b c d] [1 2 3]
}

func ExampleShuffle() {
	data := container.FromSlice([]string{"a", "b", "c", "d", "e"})
	v := subset.Shuffle(data, rand.New(rand.NewPCG(1, 2)))
	perm := rand.New(rand.NewPCG(1, 2)).Perm(5) // the same seed gives the same order
	fmt.Println(v.Indices(), perm, container.Collect(v))
	// Output: [1 4 2 0 3] [1 4 2 0 3] [b e c a d]
}

func ExampleIota() {
	// The index form of any function of the package: apply it to Iota(n) and
	// read the indices, for data kept elsewhere.
	parts, err := subset.Split(subset.Iota(10), nil, 0.7)
	if err != nil {
		panic(err)
	}
	fmt.Println(parts[0].Indices(), parts[1].Indices())
	// Output: [0 1 2 3 4 5 6] [7 8 9]
}

func ExampleSplit() {
	data := subset.Iota(10)
	parts, err := subset.Split(data, nil, 0.5, 0.3) // in order; the rest is a third part
	if err != nil {
		panic(err)
	}
	fmt.Println(parts[0].Indices(), parts[1].Indices(), parts[2].Indices())

	// Fractions that sum to 1 give one part each.
	parts, err = subset.Split(data, nil, 0.7, 0.15, 0.15)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(parts), parts[0].Nobs(), parts[1].Nobs(), parts[2].Nobs())

	// A non-nil rng shuffles first: a random 80/20 train/test split.
	parts, err = subset.Split(data, rand.New(rand.NewPCG(1, 2)), 0.8)
	if err != nil {
		panic(err)
	}
	train, test := parts[0], parts[1]
	fmt.Println(train.Nobs(), test.Nobs(), test.Indices())

	_, err = subset.Split(data, nil, 0.7, 0.5)
	fmt.Println(err)
	_, err = subset.Split(data, nil, 0.95)
	fmt.Println(err)
	// Output:
	// [0 1 2 3 4] [5 6 7] [8 9]
	// 3 7 2 1
	// 8 2 [5 7]
	// subset.Split: fractions [0.7 0.5] sum to 1.2, more than 1: fraction out of range
	// subset.Split: part 1 (fraction 0.050000000000000044) of 10 observations would be empty: no observations
}

func ExampleSplitCounts() {
	parts, err := subset.SplitCounts(subset.Iota(10), nil, 3, 5)
	if err != nil {
		panic(err)
	}
	for _, p := range parts {
		fmt.Print(p.Indices())
	}
	fmt.Println()
	// Output: [0 1 2][3 4 5 6 7][8 9]
}

func ExampleKFolds() {
	folds, err := subset.KFolds(subset.Iota(10), nil, 3)
	if err != nil {
		panic(err)
	}
	for train, val := range folds.All() {
		fmt.Println(train.Indices(), val.Indices())
	}
	_, err = subset.KFolds(subset.Iota(10), nil, 11)
	fmt.Println(err)
	// Output:
	// [4 5 6 7 8 9] [0 1 2 3]
	// [0 1 2 3 7 8 9] [4 5 6]
	// [0 1 2 3 4 5 6] [7 8 9]
	// subset.KFolds: k = 11 folds outside [2, 10] for 10 observations: folds out of range
}

func ExampleLeaveOut() {
	// MLUtils' leavepout: floor(n/p) folds, every validation set at least p.
	folds, err := subset.LeaveOut(subset.Iota(10), nil, 3)
	if err != nil {
		panic(err)
	}
	for _, val := range folds.All() {
		fmt.Print(val.Indices())
	}
	fmt.Println()
	// Output: [0 1 2 3][4 5 6][7 8 9]
}

func ExampleStratifiedSplit() {
	// Labeled data: features and labels linked by tuples.Zip2. The label type is
	// inferred from the container.
	x := container.FromSlice([]float64{0.0, 0.1, 0.2, 0.3, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5})
	y := container.FromSlice([]string{"a", "a", "a", "a", "b", "b", "b", "b", "b", "b"})
	data, err := tuples.Zip2(x, y)
	if err != nil {
		panic(err)
	}
	parts, err := subset.StratifiedSplit(data, nil, 0.5)
	if err != nil {
		panic(err)
	}
	for _, p := range parts {
		fmt.Println(p.Indices(), tuples.Labels(p))
	}

	// Classes too small for a part: scikit-learn refuses these splits too.
	tiny, err := tuples.Zip2(container.FromSlice([]int{10, 20, 30}), container.FromSlice([]string{"a", "b", "c"}))
	if err != nil {
		log.Fatal(err)
	}
	_, err = subset.StratifiedSplit(tiny, nil, 0.8, 0.2)
	fmt.Println(err)
	// Output:
	// [0 1 4 5 6] [a a b b b]
	// [2 3 7 8 9] [a a b b b]
	// subset.StratifiedSplit: part 1 (fraction 0.2) would be empty: no class is large enough to put a member in it; the largest, class a, has 1: no observations
}

func ExampleStratifiedKFolds() {
	labels := container.FromSlice([]string{"a", "a", "b", "a", "b", "a", "b", "b", "a"})
	data, err := tuples.Zip2(subset.Iota(9), labels)
	if err != nil {
		panic(err)
	}
	folds, err := subset.StratifiedKFolds(data, nil, 2)
	if err != nil {
		panic(err)
	}
	for train, val := range folds.All() {
		fmt.Println(tuples.Labels(val), val.Indices(), train.Indices())
	}
	_, err = subset.StratifiedKFolds(data, nil, 5)
	fmt.Println(err)
	// Output:
	// [a a b a b] [0 1 2 3 4] [5 6 7 8]
	// [a b b a] [5 6 7 8] [0 1 2 3 4]
	// subset.StratifiedKFolds: class b has 4 members, fewer than k = 5 folds: class too small
}

func ExampleClasses() {
	data, err := tuples.Zip2(subset.Iota(4), container.FromSlice([]string{"cat", "dog", "cat", "bird"}))
	if err != nil {
		panic(err)
	}
	for _, c := range subset.Classes(data) {
		fmt.Println(c.Label, c.Indices)
	}
	// Output:
	// cat [0 2]
	// dog [1]
	// bird [3]
}

func ExamplePartition() {
	data := subset.Iota(10)
	// Three workers, PyTorch DistributedSampler style: strided, padded so every
	// worker gets the same count. Each worker passes its own Index.
	for rank := range 3 {
		part, err := subset.Partition(data, nil, index.Part{Index: rank, Parts: 3, Strided: true, Tail: index.Pad})
		if err != nil {
			panic(err)
		}
		fmt.Println(rank, part.Indices())
	}
	// MXNet style: contiguous parts, together exactly the data.
	for rank := range 3 {
		part, err := subset.Partition(data, nil, index.Part{Index: rank, Parts: 3})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(rank, part.Indices())
	}
	// Output:
	// 0 [0 3 6 9]
	// 1 [1 4 7 0]
	// 2 [2 5 8 1]
	// 0 [0 1 2 3]
	// 1 [4 5 6]
	// 2 [7 8 9]
}

func ExampleOversample() {
	x := container.FromSlice([]float64{0.1, 0.2, 0.3, 0.4, 0.5})
	y := container.FromSlice([]string{"a", "c", "c", "a", "b"})
	data, err := tuples.Zip2(x, y)
	if err != nil {
		panic(err)
	}
	over, err := subset.Oversample(data, nil, 1)
	if err != nil {
		panic(err)
	}
	fmt.Println(over.Indices(), tuples.Labels(over))
	// Output: [0 1 2 3 4 4] [a c c a b b]
}

func ExampleUndersample() {
	data, err := tuples.Zip2(subset.Iota(5), container.FromSlice([]string{"a", "c", "c", "a", "b"}))
	if err != nil {
		panic(err)
	}
	under := subset.Undersample(data, nil)
	fmt.Println(under.Indices(), tuples.Labels(under))
	// Output: [0 1 4] [a c b]
}

func ExampleTimeSeriesFolds() {
	folds, err := subset.TimeSeriesFolds(subset.Iota(12), 3, subset.TimeSeries{TestSize: 2, Gap: 1})
	if err != nil {
		panic(err)
	}
	for train, val := range folds.All() {
		fmt.Println(train.Indices(), val.Indices())
	}
	// Output:
	// [0 1 2 3 4] [6 7]
	// [0 1 2 3 4 5 6] [8 9]
	// [0 1 2 3 4 5 6 7 8] [10 11]
}

func ExampleRandObs() {
	v, err := subset.RandObs(subset.Iota(4), rand.New(rand.NewPCG(3, 4)), 6)
	if err != nil {
		panic(err)
	}
	fmt.Println(v.Nobs(), v.Indices())
	_, err = subset.RandObs(subset.Iota(0), rand.New(rand.NewPCG(3, 4)), 1)
	fmt.Println(err)
	// Output:
	// 6 [2 3 1 1 0 3]
	// subset.RandObs: 1 observations from an empty container: no observations
}

func ExampleBootstrap() {
	sample, oob := subset.Bootstrap(subset.Iota(8), rand.New(rand.NewPCG(3, 4)))
	fmt.Println(sample.Nobs(), sample.Indices(), oob.Indices())
	// Output: 8 [6 7 1 5 4 3 1 3] [0 2]
}

func ExampleView_MapIndices() {
	// A batch loop with its own buffers gathers through the source directly.
	data := container.FromSlice([]string{"a", "b", "c", "d", "e"})
	v := subset.Shuffle(data, rand.New(rand.NewPCG(1, 2)))
	var scratch []int
	var buf []string
	scratch = v.MapIndices(scratch, []int{0, 1})
	buf = v.Source().GetObsInto(buf, scratch)
	fmt.Println(scratch, buf)
	// Output: [1 4] [b e]
}
