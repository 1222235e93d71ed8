package main

import (
	"fmt"
	"regexp"
	"strings"
)

// The definitions of what the report shows: the workloads (throughputs of
// obskit, its limit and its peers), the targets of the issues and the figures
// that explain them, and the tables of the experiments, each read from the
// metrics of a benchmark: "<side>-MB/s" or "<side>-Mobs/s" for a side's
// throughput, "x-<side>" for that side's time over the kit's in the same
// passes, and the benchmark's own figures.

// regimes are the suite's regimes: where the array of a workload lives.
var regimes = []struct{ key, title string }{
	{"cache", "in cache (array at most half the last-level cache)"},
	{"dram", "in DRAM (array at least 4x the last-level cache)"},
}

var gatherTypes = []string{"float32", "float64", "uint8"}

// Workload is one workload of the report: the throughput of obskit, of its
// limit in the same benchmark, and of its peers (the C reference and the
// Python libraries), in Unit.
type Workload struct {
	Key       string   `json:"key"`
	Title     string   `json:"title"`
	Benchmark string   `json:"benchmark"`
	Unit      string   `json:"unit"` // GB/s or Mobs/s
	Obskit    Measure  `json:"obskit"`
	Limit     *Measure `json:"limit,omitempty"`
	Peers     []Peer   `json:"peers,omitempty"`
}

// Peer is the throughput of one peer on a workload.
type Peer struct {
	Measure
	// Kind is numpy, torch, sklearn or c (the C reference); limit in results
	// files whose peers measured Python's own copy.
	Kind string `json:"kind"`
	// Ratio is obskit's throughput over the peer's: the median of the
	// benchmark's x-<side>, the ratio pass by pass. Above 1 obskit is faster.
	Ratio float64 `json:"ratio"`
}

// A workloadDef says which benchmark and sides measure a workload.
type workloadDef struct {
	key, title, bench string
	unit              string    // the sides' unit, MB/s or Mobs/s
	kit, limit        [2]string // side, what it ran
	peers             []peerDef
}

type peerDef struct{ side, kind, name string }

var firstPeers = []peerDef{
	{"c-memcpy", "c", "C memcpy per row"}, {"c-prefetch", "c", "C memcpy, prefetch 2 rows ahead"},
	{"numpy", "numpy", "NumPy X[idx]"}, {"numpy-take", "numpy", "NumPy take(out=)"}, {"torch", "torch", "PyTorch index_select(out=)"},
}

// workloadDefs lists the workloads of the report.
func workloadDefs() []workloadDef {
	var ds []workloadDef
	cp := [2]string{"copy", "copy()"}
	for _, r := range regimes {
		for _, t := range gatherTypes {
			g := "bench BenchmarkGather/" + r.key + "/" + t
			title := "gather " + t + ", %s, " + r.key
			ds = append(ds,
				workloadDef{"gather/" + r.key + "/" + t + "/first", fmt.Sprintf(title, "observation-first"), g + "/first", "MB/s",
					[2]string{"kit", "Array.GetObsInto"}, cp, firstPeers},
				workloadDef{"gather/" + r.key + "/" + t + "/relaid", fmt.Sprintf(title, "after ObsFirst"), g + "/first", "MB/s",
					[2]string{"relaid", "Array.GetObsInto"}, cp, nil},
				workloadDef{"gather/" + r.key + "/" + t + "/last", fmt.Sprintf(title, "observation-last"), g + "/last", "MB/s",
					[2]string{"kit", "Array.GetObsInto"}, cp, []peerDef{{"numpy", "numpy", "NumPy X[:, idx]"},
						{"numpy-take", "numpy", "NumPy take(axis=1, out=)"}, {"torch", "torch", "PyTorch index_select(dim=1, out=)"}}})
		}
		ds = append(ds, workloadDef{"epoch/" + r.key, "shuffled epoch of (X, y), " + r.key, "bench BenchmarkEpoch/" + r.key, "MB/s",
			[2]string{"eachobs", "eachobs.Batches"}, cp, []peerDef{{"numpy", "numpy", "NumPy X[idx], y[idx]"},
				{"numpy-take", "numpy", "NumPy take(out=)"}, {"torch", "torch", "PyTorch DataLoader(TensorDataset)"}}})
	}
	return append(ds,
		workloadDef{"tuple", "gather (X, y) tuple", "bench BenchmarkTuple", "MB/s", [2]string{"tuple", "Tuple2.GetObsInto"}, cp,
			[]peerDef{{"numpy", "numpy", "NumPy X[idx], y[idx]"}, {"numpy-take", "numpy", "NumPy take(out=)"}, {"torch", "torch", "PyTorch index_select(out=)"}}},
		workloadDef{"subset", "gather from a shuffled 80% split", "bench BenchmarkSubset", "MB/s", [2]string{"kit", "View.GetObsInto"}, cp, nil},
		workloadDef{"mapped", "shuffled epoch of a mapped .npy", "bench BenchmarkMappedEpoch", "MB/s", [2]string{"mapped", "npy.Open + eachobs.Batches"}, cp,
			[]peerDef{{"numpy", "numpy", "NumPy memmap X[idx]"}}},
		workloadDef{"split", "shuffled 80/20 split of 10M", "bench BenchmarkSplits/split", "Mobs/s", [2]string{"kit", "subset.Split"},
			[2]string{"perm", "rand.Perm"}, []peerDef{{"sklearn", "sklearn", "scikit-learn train_test_split"}}},
		workloadDef{"kfold", "shuffled 10 folds of 10M", "bench BenchmarkSplits/kfold", "Mobs/s", [2]string{"kit", "subset.KFolds"},
			[2]string{"perm", "rand.Perm"}, []peerDef{{"sklearn", "sklearn", "scikit-learn KFold"}}},
	)
}

// workloads reads the workloads of workloadDefs from s, leaving out those not
// measured.
func workloads(s Samples) []Workload {
	var out []Workload
	for _, d := range workloadDefs() {
		rate := func(side string) []float64 {
			runs := s[d.bench][side+"-"+d.unit]
			if d.unit == "MB/s" {
				gb := make([]float64, len(runs))
				for i, v := range runs {
					gb[i] = v / 1e3
				}
				return gb
			}
			return runs
		}
		kit := rate(d.kit[0])
		if len(kit) == 0 {
			continue
		}
		w := Workload{Key: d.key, Title: d.title, Benchmark: d.bench, Unit: map[string]string{"MB/s": "GB/s"}[d.unit], Obskit: newMeasure(d.kit[1], kit)}
		if w.Unit == "" {
			w.Unit = d.unit
		}
		if lim := rate(d.limit[0]); len(lim) > 0 {
			m := newMeasure(d.limit[1], lim)
			w.Limit = &m
		}
		for _, p := range d.peers {
			if runs := rate(p.side); len(runs) > 0 {
				ratio := newMeasure("", s[d.bench]["x-"+p.side])
				w.Peers = append(w.Peers, Peer{newMeasure(p.name, runs), p.kind, ratio.Median})
			}
		}
		out = append(out, w)
	}
	return out
}

// Target is one speed target of the issues with the figure measured for it.
type Target struct {
	Issue    int     `json:"issue"`
	What     string  `json:"what"`
	Metric   string  `json:"metric"` // what was measured, in words
	Want     string  `json:"want"`   // the condition on the median, such as ">= 0.95"
	Measured Measure `json:"measured"`
	// Status is "met", "not met" or "not measured"; "measured" for a figure
	// of context, which has no Want.
	Status  string `json:"status"`
	Command string `json:"command"` // measures the figure on its own
}

// A targetDef is a target and the metric that checks it: ref's runs, or
// ref's over over's run by run. Op is ">=", "<=", "<", or "~" (within Want
// of 1); figures of context have none.
type targetDef struct {
	issue        int
	what, metric string
	ref, over    ref
	op           string
	want         float64
}

// A ref is a metric of a benchmark ("pkg Name").
type ref struct{ bench, unit string }

// targetDefs lists every speed target of issues 2 to 7 and 15 (which
// replaces issue 11's with the same targets in both regimes).
func targetDefs() []targetDef {
	g := func(r, t, layout string) string { return "bench BenchmarkGather/" + r + "/" + t + "/" + layout }
	ds := []targetDef{
		{2, "observation-first gather of float32 in DRAM, shuffled batches of 128", "throughput / copy() of the same bytes", ref{g("dram", "float32", "first"), "x-copy"}, ref{}, ">=", 0.95},
		{2, "observation-last gather at least as fast as a naive per-element loop, in either loop order", "throughput / the faster naive loop", ref{g("dram", "float32", "last"), "x-naive"}, ref{}, ">=", 1},
		{2, "after relayout (ObsFirst), the same as observation-first", "time / observation-first time", ref{g("dram", "float32", "first"), "x-relaid"}, ref{}, "<=", 1.05},
		{2, "an (X, y) tuple batch within 5% of gathering X alone", "batches per second / X alone", ref{"bench BenchmarkTuple", "x-X"}, ref{}, ">=", 0.95},
	}
	for _, r := range regimes {
		ds = append(ds, targetDef{3, "shuffled epoch of the (X, y) tuple through eachobs.Batches, " + r.key, "throughput / copy() of the same bytes", ref{"bench BenchmarkEpoch/" + r.key, "x-copy"}, ref{}, ">=", 0.9})
	}
	ds = append(ds,
		targetDef{3, "no allocation per batch: allocations of a 469-batch epoch are the pass's setup", "allocs per epoch", ref{"bench BenchmarkEpoch/dram", "kit-allocs/op"}, ref{}, "<=", 8},
		targetDef{3, "Prefetch(1) with a loop body that costs as much as the gather (a linear layer's forward pass), 2 cores", "epoch time / serial epoch time", ref{"bench BenchmarkPrefetch/linear", "prefetch/serial"}, ref{}, "<=", 0.6},
		targetDef{3, "the same with a compute-bound body (arithmetic that reads one value of the batch)", "epoch time / serial epoch time", ref{"bench BenchmarkPrefetch/compute", "prefetch/serial"}, ref{}, "<=", 0.6},
		targetDef{4, "ParallelMap, 4 workers, 10,000 items of 100 µs CPU, order kept", "serial time / parallel time", ref{"stream BenchmarkParallelMapSpeedup", "speedup"}, ref{}, ">=", 1.6},
		targetDef{5, "opening a 1 GiB .npy memory-mapped", "ns per Open", ref{"npy BenchmarkOpen/1GiB", "ns/op"}, ref{}, "<", 1e6},
		targetDef{5, "opening does not grow with the file size", "Open of 64 GiB / Open of 1 MiB", ref{"npy BenchmarkOpen/64GiB", "ns/op"}, ref{"npy BenchmarkOpen/1MiB", "ns/op"}, "<=", 2},
		targetDef{5, "shuffled batch loop over a mapped .npy (pages cached) vs in memory", "throughput / in-memory loop", ref{"bench BenchmarkMappedEpoch", "x-memory"}, ref{}, ">=", 0.9},
		targetDef{7, "shuffled 80/20 split of 10,000,000 observations", "rand.Perm time / kit time (0.5: twice rand.Perm's)", ref{"bench BenchmarkSplits/split", "x-perm"}, ref{}, ">=", 0.5},
		targetDef{7, "shuffled 10 folds (all train and validation views) of 10,000,000", "rand.Perm time / kit time", ref{"bench BenchmarkSplits/kfold", "x-perm"}, ref{}, ">=", 0.5},
		targetDef{7, "a view of views holds O(len(idx)) memory, not O(n): 100 indices into 10M", "bytes allocated per build", ref{"subset BenchmarkViewOfViews", "B/op"}, ref{}, "<=", 4096},
	)
	for _, r := range regimes {
		ds = append(ds, targetDef{15, "the suite's float32 gather agrees with a plain loop over the public API, " + r.key, "suite's throughput / plain loop's",
			ref{g(r.key, "float32", "first"), "kit-MB/s"}, ref{"bench BenchmarkPlain/" + r.key, "kit-MB/s"}, "~", 0.1})
		for _, t := range gatherTypes {
			what := "shuffled gather of " + t + ", observation-first, batches of 128, " + r.key + ", against "
			ds = append(ds,
				targetDef{15, what + "NumPy X[idx]", "throughput / NumPy's (alternating passes)", ref{g(r.key, t, "first"), "x-numpy"}, ref{}, ">=", 1.1},
				targetDef{15, what + "PyTorch index_select(out=), one thread", "throughput / PyTorch's", ref{g(r.key, t, "first"), "x-torch"}, ref{}, ">=", 1.1},
				targetDef{15, what + "the faster of C memcpy and C memcpy prefetching two rows ahead", "throughput / the faster C loop's", ref{g(r.key, t, "first"), "x-c"}, ref{}, ">=", 0.9})
		}
		for _, t := range gatherTypes {
			what := "shuffled gather of " + t + ", observation-last (Julia's layout), " + r.key + ", against "
			ds = append(ds,
				targetDef{15, what + "NumPy take(axis=1, out=)", "throughput / NumPy's", ref{g(r.key, t, "last"), "x-numpy-take"}, ref{}, ">=", 1.5},
				targetDef{15, what + "PyTorch index_select(dim=1, out=)", "throughput / PyTorch's", ref{g(r.key, t, "last"), "x-torch"}, ref{}, ">=", 1.5})
		}
		ds = append(ds,
			targetDef{15, "shuffled epoch of (X, y) through eachobs.Batches, " + r.key + ", against NumPy's fancy-indexing epoch", "throughput / NumPy's", ref{"bench BenchmarkEpoch/" + r.key, "x-numpy"}, ref{}, ">=", 1.1},
			targetDef{15, "the same against PyTorch DataLoader(TensorDataset)", "throughput / PyTorch's", ref{"bench BenchmarkEpoch/" + r.key, "x-torch"}, ref{}, ">=", 10})
	}
	ds = append(ds, targetDef{15, "a shuffled batch of 1024 rows gathered by two goroutines (gather.GatherPart), against the same split in C", "the kit's speedup over one goroutine / C's over one thread", ref{"bench BenchmarkSplit/1024", "x-c"}, ref{}, ">=", 0.95})
	for _, r := range regimes {
		for _, t := range gatherTypes {
			for _, l := range []string{"first", "last"} {
				ds = append(ds, targetDef{15, "no allocation per batch: " + strings.Join([]string{"Gather", r.key, t, l}, "/"), "allocs per pass", ref{g(r.key, t, l), "kit-allocs/op"}, ref{}, "<=", 0})
			}
		}
	}
	ds = append(ds, targetDef{15, "no allocation per batch: Split/1024", "allocs per pass", ref{"bench BenchmarkSplit/1024", "kit-allocs/op"}, ref{}, "<=", 0})
	return append(ds, moreTargets...)
}

// moreTargets and moreContext are the targets and figures of context of other
// issues' files (targets_streams.go), appended when the program starts.
var moreTargets, moreContext []targetDef

// contextDefs are figures that explain the targets.
func contextDefs() []targetDef {
	var ds []targetDef
	for _, r := range regimes {
		ds = append(ds,
			targetDef{issue: 15, what: "observation-first float32 gather against C's memcpy loop without prefetch, " + r.key, metric: "throughput / C's", ref: ref{"bench BenchmarkGather/" + r.key + "/float32/first", "x-c-memcpy"}},
			targetDef{issue: 3, what: "the shuffled epoch against a naive loop copying the same shuffled rows one by one, " + r.key, metric: "throughput / the naive loop's", ref: ref{"bench BenchmarkEpoch/" + r.key, "x-rowcopy"}})
	}
	return append(append(ds,
		targetDef{issue: 2, what: "the one-time relayout (ObsFirst) of the 188 MB observation-last float32 array, allocation and page faults included, against copy() of the same bytes", metric: "relayout time / copy() time", ref: ref{"arraycontainer BenchmarkObsFirst/alloc", "ns/op"}, over: ref{"arraycontainer BenchmarkObsFirst/copy", "ns/op"}},
		targetDef{issue: 3, what: "Prefetch(1) with the linear layer: the body's measured cost against the gather's", metric: "body time / gather time", ref: ref{"bench BenchmarkPrefetch/linear", "body/gather"}},
		targetDef{issue: 3, what: "the prefetch pipeline without the kit: two goroutines handing 469 steps of 50 µs each way, with blocking receives", metric: "pipeline time / serial time (0.5 is perfect overlap)", ref: ref{"internal/pipeline BenchmarkHandoff", "block/serial"}},
		targetDef{issue: 3, what: "the same pipeline with the polling receive of internal/pipeline", metric: "pipeline time / serial time", ref: ref{"internal/pipeline BenchmarkHandoff", "handoff/serial"}},
		targetDef{issue: 4, what: "a provider's epoch against the eachobs loop it wraps (MNIST-sized rows)", metric: "time / eachobs time", ref: ref{"provider BenchmarkEpochRatio/mnist", "provider/eachobs"}},
		targetDef{issue: 7, what: "batches through a shuffled split's view against copy()", metric: "throughput / copy() of the same bytes", ref: ref{"bench BenchmarkSubset", "x-copy"}},
		targetDef{issue: 15, what: "a batch of 1024 rows split across two goroutines", metric: "speedup over one goroutine", ref: ref{"bench BenchmarkSplit/1024", "x-one"}},
		targetDef{issue: 15, what: "the same split in C (two threads, memcpy with the kernel's prefetch cursor): what the memory system gives two cores in the same run", metric: "speedup over one thread", ref: ref{"bench BenchmarkSplit/1024", "x-c-one"}, over: ref{"bench BenchmarkSplit/1024", "x-c-two"}},
	), moreContext...)
}

// evaluate measures every target of defs from s; count is the -count of the
// run, env the environment its peers need (for the commands).
func evaluate(defs []targetDef, s Samples, count int, env string) []Target {
	out := make([]Target, 0, len(defs))
	for _, d := range defs {
		t := Target{Issue: d.issue, What: d.what, Metric: d.metric}
		pkg, name, _ := strings.Cut(d.ref.bench, " ")
		runs := s[d.ref.bench][d.ref.unit]
		t.Command = benchCommand(pkg, name, count)
		if d.over.bench != "" {
			runs = ratios(runs, s[d.over.bench][d.over.unit])
			if d.over.bench != d.ref.bench {
				opkg, oname, _ := strings.Cut(d.over.bench, " ")
				t.Command += "; " + benchCommand(opkg, oname, count)
			}
		}
		if env != "" && peerMetric.MatchString(d.ref.unit) {
			t.Command = env + " " + t.Command
		}
		t.Measured = newMeasure(name, runs)
		switch m := t.Measured.Median; {
		case d.op == "~":
			t.Want = fmt.Sprintf("1 ± %v", d.want)
			t.Status = map[bool]string{true: "met", false: "not met"}[m >= 1-d.want && m <= 1+d.want]
		case d.op != "":
			t.Want = d.op + " " + fmt.Sprint(d.want)
			t.Status = map[bool]string{true: "met", false: "not met"}[d.op == ">=" && m >= d.want || d.op == "<=" && m <= d.want || d.op == "<" && m < d.want]
		default:
			t.Status = "measured"
		}
		if len(runs) == 0 {
			t.Status = "not measured"
		}
		out = append(out, t)
	}
	return out
}

// peerMetric matches the metrics of the Python peers' sides.
var peerMetric = regexp.MustCompile(`numpy|torch|sklearn`)

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
