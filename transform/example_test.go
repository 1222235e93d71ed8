package transform_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/transform"
	"github.com/obskit/obskit/tuples"
)

func ExampleMap() {
	words := container.FromSlice([]string{"go", "julia", "python"})
	upper := transform.Map(words, strings.ToUpper)
	fmt.Println(upper.Nobs(), upper.GetObs(1), upper.GetObsInto(nil, []int{2, 0}))
	// Output: 3 JULIA [PYTHON GO]
}

func ExampleMap_labeled() {
	// To transform the features of labeled data, map the member before linking
	// it: the labels never pass through the function, and the result is labeled.
	x := container.FromSlice([]string{"go", "julia", "python", "rust"})
	y := container.FromSlice([]int{0, 1, 1, 0})
	data, err := tuples.Zip2(transform.Map(x, strings.ToUpper), y)
	if err != nil {
		panic(err)
	}
	parts, err := subset.StratifiedSplit(data, nil, 0.5)
	if err != nil {
		panic(err)
	}
	for _, p := range parts {
		fmt.Println(container.Collect(p), tuples.Labels(p))
	}
	// Output:
	// [{GO 0} {JULIA 1}] [0 1]
	// [{PYTHON 1} {RUST 0}] [1 0]
}

func ExampleMapBatches() {
	pixels := container.FromSlice([]uint8{0, 51, 255, 102})
	scale := func(p uint8) float32 { return float32(p) / 255 }
	scaled := transform.MapBatches(pixels, scale, func(dst []float32, b []uint8) []float32 {
		dst = container.Resize(dst, len(b))
		for j, p := range b {
			dst[j] = scale(p)
		}
		return dst
	})
	fmt.Println(scaled.GetObs(1), scaled.GetObsInto(nil, []int{2, 3}))
	// Output: 0.2 [1 0.4]
}

func ExampleFilter() {
	nums := container.FromSlice([]int{5, 12, 7, 30, 1})
	big := transform.Filter(nums, func(x int) bool { return x > 6 })
	fmt.Println(big.Indices(), container.Collect(big))
	// Output: [1 2 3] [12 7 30]
}

func ExampleGroupBy() {
	words := container.FromSlice([]string{"ant", "bee", "asp", "cow", "bat"})
	for _, g := range transform.GroupBy(words, func(w string) byte { return w[0] }) {
		fmt.Println(string(g.Key), container.Collect(g.View))
	}
	// Output:
	// a [ant asp]
	// b [bee bat]
	// c [cow]
}

func ExampleJoin() {
	train := container.FromSlice([]string{"a", "b"})
	extra := container.FromFunc(3, func(i int) string { return strings.Repeat("z", i+1) })
	all := transform.Join(train, extra)
	fmt.Println(all.Nobs(), container.Collect(all), len(all.Parts()), all.GetObs(3))
	// Output: 5 [a b z zz zzz] 2 zz
}

func ExampleWindows() {
	seq := container.FromSlice([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	w := transform.Windows(seq, 4, 3) // complete windows only
	fmt.Println(w.Nobs(), container.Collect(w))
	// Output: 3 [[0 1 2 3] [3 4 5 6] [6 7 8 9]]
}

func ExampleMapRand() {
	// A random map: each observation draws from its own generator, seeded from
	// the loop's seed, the epoch and the observation's index, so the draws are
	// the same whatever the number of workers or the order.
	data := container.FromSlice([]float64{10, 20, 30, 40, 50, 60})
	jitter := transform.MapRand(data, func(x float64, rng *rand.Rand) float64 {
		return x + float64(rng.IntN(5))
	})
	draw := func(opts ...eachobs.Option) map[int]float64 {
		got := map[int]float64{}
		for b := range eachobs.Batches(jitter, 4, append(opts, eachobs.Shuffle(7))...) {
			for j, i := range b.Indices {
				got[i] = b.Data[j]
			}
		}
		return got
	}
	serial, parallel := draw(), draw(eachobs.Workers(3))
	fmt.Println(serial)
	fmt.Println(maps.Equal(serial, parallel))
	// Output:
	// map[0:11 1:23 2:34 3:40 4:52 5:63]
	// true
}
