package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/obskit/obskit/bench"
)

// Workload is one workload of the comparison: the throughput of obskit, of the
// limit it is held against in the same Go run (copy() of the same bytes, or
// rand.Perm of the same size), and of the peers measured by peers.py, all in
// Unit.
type Workload struct {
	Key   string `json:"key"` // shared with peers.py
	Title string `json:"title"`
	// Benchmark is the Go benchmark that measured obskit and the limit.
	Benchmark string `json:"benchmark"`
	// Unit is GB/s for workloads that move bytes, Mobs/s (millions of
	// observations per second) for splits.
	Unit string `json:"unit"`
	// Amount is the bytes or observations of one operation (a batch, an epoch,
	// a split).
	Amount int64    `json:"amount"`
	Obskit Measure  `json:"obskit"`
	Limit  *Measure `json:"limit,omitempty"`
	Peers  []Peer   `json:"peers,omitempty"`
}

// Peer is the throughput of one peer on a workload.
type Peer struct {
	Measure
	// Kind is numpy, torch or sklearn, or limit for Python's own copy or
	// permutation of the same size (a check that the Python process saw the
	// same machine), or c for a side of the C reference, measured in the Go
	// benchmark beside obskit.
	Kind string `json:"kind"`
	// Ratio is obskit's median throughput divided by the peer's: above 1
	// obskit is faster. It is 0 when either side was not measured. For the C
	// reference it is the median of the run-by-run ratios of the benchmark,
	// whose sides alternate.
	Ratio float64 `json:"ratio"`
}

// A workloadDef says where the Go side of a workload is measured.
type workloadDef struct {
	Key, Title string
	Pkg, Bench string
	Kit        string // the benchmark's metric for obskit: "<side>-MB/s" or "<side>-ns"
	KitName    string // what obskit ran
	Limit      string // the metric of the limit
	LimitName  string
	Per        string // "bytes" or "obs"
	Amount     int64
	// C are the sides of the C reference in the same benchmark, shown as
	// peers of kind "c" whose ratio is the benchmark's own x-<side>.
	C []cSide
}

// A cSide is a side of the C reference: its metric's side name ("c-memcpy")
// and what it ran.
type cSide struct{ Side, Name string }

// cRefs are the C reference's sides of the observation-first gathers.
var cRefs = []cSide{
	{bench.CMemcpy, "C memcpy per row"},
	{bench.CPrefetch, "C memcpy, prefetch 2 rows ahead"},
	{bench.CKernel, "C memcpy, the kernel's 8 KiB prefetch"},
}

// gatherTypes are the element types of the gather workloads (BenchmarkGather/<type>)
// with their sizes in bytes.
var gatherTypes = []struct {
	name string
	size int64
}{{"float32", 4}, {"float64", 8}, {"uint8", 1}}

// gatherLayouts are the layouts of the gather workloads
// (BenchmarkGather/<type>/<key>).
var gatherLayouts = []struct{ key, title string }{
	{"first", "observation-first"}, {"last", "observation-last"}, {"relaid", "after ObsFirst"},
}

// sizes are the sizes of the workloads, which the Go benchmarks and peers.py
// share.
type sizes struct {
	Obs, Width, Batch, SplitObs, Folds int
	TestFraction                       float64
}

// suiteSizes are the sizes of the suite, those of package bench.
var suiteSizes = sizes{bench.Obs, bench.Width, bench.BatchSize, bench.SplitObs, bench.Folds, bench.TestFraction}

// workloadDefs lists the workloads of the comparison, with the amounts of one
// operation at sizes z (suiteSizes for the suite).
func workloadDefs(z sizes) []workloadDef {
	var defs []workloadDef
	batchX := int64(z.Batch * z.Width)
	for _, t := range gatherTypes {
		for _, l := range gatherLayouts {
			d := workloadDef{
				Key: "gather/" + t.name + "/" + l.key, Title: "gather " + t.name + ", " + l.title,
				Pkg: "bench", Bench: "BenchmarkGather/" + t.name + "/" + l.key,
				Kit: "kit-MB/s", KitName: "Array.GetObsInto", Limit: "copy-MB/s", LimitName: "copy()",
				Per: "bytes", Amount: batchX * t.size,
			}
			if l.key == "first" {
				d.C = cRefs
			}
			defs = append(defs, d)
		}
	}
	return append(defs,
		workloadDef{
			Key: "tuple", Title: "gather (X, y) tuple",
			Pkg: "bench", Bench: "BenchmarkTuple",
			Kit: "tuple-MB/s", KitName: "Tuple2.GetObsInto", Limit: "copy-MB/s", LimitName: "copy()",
			Per: "bytes", Amount: batchX*4 + int64(z.Batch)*8,
		},
		workloadDef{
			Key: "subset", Title: "gather from a shuffled 80% split",
			Pkg: "bench", Bench: "BenchmarkSubset",
			Kit: "kit-MB/s", KitName: "View.GetObsInto", Limit: "copy-MB/s", LimitName: "copy()",
			Per: "bytes", Amount: batchX * 4,
		},
		workloadDef{
			Key: "epoch", Title: "shuffled epoch of (X, y)",
			Pkg: "bench", Bench: "BenchmarkEpoch",
			Kit: "eachobs-MB/s", KitName: "eachobs.Batches", Limit: "copy-MB/s", LimitName: "copy()",
			Per: "bytes", Amount: int64(z.Obs) * int64(z.Width*4+8),
		},
		workloadDef{
			Key: "mapped", Title: "shuffled epoch of a mapped .npy",
			Pkg: "bench", Bench: "BenchmarkMappedEpoch",
			Kit: "mapped-MB/s", KitName: "npy.Open + eachobs.Batches", Limit: "copy-MB/s", LimitName: "copy()",
			Per: "bytes", Amount: int64(z.Obs) * int64(z.Width) * 4,
		},
		workloadDef{
			Key: "split", Title: "shuffled 80/20 split of 10M",
			Pkg: "subset", Bench: "BenchmarkShuffled/Split",
			Kit: "kit-ns", KitName: "subset.Split", Limit: "perm-ns", LimitName: "rand.Perm",
			Per: "obs", Amount: int64(z.SplitObs),
		},
		workloadDef{
			Key: "kfold", Title: "shuffled 10 folds of 10M",
			Pkg: "subset", Bench: "BenchmarkShuffled/KFolds",
			Kit: "kit-ns", KitName: "subset.KFolds", Limit: "perm-ns", LimitName: "rand.Perm",
			Per: "obs", Amount: int64(z.SplitObs),
		},
	)
}

// unitOf names the throughput unit of amounts per.
func unitOf(per string) string {
	if per == "bytes" {
		return "GB/s"
	}
	return "Mobs/s"
}

// rate converts one operation's time to a throughput in unitOf(per).
func rate(amount int64, seconds float64, per string) float64 {
	if seconds <= 0 {
		return 0
	}
	if per == "bytes" {
		return float64(amount) / seconds / 1e9
	}
	return float64(amount) / seconds / 1e6
}

// goRate converts the values of a Go benchmark metric to throughputs.
func goRate(unit string, values []float64, per string, amount int64) ([]float64, error) {
	out := make([]float64, len(values))
	for i, v := range values {
		switch {
		case strings.HasSuffix(unit, "MB/s") && per == "bytes":
			out[i] = v / 1e3
		case strings.HasSuffix(unit, "-ns") || unit == "ns/op":
			out[i] = rate(amount, v*1e-9, per)
		default:
			return nil, fmt.Errorf("metric %q is not a throughput or time of %s", unit, per)
		}
	}
	return out, nil
}

// assemble builds the workloads of defs from the Go samples and the peers'
// output (nil when the peers did not run). It fails when peers.py measured an
// operation of another size than the Go side: the two would not be comparable.
func assemble(defs []workloadDef, s Samples, py *peersOutput) ([]Workload, error) {
	var out []Workload
	for _, d := range defs {
		w := Workload{Key: d.Key, Title: d.Title, Benchmark: d.Pkg + " " + d.Bench, Unit: unitOf(d.Per), Amount: d.Amount}
		kit, err := goRate(d.Kit, s.Get(d.Pkg, d.Bench, d.Kit), d.Per, d.Amount)
		if err != nil {
			return nil, fmt.Errorf("workload %s: %w", d.Key, err)
		}
		w.Obskit = newMeasure(d.KitName, kit)
		lim, err := goRate(d.Limit, s.Get(d.Pkg, d.Bench, d.Limit), d.Per, d.Amount)
		if err != nil {
			return nil, fmt.Errorf("workload %s: %w", d.Key, err)
		}
		if len(lim) > 0 {
			m := newMeasure(d.LimitName, lim)
			w.Limit = &m
		}
		for _, c := range d.C {
			runs, err := goRate(c.Side+"-MB/s", s.Get(d.Pkg, d.Bench, c.Side+"-MB/s"), d.Per, d.Amount)
			if err != nil || len(runs) == 0 {
				continue
			}
			w.Peers = append(w.Peers, Peer{Measure: newMeasure(c.Name, runs), Kind: "c",
				Ratio: newMeasure("", s.Get(d.Pkg, d.Bench, "x-"+c.Side)).Median})
		}
		if py != nil {
			for _, r := range py.Results {
				if r.Workload != d.Key {
					continue
				}
				if r.Amount != d.Amount || r.Per != d.Per {
					return nil, fmt.Errorf("workload %s: peers.py measured %d %s per operation for %q, the Go side %d %s: the sizes differ", d.Key, r.Amount, r.Per, r.Peer, d.Amount, d.Per)
				}
				runs := make([]float64, len(r.Seconds))
				for i, sec := range r.Seconds {
					runs[i] = rate(r.Amount, sec, r.Per)
				}
				p := Peer{Measure: newMeasure(r.Peer, runs), Kind: r.Kind}
				if len(kit) > 0 && p.Median > 0 {
					p.Ratio = w.Obskit.Median / p.Median
				}
				w.Peers = append(w.Peers, p)
			}
		}
		out = append(out, w)
	}
	if py != nil {
		for _, r := range py.Results {
			if !slices.ContainsFunc(defs, func(d workloadDef) bool { return d.Key == r.Workload }) {
				return nil, fmt.Errorf("peers.py measured workload %q, which the Go side does not have", r.Workload)
			}
		}
	}
	return out, nil
}
