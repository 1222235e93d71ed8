package datasets

import (
	"bytes"
	_ "embed"
	"fmt"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/csvdata"
	"github.com/obskit/obskit/idx"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/tuples"
)

var (
	//go:embed data/iris.csv
	irisCSV []byte
	//go:embed data/digits-images-idx3-ubyte
	digitImages []byte
	//go:embed data/digits-labels-idx1-ubyte
	digitLabels []byte
)

// IrisFeatures names the four iris features, in column order (centimetres).
var IrisFeatures = []string{"sepal_length", "sepal_width", "petal_length", "petal_width"}

// IrisSpecies names the iris classes: target k is IrisSpecies[k].
var IrisSpecies = []string{"setosa", "versicolor", "virginica"}

// Iris returns Fisher's iris data set: X is a [150 4] float64 array of the
// measurements in [IrisFeatures] order (one flower per observation), Y the
// species of each flower as an index into [IrisSpecies]. Rows are in the order of
// the original data, grouped by species: shuffle or stratify before splitting.
func Iris() *arraycontainer.LabeledTuple[float64, int] {
	tab, err := csvdata.Read[float64](bytes.NewReader(irisCSV), csvdata.Options{Target: "species"})
	if err != nil {
		panic(fmt.Sprintf("datasets: embedded iris: %v", err)) // the embedded file is tested
	}
	codes, names := tab.Classes()
	if fmt.Sprint(names) != fmt.Sprint(IrisSpecies) {
		panic(fmt.Sprintf("datasets: embedded iris has species %q", names))
	}
	return must(tuples.Zip2(tab.X, codes))
}

// Digits returns the 1,797 handwritten digits: X is a [1797 8 8] uint8 array of
// pixel counts 0..16 (one image per observation), Y the digit 0..9 shown by each
// image. View X as [1797 64] rows with X().Reshape (no copy), and convert it to
// floats in the loop with package convert.
func Digits() *arraycontainer.LabeledTuple[uint8, int] {
	x := must(idx.Read[uint8](bytes.NewReader(digitImages), obsdim.First))
	labels := must(idx.Read[uint8](bytes.NewReader(digitLabels), obsdim.First))
	y := make(container.Slice[int], labels.Len())
	for i, v := range labels.Data() { // a fresh contiguous array
		y[i] = int(v)
	}
	return must(tuples.Zip2(x, y))
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(fmt.Sprintf("datasets: embedded data: %v", err)) // the embedded files are tested
	}
	return v
}
