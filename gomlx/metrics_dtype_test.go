package gomlx_test

import (
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/obskit/obskit/gomlx"
)

// TestMaskedMeanDType checks the dtype MaskedMean keeps its mean in: that of
// the metric's values, except half precision (Float16, BFloat16), whose
// totals over an evaluation are kept in Float32; and the mean itself, 0.25 of
// a batch of [0, 0.25, 0.5] and [0.25] weighted by their sizes.
func TestMaskedMeanDType(t *testing.T) {
	for _, c := range []struct{ in, want dtypes.DType }{
		{dtypes.Float64, dtypes.Float64}, {dtypes.Float32, dtypes.Float32},
		{dtypes.Float16, dtypes.Float32}, {dtypes.BFloat16, dtypes.Float32},
	} {
		m := gomlx.MaskedMean("mean", "mean", "mean", func(_ *model.Scope, _, predictions []*graph.Node) *graph.Node {
			return graph.ReduceAllMean(predictions[0])
		}, nil)
		store := model.NewStore()
		exec := model.MustNewExec(backend(), store, func(scope *model.Scope, labels, predictions *graph.Node) *graph.Node {
			return m.UpdateGraph(scope, []*graph.Node{labels}, []*graph.Node{graph.ConvertDType(predictions, c.in)})
		})
		exec.MustCall([]float32{0, 0, 0}, []float32{0, 0.25, 0.5})
		got := exec.MustCall([]float32{0}, []float32{0.25})[0]
		if got.DType() != c.want {
			t.Errorf("values of %s: the mean is %s, want %s", c.in, got.DType(), c.want)
			continue
		}
		if v := got.Value(); v != float64(0.25) && v != float32(0.25) {
			t.Errorf("values of %s: mean %v, want 0.25", c.in, v)
		}
	}
}
