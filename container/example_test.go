package container_test

import (
	"fmt"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/subset"
)

// temperatures is a user type: two methods make it a container.
type temperatures struct{ celsius []float64 }

func (t temperatures) Nobs() int { return len(t.celsius) }
func (t temperatures) GetObs(i int) float64 {
	container.CheckIndex("temperatures.GetObs", i, len(t.celsius))
	return t.celsius[i]
}

func Example() {
	var c container.Container[float64] = temperatures{[]float64{21.5, 19, 23.25}}
	fmt.Println(c.Nobs(), c.GetObs(2))

	// Any container becomes Batched: batches are []float64, and a buffer is reused.
	b := container.AsBatched(c)
	buf := make([]float64, 0, 8)
	buf = b.GetObsInto(buf, []int{2, 0, 2})
	fmt.Println(buf)
	// Output:
	// 3 23.25
	// [23.25 21.5 23.25]
}

func ExampleFromSlice() {
	labels := container.FromSlice([]string{"cat", "dog", "cat"})
	fmt.Println(labels.Nobs(), labels.GetObs(1), container.GetBatch(labels, []int{2, 1}))
	// Output:
	// 3 dog [cat dog]
}

func ExampleFromFunc() {
	squares := container.FromFunc(5, func(i int) int { return i * i })
	fmt.Println(container.Collect(squares))
	// Output:
	// [0 1 4 9 16]
}

func ExampleCheckIndex() {
	defer func() { fmt.Println(recover()) }()
	container.FromSlice([]int{1, 2, 3}).GetObs(3)
	// Output:
	// container.Slice.GetObs: index 3 out of range [0, 3)
}

// A type with only Nobs and GetObs goes into the kit through AsBatched: its
// batches are []T, and subsets, loops and tuples take it.
func ExampleAsBatched() {
	temps := container.AsBatched(temperatures{[]float64{21.5, 19, 23.25, 18, 20}})
	parts, err := subset.Split(temps, nil, 0.6)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(container.Collect(parts[0]), container.Collect(parts[1]))
	fmt.Println(temps.GetObsInto(nil, []int{4, 0}))
	// Output:
	// [21.5 19 23.25] [18 20]
	// [20 21.5]
}

// window is a user function that checks its argument the way the kit does.
func window(c container.Container[float64], size int) []float64 {
	container.CheckArg(size >= 1, "window", "size", size, ">= 1")
	out := make([]float64, 0, size)
	for i := range min(size, c.Nobs()) {
		out = append(out, c.GetObs(i))
	}
	return out
}

func ExampleCheckArg() {
	defer func() { fmt.Println(recover()) }()
	temps := temperatures{[]float64{21.5, 19}}
	fmt.Println(window(temps, 1))
	window(temps, 0)
	// Output:
	// [21.5]
	// window: size 0, want >= 1
}

// noise is a random container: observation i is a number drawn from the
// generator of i.
type noise struct{ n int }

func (c noise) Nobs() int { return c.n }

func (c noise) GetObs(i int) int { return c.GetObsRand(i, container.ObsRand{}) }

func (c noise) GetObsInto(dst []int, idx []int) []int {
	return c.GetObsRandInto(dst, idx, container.NewObsRand(0, 0))
}

func (c noise) GetObsRand(i int, r container.ObsRand) int {
	container.CheckIndex("noise.GetObsRand", i, c.n)
	return r.For(i).IntN(100)
}

func (c noise) GetObsRandInto(dst []int, idx []int, r container.ObsRand) []int {
	container.CheckIndices("noise.GetObsRandInto", idx, c.n)
	dst = container.Resize(dst, len(idx))
	for j, i := range idx {
		dst[j] = r.For(i).IntN(100) // the generator of i, reseeded: no allocation
	}
	return dst
}

func ExampleRandom() {
	// A loop hands a Random container the randomness of (seed, epoch); each
	// observation draws from its own generator, whatever batch it falls in.
	var c container.Random[int, []int] = noise{5}
	epoch0, epoch1 := container.NewObsRand(42, 0), container.NewObsRand(42, 1)
	fmt.Println(c.GetObsRandInto(nil, []int{0, 1, 2, 3, 4}, epoch0))
	fmt.Println(c.GetObsRandInto(nil, []int{4, 2}, epoch0))
	fmt.Println(c.GetObsRandInto(nil, []int{0, 1, 2, 3, 4}, epoch1))
	// Output:
	// [90 59 74 46 9]
	// [9 74]
	// [83 95 56 24 40]
}
