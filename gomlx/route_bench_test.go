package gomlx_test

import (
	"iter"
	"testing"
	"time"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/optimizer"

	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/index"
)

// BenchmarkOwnership measures the two routes GoMLX v0.28 allows a dataset,
// whose batches' tensors the trainer owns, through a trainer's evaluation step
// of a model that reads one value of each observation, so that moving the
// batch is most of the step:
//
//   - device: a new tensor on the backend's device per batch
//     (tensors.FromShapeForBackend; with the pure-Go backend's shared buffers,
//     the memory the graph reads), written once from the loop's buffer: one
//     copy, the route the adapter takes;
//   - host: one host tensor per input, kept and rewritten every batch; the
//     trainer copies it into a new device buffer that it donates to the step
//     (tensors.DonateBuffer) and leaves the host tensor alone: two copies.
//
// Each iteration runs stepsPerRound steps of each route in turn and reports
// ns/step of both and host over device.
//
//	go test -C gomlx -run '^$' -bench Ownership -count 5
func BenchmarkOwnership(b *testing.B) {
	const stepsPerRound = 20
	for _, c := range []struct {
		name        string
		n, features int
		batch       int
	}{
		{"digits-64x32", 1797, 64, 32},
		{"mnist-784x128", 60000, 784, 128},
		{"imagenet-150528x32", 600, 3 * 224 * 224, 32},
	} {
		b.Run(c.name, func(b *testing.B) {
			_, data := benchData(b, c.n, c.features)
			type route struct {
				name  string
				next  func() (train.Batch, error, bool)
				stop  func()
				total time.Duration
				steps int
			}
			trainer := train.NewTrainer(backend(), model.NewStore(),
				func(_ *model.Scope, x *graph.Node) *graph.Node {
					// One value per observation: the step's work is the
					// batch's move, not arithmetic.
					return graph.ConvertDType(graph.Slice(x, graph.AxisRange(), graph.AxisRange(0, 1)), dtypes.Float32)
				},
				func(_, predictions []*graph.Node) *graph.Node { return graph.ReduceAllMean(predictions[0]) },
				optimizer.StochasticGradientDescent(), nil, nil)
			var routes []*route
			for _, host := range []bool{false, true} {
				l := eachobs.NewLoader(data, c.batch, eachobs.Shuffle(3), eachobs.Tail(index.Drop), eachobs.Prefetch(1))
				ds, err := gomlx.Labeled(backend(), "bench", l.Iter(), gomlx.Endless())
				if err != nil {
					b.Fatal(err)
				}
				defer ds.Close()
				r := &route{name: "device"}
				if host {
					gomlx.UseHostTensors(ds)
					r.name = "host"
				}
				r.next, r.stop = iter.Pull2(ds.Iter())
				defer r.stop()
				routes = append(routes, r)
			}
			step := func(r *route, timed bool) {
				start := time.Now()
				batch, err, ok := r.next()
				if !ok || err != nil {
					b.Fatalf("%s: no batch: %v", r.name, err)
				}
				m, err := trainer.EvalStep(batch)
				if err != nil {
					b.Fatal(err)
				}
				for _, t := range m {
					_ = t.FinalizeAll()
				}
				if timed {
					r.total += time.Since(start)
					r.steps++
				}
			}
			for _, r := range routes { // compiles the graph, warms the buffers
				for range 3 {
					step(r, false)
				}
			}
			for b.Loop() {
				for _, r := range routes {
					for range stepsPerRound {
						step(r, true)
					}
				}
			}
			per := func(r *route) float64 { return float64(r.total.Nanoseconds()) / float64(r.steps) }
			b.ReportMetric(per(routes[0]), "ns/step-device")
			b.ReportMetric(per(routes[1]), "ns/step-host")
			b.ReportMetric(per(routes[1])/per(routes[0]), "x-host/device")
		})
	}
}
