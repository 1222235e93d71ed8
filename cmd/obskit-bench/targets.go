package main

import (
	"fmt"
	"regexp"
	"strings"
)

// Target is one speed target of the issues with the figure measured for it.
type Target struct {
	Issue int    `json:"issue"`
	What  string `json:"what"`
	// Metric names what was measured, in words and with its unit.
	Metric string `json:"metric"`
	// Want is the condition on the median, such as ">= 0.95".
	Want     string  `json:"want"`
	Measured Measure `json:"measured"`
	// Status is "met", "not met" or "not measured"; "measured" for a figure of
	// context, which has no Want.
	Status string `json:"status"`
	// Command measures the figure on its own.
	Command string `json:"command"`
}

// A metricRef names a value reported by a Go benchmark.
type metricRef struct{ Pkg, Bench, Unit string }

// A targetDef is a target and the benchmark metric that checks it.
type targetDef struct {
	Issue  int
	What   string
	Metric string
	Ref    metricRef
	Over   *metricRef // when set, the figure is Ref / Over (run by run)
	Op     string     // ">=", "<=" or "<"
	Want   float64
}

// targetDefs lists every speed target of issues 2, 3, 4, 5 and 7 with the
// benchmark that measures it.
var targetDefs = []targetDef{
	{2, "observation-first gather of 60000x784 float32, shuffled batches of 128",
		"throughput / copy() of the same bytes (thread CPU time, alternating)",
		metricRef{"arraycontainer", "BenchmarkPaired/first-vs-copy", "speedup"}, nil, ">=", 0.95},
	{2, "observation-first gather allocates nothing",
		"allocs per batch",
		metricRef{"bench", "BenchmarkGather/float32/first", "allocs/op"}, nil, "<=", 0},
	{2, "observation-last gather at least as fast as a naive per-element loop",
		"throughput / naive loop",
		metricRef{"arraycontainer", "BenchmarkPaired/last-vs-naive", "speedup"}, nil, ">=", 1},
	{2, "after relayout (ObsFirst), the same as observation-first",
		"throughput / observation-first gather",
		metricRef{"arraycontainer", "BenchmarkPaired/relaid-vs-first", "speedup"}, nil, ">=", 0.95},
	{2, "an (X, y) tuple batch within 5% of gathering X alone",
		"batches per second / X alone",
		metricRef{"bench", "BenchmarkTuple", "x-X"}, nil, ">=", 0.95},
	{3, "shuffled epoch of the (X, y) tuple through eachobs.Batches",
		"throughput / copy() of the same bytes",
		metricRef{"bench", "BenchmarkEpoch", "x-copy"}, nil, ">=", 0.9},
	{3, "no allocation per batch: allocations of a 469-batch epoch are the pass's setup",
		"allocs per epoch",
		metricRef{"bench", "BenchmarkEpoch", "allocs/op"}, nil, "<=", 8},
	{3, "Prefetch(1) with a loop body that costs as much as the gather (a linear layer's forward pass), 2 cores",
		"epoch time / serial epoch time",
		metricRef{"bench", "BenchmarkPrefetch/linear", "prefetch/serial"}, nil, "<=", 0.6},
	{3, "the same with a compute-bound body (arithmetic that reads one value of the batch)",
		"epoch time / serial epoch time",
		metricRef{"bench", "BenchmarkPrefetch/compute", "prefetch/serial"}, nil, "<=", 0.6},
	{4, "ParallelMap, 4 workers, 10,000 items of 100 µs CPU, order kept",
		"serial time / parallel time",
		metricRef{"stream", "BenchmarkParallelMapSpeedup", "speedup"}, nil, ">=", 1.6},
	{5, "opening a 1 GiB .npy memory-mapped",
		"ns per Open + Close",
		metricRef{"npy", "BenchmarkOpen/1GiB", "ns/op"}, nil, "<", 1e6},
	{5, "opening does not grow with the file size",
		"Open of 64 GiB / Open of 1 MiB",
		metricRef{"npy", "BenchmarkOpen/64GiB", "ns/op"}, &metricRef{"npy", "BenchmarkOpen/1MiB", "ns/op"}, "<=", 2},
	{5, "shuffled batch loop over a mapped .npy (pages cached) vs in memory",
		"throughput / in-memory loop",
		metricRef{"bench", "BenchmarkMappedEpoch", "x-memory"}, nil, ">=", 0.9},
	{7, "shuffled 80/20 split of 10,000,000 observations",
		"time / rand.Perm of the same size",
		metricRef{"subset", "BenchmarkShuffled/Split", "kit/perm"}, nil, "<=", 2},
	{7, "shuffled 10 folds (all train and validation views) of 10,000,000",
		"time / rand.Perm of the same size",
		metricRef{"subset", "BenchmarkShuffled/KFolds", "kit/perm"}, nil, "<=", 2},
	{7, "a view of views holds O(len(idx)) memory, not O(n): 100 indices into 10M",
		"bytes allocated per build",
		metricRef{"subset", "BenchmarkViewOfViews", "B/op"}, nil, "<=", 4096},
}

// contextDefs are figures that are not targets but explain them: the baselines
// a target's figure cannot beat on the machine, and what the wrappers cost. Op
// and Want are unused.
var contextDefs = []targetDef{
	{2, "observation-first gather on the wall clock (the suite's figure; the target's is on the thread CPU clock)",
		"throughput / copy() of the same bytes",
		metricRef{"bench", "BenchmarkGather/float32/first", "x-copy"}, nil, "", 0},
	{3, "the shuffled epoch against a naive loop copying the same shuffled rows one by one",
		"throughput / naive shuffled row copy",
		metricRef{"bench", "BenchmarkEpoch", "x-rowcopy"}, nil, "", 0},
	{3, "the prefetch pipeline without the kit: two goroutines handing 469 steps of 50 µs of work each way through a ring of two, with blocking receives",
		"pipeline time / serial time (0.5 is perfect overlap)",
		metricRef{"bench", "BenchmarkHandoff", "block/serial"}, nil, "", 0},
	{3, "the same pipeline with the polling receive eachobs uses (internal/pipeline)",
		"pipeline time / serial time (0.5 is perfect overlap)",
		metricRef{"bench", "BenchmarkHandoff", "handoff/serial"}, nil, "", 0},
	{4, "a provider's epoch against the eachobs loop it wraps (MNIST-sized rows)",
		"time / eachobs time",
		metricRef{"provider", "BenchmarkEpochRatio/mnist", "provider/eachobs"}, nil, "", 0},
	{7, "batches through a shuffled split's view against copy()",
		"throughput / copy() of the same bytes",
		metricRef{"bench", "BenchmarkSubset", "x-copy"}, nil, "", 0},
}

// evaluate measures every target of defs from s. count is the -count of the
// run, for the commands.
func evaluate(defs []targetDef, s Samples, count int) []Target {
	out := make([]Target, 0, len(defs))
	for _, d := range defs {
		t := Target{Issue: d.Issue, What: d.What, Metric: d.Metric}
		if d.Op != "" {
			t.Want = d.Op + " " + fmt.Sprint(d.Want)
		}
		runs := s.Get(d.Ref.Pkg, d.Ref.Bench, d.Ref.Unit)
		if d.Over != nil {
			runs = ratios(runs, s.Get(d.Over.Pkg, d.Over.Bench, d.Over.Unit))
		}
		t.Measured = newMeasure(d.Ref.Bench, runs)
		switch {
		case len(runs) == 0:
			t.Status = "not measured"
		case d.Op == "":
			t.Status = "measured"
		case compare(t.Measured.Median, d.Op, d.Want):
			t.Status = "met"
		default:
			t.Status = "not met"
		}
		t.Command = benchCommand(d.Ref, count)
		if d.Over != nil {
			t.Command = benchCommand(metricRef{d.Ref.Pkg, commonParent(d.Ref.Bench, d.Over.Bench), ""}, count)
		}
		out = append(out, t)
	}
	return out
}

// ratios divides a by b run by run; it is empty unless both hold the same
// number of runs.
func ratios(a, b []float64) []float64 {
	if len(a) != len(b) {
		return nil
	}
	out := make([]float64, len(a))
	for i := range a {
		if b[i] == 0 {
			return nil
		}
		out[i] = a[i] / b[i]
	}
	return out
}

func compare(v float64, op string, want float64) bool {
	switch op {
	case ">=":
		return v >= want
	case "<=":
		return v <= want
	case "<":
		return v < want
	}
	panic("obskit-bench: unknown comparison " + op)
}

// commonParent returns the longest common benchmark path of a and b.
func commonParent(a, b string) string {
	pa, pb := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(pa) && n < len(pb) && pa[n] == pb[n] {
		n++
	}
	return strings.Join(pa[:n], "/")
}

// benchCommand returns the go test command that runs benchmark r.Bench alone,
// with the -benchtime of its run in goRuns.
func benchCommand(r metricRef, count int) string {
	parts := strings.Split(r.Bench, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	g := goRun{Pkg: r.Pkg, Bench: strings.Join(parts, "/")}
	for _, run := range goRuns {
		if run.Pkg == r.Pkg && matchesTop(run.Bench, r.Bench) {
			g.Benchtime = run.Benchtime
			break
		}
	}
	return command("go", g.args(count, false))
}
