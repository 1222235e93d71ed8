package arraycontainer_test

import (
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// TestLabeledAliases is a compile-time check: the short names are the types that
// Zip2 of an array and a label slice, its views and its loops produce.
func TestLabeledAliases(t *testing.T) {
	x, err := arraycontainer.New([]float64{1, 2, 3, 4}, []int{4}, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	data, err := tuples.Zip2(x, container.FromSlice([]string{"a", "b", "a", "b"}))
	if err != nil {
		t.Fatal(err)
	}
	var tup *arraycontainer.LabeledTuple[float64, string] = data
	var features *arraycontainer.Array[float64] = tup.X()
	var labels container.Slice[string] = tup.Y()
	var l arraycontainer.Labeled[float64, string] = subset.Shuffle(data, rand.New(rand.NewPCG(1, 1)))
	var batch arraycontainer.LabeledBatch[float64, string] = container.GetBatch(l, []int{0, 1})
	if features != x || len(labels) != 4 || batch.X.Nobs() != 2 || len(batch.Y) != 2 {
		t.Errorf("X() %p (want %p), %d labels, a batch of %d and %d", features, x, len(labels), batch.X.Nobs(), len(batch.Y))
	}
	for b := range eachobs.Batches(l, 3) {
		var lb arraycontainer.LabeledBatch[float64, string] = b.Data
		if lb.X.Nobs() != len(lb.Y) {
			t.Errorf("a loop batch holds %d features and %d labels", lb.X.Nobs(), len(lb.Y))
		}
	}
}
