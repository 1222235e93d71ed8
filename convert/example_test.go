package convert_test

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/convert"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// Pixels 0..16 become float32 0..1 as each batch is gathered, beside the
// labels, through a stratified split and a shuffled loop; nothing is converted
// twice and nothing is allocated per batch.
func ExampleScale() {
	digits := datasets.Digits()
	data, err := tuples.Zip2(convert.Scale(digits.X(), float32(1.0/16), 0), digits.Y())
	if err != nil {
		panic(err)
	}
	parts, err := subset.StratifiedSplit(data, rand.New(rand.NewPCG(1, 2)), 0.8)
	if err != nil {
		panic(err)
	}
	for b := range eachobs.Batches(parts[0], 512, eachobs.Shuffle(3)) {
		fmt.Println(b.Data.X.Shape(), b.Data.X.At(0, 3, 3), b.Data.Y[:5])
	}
	// Output:
	// [512 8 8] 0.625 [1 7 2 8 3]
	// [512 8 8] 0 [2 6 7 1 4]
	// [414 8 8] 1 [1 6 8 5 7]
}

// Statistics from the training part standardize every part: here the same
// container, whose features then have mean 0 and deviation 1.
func ExampleStandardize() {
	x := convert.Scale(datasets.Iris().X(), float32(1), 0)
	st, err := convert.MeanStd(x)
	if err != nil {
		panic(err)
	}
	fmt.Printf("mean %.2f\nstd  %.2f\n", st.Mean, st.Std)
	xs, err := convert.Standardize(x, st)
	if err != nil {
		panic(err)
	}
	again, err := convert.MeanStd(xs)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("after: mean %.2f std %.2f\n", rounded(again.Mean), rounded(again.Std))
	// Output:
	// mean [5.84 3.06 3.76 1.20]
	// std  [0.83 0.43 1.76 0.76]
	// after: mean [0.00 0.00 0.00 0.00] std [1.00 1.00 1.00 1.00]
}

func ExampleOneHot() {
	y, err := convert.OneHot(container.FromSlice([]int{2, 0, 1}), 3, float32(1))
	if err != nil {
		panic(err)
	}
	fmt.Println(y.GetObsInto(nil, []int{0, 1, 2}))
	_, err = convert.OneHot(container.FromSlice([]int{0, 3}), 3, float32(1))
	fmt.Println(err)
	// Output:
	// [[0 0 1]
	//  [1 0 0]
	//  [0 1 0]]
	// convert.OneHot: label 3 at index 1 outside [0, 3): value out of range of the target type
}

// Cast is the one call of the package with a type argument: nothing else in
// the call names the target type.
func ExampleCast() {
	y, err := convert.Cast[int32](container.FromSlice([]int{7, 1, 300}))
	if err != nil {
		panic(err)
	}
	fmt.Println(y.GetObsInto(nil, []int{2, 0}))
	_, err = convert.Cast[int8](container.FromSlice([]int{7, 1, 300}))
	fmt.Println(err)
	// Output:
	// [300 7]
	// convert.Cast: value 300 at index 2 does not fit int8: value out of range of the target type
}

// ScaleInto converts a batch already in hand, into a buffer the loop keeps.
func ExampleScaleInto() {
	x32 := convert.ScaleInto(nil, datasets.Digits().X().ObsRange(0, 1), float32(1.0/16), 0)
	fmt.Println(x32.Shape(), x32.At(0, 2, 3))
	// Output:
	// [1 8 8] 0.125
}

// rounded rounds to hundredths, so that a tiny negative value prints as 0.00
// rather than -0.00 on machines whose float rounding differs.
func rounded(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Round(float64(x)*100)/100 + 0
	}
	return out
}
