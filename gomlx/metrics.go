package gomlx

import (
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/train/metrics"
)

// MaskedMean returns a mean metric of fn over an evaluation, as
// metrics.NewMeanMetric does, but weighting each batch by its real
// observations, counted in the mask label of [Mask] (the last label), instead
// of by its full size: GoMLX's mean metrics (v0.26.0) count a padded last
// batch as a full one even when fn honours the mask. Without a boolean last
// label it weights by the batch size, as NewMeanMetric.
func MaskedMean(name, shortName, metricType string, fn metrics.BaseMetricGraph, pp metrics.PrettyPrintFn) metrics.Interface {
	return &maskedMean{metrics.NewMeanMetric(name, shortName, metricType, fn, pp), fn}
}

// MaskedAccuracy is GoMLX's sparse categorical accuracy (logits and integer
// labels of shape [batch, 1]) as a [MaskedMean]: exact over an evaluation with
// a padded last batch.
func MaskedAccuracy(name, shortName string) metrics.Interface {
	return MaskedMean(name, shortName, metrics.AccuracyMetricType, metrics.SparseCategoricalAccuracyGraph, nil)
}

// maskedMean keeps MeanMetric's state (the variables "total" and "weight" in
// its scope), so that MeanMetric's Reset resets it.
type maskedMean struct {
	*metrics.MeanMetric
	fn metrics.BaseMetricGraph
}

func (m *maskedMean) UpdateGraph(ctx *context.Context, labels, predictions []*graph.Node) *graph.Node {
	result := m.fn(ctx, labels, predictions)
	if result.DType() == dtypes.Float16 || result.DType() == dtypes.BFloat16 {
		result = graph.ConvertDType(result, dtypes.Float32)
	}
	g, dtype := result.Graph(), result.DType()
	var count *graph.Node
	if mask := labels[len(labels)-1]; len(labels) > 1 && mask.DType() == dtypes.Bool {
		count = graph.ReduceAllSum(graph.ConvertDType(mask, dtype))
		result = graph.Where(graph.GreaterThan(count, graph.ScalarZero(g, dtype)), result, graph.ScalarZero(g, dtype))
	} else {
		count = graph.ConvertDType(metrics.BatchSize(predictions[0]), dtype)
	}
	ctx = ctx.Checked(false).In(metrics.Scope).In(m.ScopeName())
	zero := shapes.CastAsDType(0, dtype)
	totalVar := ctx.VariableWithValue("total", zero).SetTrainable(false)
	weightVar := ctx.VariableWithValue("weight", zero).SetTrainable(false)
	total := graph.Add(totalVar.ValueGraph(g), graph.Mul(result, count))
	weight := graph.Add(weightVar.ValueGraph(g), count)
	totalVar.SetValueGraph(total)
	weightVar.SetValueGraph(weight)
	return graph.Div(total, weight)
}
