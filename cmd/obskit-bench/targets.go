package main

import (
	"cmp"
	"fmt"
	"regexp"
	"strings"

	"github.com/obskit/obskit/bench"
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

// A peerRef names a peer measured by peers.py on a workload of the comparison.
type peerRef struct{ Workload, Peer string }

// A targetDef is a target and the benchmark metric that checks it.
type targetDef struct {
	Issue  int
	What   string
	Metric string
	Ref    metricRef
	// Over, when set, makes the figure Ref / Over (run by run).
	Over *metricRef
	// Min, when set, makes the figure the smallest of Ref and these metrics,
	// run by run: the kit's ratio to the fastest of several sides of one
	// benchmark.
	Min []metricRef
	// Peer, when set, makes the figure obskit's throughput on the workload
	// over the peer's median (each run of obskit over the peer's median); Ref
	// is then unused. Without peers (make bench) it is not measured.
	Peer *peerRef
	Op   string // ">=", "<=" or "<"
	Want float64
}

// targetDefs lists every speed target of issues 2, 3, 4, 5, 7 and 11 with the
// benchmark that measures it.
var targetDefs = append([]targetDef{
	{Issue: 2, What: "observation-first gather of 60000x784 float32, shuffled batches of 128",
		Metric: "throughput / copy() of the same bytes (thread CPU time, alternating)",
		Ref:    metricRef{"bench", "BenchmarkPaired/first-vs-copy", "speedup"}, Op: ">=", Want: 0.95},
	{Issue: 2, What: "observation-first gather allocates nothing",
		Metric: "allocs per batch",
		Ref:    metricRef{"bench", "BenchmarkGather/float32/first", "allocs/op"}, Op: "<=", Want: 0},
	{Issue: 2, What: "observation-last gather at least as fast as a naive per-element loop, in either loop order",
		Metric: "throughput / the faster of the naive loop into an observation-first batch and the same in the source's row order into an observation-last batch (thread CPU time, alternating)",
		Ref:    metricRef{"bench", "BenchmarkPaired/last-vs-naive", "speedup"},
		Min:    []metricRef{{"bench", "BenchmarkPaired/last-vs-naive-rows", "speedup"}}, Op: ">=", Want: 1},
	{Issue: 2, What: "after relayout (ObsFirst), the same as observation-first",
		Metric: "throughput / observation-first gather",
		Ref:    metricRef{"bench", "BenchmarkPaired/relaid-vs-first", "speedup"}, Op: ">=", Want: 0.95},
	{Issue: 2, What: "an (X, y) tuple batch within 5% of gathering X alone",
		Metric: "batches per second / X alone",
		Ref:    metricRef{"bench", "BenchmarkTuple", "x-X"}, Op: ">=", Want: 0.95},
	{Issue: 3, What: "shuffled epoch of the (X, y) tuple through eachobs.Batches",
		Metric: "throughput / copy() of the same bytes",
		Ref:    metricRef{"bench", "BenchmarkEpoch", "x-copy"}, Op: ">=", Want: 0.9},
	{Issue: 3, What: "no allocation per batch: allocations of a 469-batch epoch are the pass's setup",
		Metric: "allocs per epoch",
		Ref:    metricRef{"bench", "BenchmarkEpoch", "allocs/op"}, Op: "<=", Want: 8},
	{Issue: 3, What: "Prefetch(1) with a loop body that costs as much as the gather (a linear layer's forward pass), 2 cores",
		Metric: "epoch time / serial epoch time",
		Ref:    metricRef{"bench", "BenchmarkPrefetch/linear", "prefetch/serial"}, Op: "<=", Want: 0.6},
	{Issue: 3, What: "the same with a compute-bound body (arithmetic that reads one value of the batch)",
		Metric: "epoch time / serial epoch time",
		Ref:    metricRef{"bench", "BenchmarkPrefetch/compute", "prefetch/serial"}, Op: "<=", Want: 0.6},
	{Issue: 4, What: "ParallelMap, 4 workers, 10,000 items of 100 µs CPU, order kept",
		Metric: "serial time / parallel time",
		Ref:    metricRef{"stream", "BenchmarkParallelMapSpeedup", "speedup"}, Op: ">=", Want: 1.6},
	{Issue: 5, What: "opening a 1 GiB .npy memory-mapped",
		Metric: "ns per Open + Close",
		Ref:    metricRef{"npy", "BenchmarkOpen/1GiB", "ns/op"}, Op: "<", Want: 1e6},
	{Issue: 5, What: "opening does not grow with the file size",
		Metric: "Open of 64 GiB / Open of 1 MiB",
		Ref:    metricRef{"npy", "BenchmarkOpen/64GiB", "ns/op"}, Over: &metricRef{"npy", "BenchmarkOpen/1MiB", "ns/op"}, Op: "<=", Want: 2},
	{Issue: 5, What: "shuffled batch loop over a mapped .npy (pages cached) vs in memory",
		Metric: "throughput / in-memory loop",
		Ref:    metricRef{"bench", "BenchmarkMappedEpoch", "x-memory"}, Op: ">=", Want: 0.9},
	{Issue: 7, What: "shuffled 80/20 split of 10,000,000 observations",
		Metric: "time / rand.Perm of the same size",
		Ref:    metricRef{"subset", "BenchmarkShuffled/Split", "kit/perm"}, Op: "<=", Want: 2},
	{Issue: 7, What: "shuffled 10 folds (all train and validation views) of 10,000,000",
		Metric: "time / rand.Perm of the same size",
		Ref:    metricRef{"subset", "BenchmarkShuffled/KFolds", "kit/perm"}, Op: "<=", Want: 2},
	{Issue: 7, What: "a view of views holds O(len(idx)) memory, not O(n): 100 indices into 10M",
		Metric: "bytes allocated per build",
		Ref:    metricRef{"subset", "BenchmarkViewOfViews", "B/op"}, Op: "<=", Want: 4096},
}, issue11Targets()...)

// issue11Targets are the targets of issue 11: the gather ahead of NumPy and
// PyTorch and close to the C reference, the epoch ahead of NumPy and the
// DataLoader, a split batch on two cores, no allocation throughout.
func issue11Targets() []targetDef {
	var ds []targetDef
	for _, t := range gatherTypes {
		gather := "BenchmarkGather/" + t.name + "/first"
		first := "gather/" + t.name + "/first"
		what := "shuffled gather of " + t.name + ", observation-first, batches of 128, "
		ds = append(ds,
			targetDef{Issue: 11, What: what + "against NumPy X[idx]",
				Metric: "throughput / NumPy's", Peer: &peerRef{first, "NumPy X[idx]"}, Op: ">=", Want: 1.1},
			targetDef{Issue: 11, What: what + "against PyTorch index_select(out=), one thread",
				Metric: "throughput / PyTorch's", Peer: &peerRef{first, "PyTorch index_select(out=)"}, Op: ">=", Want: 1.1},
			targetDef{Issue: 11, What: what + "against the C reference over the same rows",
				Metric: "throughput / the faster of C memcpy and C memcpy prefetching two rows ahead (alternating)",
				Ref:    metricRef{"bench", gather, "x-" + bench.CMemcpy}, Min: []metricRef{{"bench", gather, "x-" + bench.CPrefetch}}, Op: ">=", Want: 0.9},
		)
	}
	ds = append(ds,
		targetDef{Issue: 11, What: "shuffled epoch of (X, y) through eachobs.Batches against NumPy's fancy-indexing epoch",
			Metric: "throughput / NumPy's", Peer: &peerRef{"epoch", "NumPy X[idx], y[idx]"}, Op: ">=", Want: 1.1},
		targetDef{Issue: 11, What: "the same against PyTorch DataLoader(TensorDataset)",
			Metric: "throughput / PyTorch's", Peer: &peerRef{"epoch", "PyTorch DataLoader(TensorDataset)"}, Op: ">=", Want: 10},
		targetDef{Issue: 11, What: "a shuffled batch of 1024 rows gathered by two goroutines (gather.GatherPart), 2 cores",
			Metric: "speedup over one goroutine (alternating)",
			Ref:    metricRef{"bench", "BenchmarkSplit/1024", "x-one"}, Op: ">=", Want: 1.6},
	)
	for _, t := range gatherTypes {
		last := "gather/" + t.name + "/last"
		what := "shuffled gather of " + t.name + ", observation-last (Julia's layout), "
		ds = append(ds,
			targetDef{Issue: 11, What: what + "against NumPy take(axis=1, out=)",
				Metric: "throughput / NumPy's", Peer: &peerRef{last, "NumPy take(axis=1, out=)"}, Op: ">=", Want: 1.5},
			targetDef{Issue: 11, What: what + "against PyTorch index_select(dim=1, out=)",
				Metric: "throughput / PyTorch's", Peer: &peerRef{last, "PyTorch index_select(dim=1, out=)"}, Op: ">=", Want: 1.5},
		)
	}
	// No allocation per batch: the gathers of every type in the two layouts
	// data comes in (float32's observation-first gather is issue 2's target;
	// after ObsFirst a gather is an observation-first one), and the split
	// batch.
	var allocs []string
	for _, l := range gatherLayouts {
		for _, t := range gatherTypes {
			if l.key != "relaid" && (l.key != "first" || t.name != "float32") {
				allocs = append(allocs, "BenchmarkGather/"+t.name+"/"+l.key)
			}
		}
	}
	for _, b := range append(allocs, "BenchmarkSplit/1024") {
		ds = append(ds, targetDef{Issue: 11, What: "no allocation per batch: " + strings.TrimPrefix(b, "Benchmark"),
			Metric: "allocs per batch", Ref: metricRef{"bench", b, "allocs/op"}, Op: "<=", Want: 0})
	}
	return ds
}

// contextDefs are figures that are not targets but explain them: the baselines
// a target's figure cannot beat on the machine, and what the wrappers cost. Op
// and Want are unused.
var contextDefs = append([]targetDef{
	{Issue: 2, What: "observation-first gather on the wall clock (the suite's figure; the target's is on the thread CPU clock)",
		Metric: "throughput / copy() of the same bytes",
		Ref:    metricRef{"bench", "BenchmarkGather/float32/first", "x-copy"}},
	{Issue: 2, What: "the one-time relayout (ObsFirst) of the 188 MB observation-last float32 array, allocation and page faults included",
		Metric: "thread CPU ms per relayout",
		Ref:    metricRef{"bench", "BenchmarkObsFirst/alloc", "cpu-ms/op"}},
	{Issue: 2, What: "its kernel (gather.Copy) into an array allocated once, against copy() of the same bytes, the floor of any one-pass relayout",
		Metric: "kernel time / copy() time (thread CPU time)",
		Ref:    metricRef{"bench", "BenchmarkObsFirst/kernel", "cpu-ms/op"}, Over: &metricRef{"bench", "BenchmarkObsFirst/copy", "cpu-ms/op"}},
	{Issue: 3, What: "the shuffled epoch against a naive loop copying the same shuffled rows one by one",
		Metric: "throughput / naive shuffled row copy",
		Ref:    metricRef{"bench", "BenchmarkEpoch", "x-rowcopy"}},
	{Issue: 3, What: "the prefetch pipeline without the kit: two goroutines handing 469 steps of 50 µs of work each way through a ring of two, with blocking receives",
		Metric: "pipeline time / serial time (0.5 is perfect overlap)",
		Ref:    metricRef{"bench", "BenchmarkHandoff", "block/serial"}},
	{Issue: 3, What: "the same pipeline with the polling receive of the one pipeline (internal/pipeline.Poll)",
		Metric: "pipeline time / serial time (0.5 is perfect overlap)",
		Ref:    metricRef{"bench", "BenchmarkHandoff", "handoff/serial"}},
	{Issue: 4, What: "a provider's epoch against the eachobs loop it wraps (MNIST-sized rows)",
		Metric: "time / eachobs time",
		Ref:    metricRef{"provider", "BenchmarkEpochRatio/mnist", "provider/eachobs"}},
	{Issue: 7, What: "batches through a shuffled split's view against copy()",
		Metric: "throughput / copy() of the same bytes",
		Ref:    metricRef{"bench", "BenchmarkSubset", "x-copy"}},
}, issue11Context()...)

// issue11Context explains issue 11's targets: the kernel against its own
// algorithm in C, and against C's plain memcpy; the speedup the memory system
// gives a split batch, measured with C in the same run.
func issue11Context() []targetDef {
	ds := []targetDef{
		{Issue: 11, What: "the same split of a batch of 1024 rows in C (two threads, memcpy with the kernel's prefetch cursor), against one thread: what the memory system gives two cores in the same run",
			Metric: "speedup over one thread (alternating)",
			Ref:    metricRef{"bench", "BenchmarkSplit/1024", "x-c-one"}, Over: &metricRef{"bench", "BenchmarkSplit/1024", "x-c-two"}},
	}
	for _, t := range gatherTypes {
		gather := "BenchmarkGather/" + t.name + "/first"
		ds = append(ds,
			targetDef{Issue: 11, What: "observation-first " + t.name + " gather against C's memcpy loop without prefetch",
				Metric: "throughput / C's", Ref: metricRef{"bench", gather, "x-" + bench.CMemcpy}},
			targetDef{Issue: 11, What: "the same against the kernel's own algorithm in C (memcpy, a cursor prefetching 8 KiB ahead)",
				Metric: "throughput / C's", Ref: metricRef{"bench", gather, "x-" + bench.CKernel}},
		)
	}
	return ds
}

// evaluate measures every target of defs from s, and the peer targets from
// the workloads ws (nil when the peers did not run). count is the -count of
// the run, python the interpreter of the peers, for the commands.
func evaluate(defs []targetDef, s Samples, ws []Workload, count int, python string) []Target {
	out := make([]Target, 0, len(defs))
	for _, d := range defs {
		t := Target{Issue: d.Issue, What: d.What, Metric: d.Metric}
		if d.Op != "" {
			t.Want = d.Op + " " + fmt.Sprint(d.Want)
		}
		var runs []float64
		switch {
		case d.Peer != nil:
			runs = peerRatios(ws, *d.Peer)
			t.Measured = newMeasure(d.Peer.Workload+" / "+d.Peer.Peer, runs)
			t.Command = peerCommand(*d.Peer, count, python)
		default:
			runs = s.runs(d.Ref, d.Over)
			for _, m := range d.Min {
				runs = minima(runs, s.Get(m.Pkg, m.Bench, m.Unit))
			}
			t.Measured = newMeasure(d.Ref.Bench, runs)
			t.Command = benchCommand(d.Ref, count)
			if d.Over != nil {
				t.Command = benchCommand(metricRef{d.Ref.Pkg, commonParent(d.Ref.Bench, d.Over.Bench), ""}, count)
			}
		}
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
		out = append(out, t)
	}
	return out
}

// peerRatios returns obskit's runs on the workload of p over the median of the
// peer p, or nothing when either was not measured.
func peerRatios(ws []Workload, p peerRef) []float64 {
	for _, w := range ws {
		if w.Key != p.Workload {
			continue
		}
		for _, pe := range w.Peers {
			if pe.Name != p.Peer || pe.Median <= 0 {
				continue
			}
			out := make([]float64, len(w.Obskit.Runs))
			for i, v := range w.Obskit.Runs {
				out[i] = v / pe.Median
			}
			return out
		}
	}
	return nil
}

// peerCommand returns the commands that measure a peer target alone: the Go
// benchmark of the workload, then the peer's workload in peers.py.
func peerCommand(p peerRef, count int, python string) string {
	g := command("go", goRun{}.args(count, false))
	for _, d := range workloadDefs(suiteSizes) {
		if d.Key == p.Workload {
			g = benchCommand(metricRef{d.Pkg, d.Bench, ""}, count)
		}
	}
	py := command(cmp.Or(python, "python3"), []string{"bench/peers.py", "--runs", fmt.Sprint(count), "--only", "^" + regexp.QuoteMeta(p.Workload) + "$"})
	return g + "; " + py
}

// minima returns the smaller of a[i] and b[i] for each run; it is empty unless
// both hold the same number of runs.
func minima(a, b []float64) []float64 {
	if len(a) != len(b) {
		return nil
	}
	out := make([]float64, len(a))
	for i := range a {
		out[i] = min(a[i], b[i])
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
		if run.runs(r.Pkg, r.Bench) {
			g.Benchtime = run.Benchtime
			break
		}
	}
	return command("go", g.args(count, false))
}
