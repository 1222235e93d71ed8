package main

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// fakeSamples is what go test would report for two workloads: a gather whose
// kit moves 5000 MB/s and copy() 10000 MB/s, and a split whose kit takes 0.5 s
// and rand.Perm 0.25 s, two runs each.
func fakeSamples() Samples {
	return Samples{
		"bench BenchmarkGather/float32/first": {"kit-MB/s": {5000, 6000}, "copy-MB/s": {10000, 10000}, "allocs/op": {0, 0}},
		"subset BenchmarkShuffled/Split":      {"kit-ns": {5e8, 5e8}, "perm-ns": {2.5e8, 2.5e8}, "kit/perm": {2, 2}},
	}
}

var fakeDefs = []workloadDef{
	{Key: "gather/float32/first", Title: "gather", Pkg: "bench", Bench: "BenchmarkGather/float32/first",
		Kit: "kit-MB/s", KitName: "kit", Limit: "copy-MB/s", LimitName: "copy()", Per: "bytes", Amount: 401408},
	{Key: "split", Title: "split", Pkg: "subset", Bench: "BenchmarkShuffled/Split",
		Kit: "kit-ns", KitName: "subset.Split", Limit: "perm-ns", LimitName: "rand.Perm", Per: "obs", Amount: 10_000_000},
}

func fakePeers() *peersOutput {
	return &peersOutput{
		Versions: map[string]string{"python": "3.11.2", "numpy": "1.24.2"},
		Skipped:  []Skip{{"PyTorch", "not importable"}},
		Results: []peerResult{
			// 401408 bytes in 160.5632 µs: 2.5 GB/s.
			{Workload: "gather/float32/first", Peer: "NumPy X[idx]", Kind: "numpy", Amount: 401408, Per: "bytes", Seconds: []float64{160.5632e-6, 160.5632e-6, 200e-6}},
			// 10M observations in 1 s: 10 Mobs/s.
			{Workload: "split", Peer: "scikit-learn train_test_split", Kind: "sklearn", Amount: 10_000_000, Per: "obs", Seconds: []float64{1, 1}},
		},
	}
}

func TestAssemble(t *testing.T) {
	ws, err := assemble(fakeDefs, fakeSamples(), fakePeers())
	if err != nil {
		t.Fatal(err)
	}
	lim1 := newMeasure("copy()", []float64{10, 10})
	lim2 := newMeasure("rand.Perm", []float64{40, 40})
	want := []Workload{
		{Key: "gather/float32/first", Title: "gather", Benchmark: "bench BenchmarkGather/float32/first", Unit: "GB/s", Amount: 401408,
			Obskit: newMeasure("kit", []float64{5, 6}), Limit: &lim1,
			Peers: []Peer{{Measure: newMeasure("NumPy X[idx]", []float64{2.5, 2.5, 2.00704}), Kind: "numpy", Ratio: 5.5 / 2.5}}},
		{Key: "split", Title: "split", Benchmark: "subset BenchmarkShuffled/Split", Unit: "Mobs/s", Amount: 10_000_000,
			Obskit: newMeasure("subset.Split", []float64{20, 20}), Limit: &lim2,
			Peers: []Peer{{Measure: newMeasure("scikit-learn train_test_split", []float64{10, 10}), Kind: "sklearn", Ratio: 2}}},
	}
	if diff := cmp.Diff(want, ws, cmpopts.EquateApprox(1e-9, 0)); diff != "" {
		t.Errorf("assemble() mismatch (-want +got):\n%s", diff)
	}
	if got := ws[0].vsLimit().Median; math.Abs(got-0.55) > 1e-9 {
		t.Errorf("vsLimit = %v, want 0.55 (median of 0.5 and 0.6)", got)
	}
}

func TestAssembleWithoutPeersOrGo(t *testing.T) {
	ws, err := assemble(fakeDefs, Samples{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if len(w.Obskit.Runs) != 0 || w.Limit != nil || len(w.Peers) != 0 {
			t.Errorf("%s: got %+v from no measurements", w.Key, w)
		}
	}
	// Peers without the Go side: throughputs, but no ratio.
	ws, err = assemble(fakeDefs, Samples{}, fakePeers())
	if err != nil {
		t.Fatal(err)
	}
	if p := ws[0].Peers[0]; p.Ratio != 0 || p.Median != 2.5 {
		t.Errorf("peer without a Go side: ratio %v median %v, want 0 and 2.5", p.Ratio, p.Median)
	}
}

func TestAssembleErrors(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*peersOutput)
		match string
	}{
		{"size mismatch", func(p *peersOutput) { p.Results[0].Amount = 3 }, "sizes differ"},
		{"unit mismatch", func(p *peersOutput) { p.Results[1].Per = "bytes" }, "sizes differ"},
		{"unknown workload", func(p *peersOutput) { p.Results[0].Workload = "nope" }, `workload "nope"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := fakePeers()
			tc.edit(p)
			_, err := assemble(fakeDefs, fakeSamples(), p)
			if err == nil || !strings.Contains(err.Error(), tc.match) {
				t.Errorf("assemble() error = %v, want one containing %q", err, tc.match)
			}
		})
	}
	bad := fakeSamples()
	defs := []workloadDef{fakeDefs[0]}
	defs[0].Kit = "allocs/op"
	if _, err := assemble(defs, bad, nil); err == nil {
		t.Error("assemble() of a metric that is no throughput: no error")
	}
}

func TestWorkloadDefs(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range workloadDefs(suiteSizes) {
		if seen[d.Key] {
			t.Errorf("workload %s listed twice", d.Key)
		}
		seen[d.Key] = true
		if d.Amount <= 0 || (d.Per != "bytes" && d.Per != "obs") {
			t.Errorf("workload %s: amount %d per %q", d.Key, d.Amount, d.Per)
		}
		if !hasRun(d.Pkg, d.Bench) {
			t.Errorf("workload %s: benchmark %s %s is in no run of goRuns", d.Key, d.Pkg, d.Bench)
		}
		units := []string{d.Kit, d.Limit}
		for _, c := range d.C {
			units = append(units, c.Side+"-MB/s", "x-"+c.Side)
		}
		for _, u := range units {
			if !reports(t, d.Pkg, u) {
				t.Errorf("workload %s: no benchmark of %s reports %q", d.Key, d.Pkg, u)
			}
		}
	}
	for _, k := range []string{"gather/uint8/last", "tuple", "epoch", "mapped", "split", "kfold"} {
		if !seen[k] {
			t.Errorf("workload %s missing", k)
		}
	}
}

// hasRun reports whether some run of goRuns runs the benchmark.
func hasRun(pkg, bench string) bool {
	for _, r := range goRuns {
		if r.runs(pkg, bench) {
			return true
		}
	}
	return false
}

func TestMeasure(t *testing.T) {
	tests := []struct {
		runs           []float64
		median, lo, hi float64
		spreadText     string
	}{
		{nil, 0, 0, 0, "-"},
		{[]float64{3}, 3, 3, 3, "3.00"},
		{[]float64{4, 1, 3}, 3, 1, 4, "3.00 (1.00 - 4.00)"},
		{[]float64{4, 1, 3, 2}, 2.5, 1, 4, "2.50 (1.00 - 4.00)"},
		{[]float64{0.000123, 12345, 20000}, 12345, 0.000123, 20000, "12345 (0.000123 - 20000)"},
	}
	for _, tc := range tests {
		m := newMeasure("x", tc.runs)
		if m.Median != tc.median || m.Min != tc.lo || m.Max != tc.hi {
			t.Errorf("newMeasure(%v) = %+v", tc.runs, m)
		}
		if got := spread(m); got != tc.spreadText {
			t.Errorf("spread(%v) = %q, want %q", tc.runs, got, tc.spreadText)
		}
	}
}

// The C reference's sides of a gather appear as peers of kind c, with the
// benchmark's own run-by-run ratios.
func TestAssembleCReference(t *testing.T) {
	defs := []workloadDef{fakeDefs[0]}
	defs[0].C = cRefs[:1]
	s := fakeSamples()
	s["bench BenchmarkGather/float32/first"]["c-memcpy-MB/s"] = []float64{2500, 3000}
	s["bench BenchmarkGather/float32/first"]["x-c-memcpy"] = []float64{2, 2.2}
	ws, err := assemble(defs, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Peer{{Measure: newMeasure("C memcpy per row", []float64{2.5, 3}), Kind: "c", Ratio: 2.1}}
	if diff := cmp.Diff(want, ws[0].Peers, cmpopts.EquateApprox(1e-9, 0)); diff != "" {
		t.Errorf("C reference peers mismatch (-want +got):\n%s", diff)
	}
}
