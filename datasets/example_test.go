package datasets_test

import (
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// Iris is a tuple of measurements and species codes, ready for a stratified split.
func ExampleIris() {
	iris := datasets.Iris()
	first := iris.GetObs(0)
	fmt.Println(iris.Nobs(), "flowers;", datasets.IrisFeatures)
	fmt.Println(first.X, datasets.IrisSpecies[first.Y])

	parts, err := subset.StratifiedSplit(iris, rand.New(rand.NewPCG(1, 2)), 0.8)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range parts {
		n := make([]int, 3)
		for _, c := range tuples.Labels(p) {
			n[c]++
		}
		fmt.Println(p.Nobs(), "flowers, per species", n)
	}
	// Output:
	// 150 flowers; [sepal_length sepal_width petal_length petal_width]
	// [5.1 3.5 1.4 0.2] setosa
	// 120 flowers, per species [40 40 40]
	// 30 flowers, per species [10 10 10]
}

// Digits is a tuple of 8x8 images and the digit each shows: X() is the array of
// images and Y() the labels, each with its own type.
func ExampleDigits() {
	digits := datasets.Digits()
	fmt.Println(digits.X().Shape(), digits.Y()[:5])
	batch := container.GetBatch(digits, []int{0, 1, 2})
	fmt.Println(digits.Nobs(), "images; a batch of", batch.X.Shape(), "labels", batch.Y)
	fmt.Println(digits.GetObs(3).X)
	// Output:
	// [1797 8 8] [0 1 2 3 4]
	// 1797 images; a batch of [3 8 8] labels [0 1 2]
	// [[ 0  0  7 15 13  1  0  0]
	//  [ 0  8 13  6 15  4  0  0]
	//  [ 0  2  1 13 13  0  0  0]
	//  [ 0  0  2 15 11  1  0  0]
	//  [ 0  0  0  1 12 12  1  0]
	//  [ 0  0  0  0  1 10  8  0]
	//  [ 0  0  8  4  5 14  9  0]
	//  [ 0  0  7 13 13  9  0  0]]
}
