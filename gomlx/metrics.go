package gomlx

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/metric"
)

// MaskedMean returns a mean metric of fn over an evaluation, as
// metric.NewMeanMetric does, but weighting each batch by its real
// observations, counted in the mask label of [Mask] (the last label), instead
// of by its full size: GoMLX's mean metrics (v0.28.2) count a padded last
// batch as a full one even when fn honours the mask. Without a boolean last
// label it weights by the batch size, as NewMeanMetric.
func MaskedMean(name, shortName, metricType string, fn metric.BaseMetricGraph, pp metric.PrettyPrintFn) metric.Interface {
	return &maskedMean{metric.NewMeanMetric(name, shortName, metricType, fn, pp), fn}
}

// MaskedAccuracy is GoMLX's sparse categorical accuracy (logits and integer
// labels of shape [batch, 1]) as a [MaskedMean]: exact over an evaluation with
// a padded last batch.
func MaskedAccuracy(name, shortName string) metric.Interface {
	return MaskedMean(name, shortName, metric.AccuracyMetricType, metric.SparseCategoricalAccuracyGraph, nil)
}

// maskedMean keeps MeanMetric's state (the variables "total" and "weight" in
// its scope), so that MeanMetric's Reset resets it.
type maskedMean struct {
	*metric.MeanMetric
	fn metric.BaseMetricGraph
}

func (m *maskedMean) UpdateGraph(scope *model.Scope, labels, predictions []*graph.Node) *graph.Node {
	result := m.fn(scope, labels, predictions)
	if result.DType() == dtypes.Float16 || result.DType() == dtypes.BFloat16 {
		result = graph.ConvertDType(result, dtypes.Float32)
	}
	g, dtype := result.Graph(), result.DType()
	var count *graph.Node
	if mask := labels[len(labels)-1]; len(labels) > 1 && mask.DType() == dtypes.Bool {
		count = graph.ReduceAllSum(graph.ConvertDType(mask, dtype))
		result = graph.Where(graph.GreaterThan(count, graph.ScalarZero(g, dtype)), result, graph.ScalarZero(g, dtype))
	} else {
		count = graph.ConvertDType(metric.BatchSize(predictions[0]), dtype)
	}
	scope = scope.At(metric.Scope).In("%s", m.ScopeName())
	zero := shapes.CastAsDType(0, dtype)
	totalVar := scope.VariableWithValue("total", zero).SetTrainable(false)
	weightVar := scope.VariableWithValue("weight", zero).SetTrainable(false)
	total := graph.Add(totalVar.NodeValue(g), graph.Mul(result, count))
	weight := graph.Add(weightVar.NodeValue(g), count)
	totalVar.SetNodeValue(total)
	weightVar.SetNodeValue(weight)
	return graph.Div(total, weight)
}
