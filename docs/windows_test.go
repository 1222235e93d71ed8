package docs_test

// The example of windows.md.

import (
	"fmt"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/transform"
	"github.com/obskit/obskit/tuples"
)

func Example_windows() {
	// 12 days of a measurement, in time order.
	days := container.FromSlice([]float64{10, 11, 13, 12, 14, 15, 17, 16, 18, 19, 21, 20})
	const size = 3

	// Input: the windows of 3 days; target: the day after each window.
	inputs := transform.Windows(subset.Range(days, 0, days.Nobs()-1), size, 1)
	targets := subset.Range(days, size, days.Nobs())
	data, err := tuples.Zip2(inputs, targets)
	if err != nil {
		panic(err)
	}
	fmt.Println(data.Nobs(), "windows; the first:", data.GetObs(0))

	// Train on the past, validate on what follows it, nothing shuffled.
	folds, err := subset.TimeSeriesFolds(data, 3, subset.TimeSeries{})
	if err != nil {
		panic(err)
	}
	for train, val := range folds.All() {
		fmt.Println("train on windows", train.Indices(), "validate on", val.Indices())
	}
	// Output:
	// 9 windows; the first: {[10 11 13] 12}
	// train on windows [0 1 2] validate on [3 4]
	// train on windows [0 1 2 3 4] validate on [5 6]
	// train on windows [0 1 2 3 4 5 6] validate on [7 8]
}
