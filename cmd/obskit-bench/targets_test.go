package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestEvaluate(t *testing.T) {
	defs := []targetDef{
		{Issue: 2, What: "fast", Metric: "ratio", Ref: metricRef{"bench", "BenchmarkA", "x-copy"}, Op: ">=", Want: 0.95},
		{Issue: 2, What: "slow", Metric: "ratio", Ref: metricRef{"bench", "BenchmarkB", "x-copy"}, Op: ">=", Want: 0.95},
		{Issue: 3, What: "absent", Metric: "ratio", Ref: metricRef{"bench", "BenchmarkC", "x-copy"}, Op: ">=", Want: 0.95},
		{Issue: 5, What: "open", Metric: "ns", Ref: metricRef{"npy", "BenchmarkOpen/1GiB", "ns/op"}, Op: "<", Want: 1e6},
		{Issue: 5, What: "growth", Metric: "ratio", Ref: metricRef{"npy", "BenchmarkOpen/64GiB", "ns/op"}, Over: &metricRef{"npy", "BenchmarkOpen/1MiB", "ns/op"}, Op: "<=", Want: 2},
		{Issue: 7, What: "boundary", Metric: "time ratio", Ref: metricRef{"subset", "BenchmarkShuffled/Split", "kit/perm"}, Op: "<=", Want: 2},
		{Issue: 11, What: "fastest", Metric: "ratio", Ref: metricRef{"bench", "BenchmarkA", "x-copy"}, Min: []metricRef{{"bench", "BenchmarkA", "x-c"}}, Op: ">=", Want: 0.9},
		{Issue: 11, What: "peer", Metric: "ratio", Peer: &peerRef{"gather/float32/first", "NumPy X[idx]"}, Op: ">=", Want: 2},
		{Issue: 11, What: "absent peer", Metric: "ratio", Peer: &peerRef{"gather/float32/first", "PyTorch index_select(out=)"}, Op: ">=", Want: 1},
	}
	s := Samples{
		"bench BenchmarkA":               {"x-copy": {0.96, 0.99, 0.90}, "x-c": {1, 0.5, 1}},
		"bench BenchmarkB":               {"x-copy": {0.5, 0.96}},
		"npy BenchmarkOpen/1GiB":         {"ns/op": {25000, 30000, 27000}},
		"npy BenchmarkOpen/1MiB":         {"ns/op": {20000, 10000, 27000}},
		"npy BenchmarkOpen/64GiB":        {"ns/op": {20000, 40000, 27000}},
		"subset BenchmarkShuffled/Split": {"kit/perm": {2, 2, 2}},
	}
	ws, err := assemble(fakeDefs, fakeSamples(), fakePeers())
	if err != nil {
		t.Fatal(err)
	}
	got := evaluate(defs, s, ws, 3, "/usr/bin/python3")
	want := []struct {
		status string
		median float64
	}{{"met", 0.96}, {"not met", 0.73}, {"not measured", 0}, {"met", 27000}, {"met", 1}, {"met", 2},
		{"met", 0.9}, {"met", 5.5 / 2.5}, {"not measured", 0}}
	for i, w := range want {
		if got[i].Status != w.status || !cmp.Equal(got[i].Measured.Median, w.median, cmpopts.EquateApprox(1e-9, 0)) {
			t.Errorf("target %q: status %q median %v, want %q %v", got[i].What, got[i].Status, got[i].Measured.Median, w.status, w.median)
		}
	}
	if diff := cmp.Diff([]float64{1, 4, 1}, got[4].Measured.Runs); diff != "" {
		t.Errorf("ratio target runs mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]float64{2, 2.4}, got[7].Measured.Runs, cmpopts.EquateApprox(1e-9, 0)); diff != "" {
		t.Errorf("peer target runs (obskit's runs over the peer's median) mismatch (-want +got):\n%s", diff)
	}
	wantCmd := "go test -C bench -run '^$' -bench '^BenchmarkGather$/^float32$/^first$' -count 3 -benchmem -timeout 60m ./; /usr/bin/python3 bench/peers.py --runs 3 --only '^gather/float32/first$'"
	if got[7].Command != wantCmd {
		t.Errorf("command of a peer target:\n got %s\nwant %s", got[7].Command, wantCmd)
	}
	if got[0].Want != ">= 0.95" || got[3].Want != "< 1e+06" {
		t.Errorf("Want = %q, %q", got[0].Want, got[3].Want)
	}
	wantCmd = "go test -run '^$' -bench '^BenchmarkShuffled$/^Split$' -benchtime 3x -count 3 -benchmem -timeout 60m ./subset/"
	if got[5].Command != wantCmd {
		t.Errorf("command:\n got %s\nwant %s", got[5].Command, wantCmd)
	}
	wantCmd = "go test -run '^$' -bench '^BenchmarkOpen$' -count 3 -benchmem -timeout 60m ./npy/"
	if got[4].Command != wantCmd {
		t.Errorf("command of a ratio of two benchmarks:\n got %s\nwant %s", got[4].Command, wantCmd)
	}
}

func TestEvaluateContext(t *testing.T) {
	defs := []targetDef{{Issue: 3, What: "floor", Metric: "ratio", Ref: metricRef{"bench", "BenchmarkA", "x-copy"}}}
	got := evaluate(defs, Samples{"bench BenchmarkA": {"x-copy": {0.5, 0.7, 0.6}}}, nil, 3, "")
	if got[0].Status != "measured" || got[0].Want != "" || got[0].Measured.Median != 0.6 {
		t.Errorf("context figure = %+v", got[0])
	}
}

// Every target and figure of context names a benchmark that some run of the
// suite runs.
func TestTargetDefsAreMeasured(t *testing.T) {
	keys := map[string]bool{}
	for _, w := range workloadDefs(suiteSizes) {
		keys[w.Key] = true
	}
	for _, d := range append(targetDefs[:len(targetDefs):len(targetDefs)], contextDefs...) {
		if d.Peer != nil {
			if !keys[d.Peer.Workload] {
				t.Errorf("target %q: workload %s is not in the comparison", d.What, d.Peer.Workload)
			}
			continue
		}
		refs := []*metricRef{&d.Ref, d.Over}
		for i := range d.Min {
			refs = append(refs, &d.Min[i])
		}
		for _, r := range refs {
			if r != nil && !hasRun(r.Pkg, r.Bench) {
				t.Errorf("target %q: %s %s is in no run of goRuns", d.What, r.Pkg, r.Bench)
			}
			if r != nil && !reports(t, r.Pkg, r.Unit) {
				t.Errorf("target %q: no benchmark of %s reports %q", d.What, r.Pkg, r.Unit)
			}
		}
	}
}

// reportedUnits caches the units the benchmarks of each package directory
// report, as reports reads them.
var reportedUnits = map[string]func(unit string) bool{}

// reports reports whether some benchmark of the package directory pkg
// reports unit: one of go test's own (ns/op, MB/s, B/op, allocs/op), a literal
// unit of a b.ReportMetric call of the package's files, or a unit such a call
// builds from a literal prefix or suffix and a name, when that name is a
// string literal of the package (a side's name: "x-"+s.name, s.name+"-MB/s").
// It does not tell which benchmark reports the unit (hasRun checks the
// benchmark), but a unit misspelled in a target is reported by none.
func reports(t *testing.T, pkg, unit string) bool {
	t.Helper()
	if f, ok := reportedUnits[pkg]; ok {
		return f(unit)
	}
	files, err := filepath.Glob(filepath.Join(repoRoot, pkg, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", pkg, err)
	}
	exact := map[string]bool{"ns/op": true, "MB/s": true, "B/op": true, "allocs/op": true}
	lits := map[string]bool{}
	var prefixes, suffixes []string
	lit := func(e ast.Expr) (string, bool) {
		b, ok := e.(*ast.BasicLit)
		if !ok || b.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(b.Value)
		return s, err == nil
	}
	fset := token.NewFileSet()
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if e, ok := n.(ast.Expr); ok {
				if s, ok := lit(e); ok {
					lits[s] = true
				}
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "ReportMetric" || len(call.Args) != 2 {
				return true
			}
			u := call.Args[1]
			if s, ok := lit(u); ok {
				exact[s] = true
				return true
			}
			if bin, ok := u.(*ast.BinaryExpr); ok && bin.Op == token.ADD {
				if s, ok := lit(bin.X); ok {
					prefixes = append(prefixes, s)
					return true
				}
				if s, ok := lit(bin.Y); ok {
					suffixes = append(suffixes, s)
					return true
				}
			}
			t.Errorf("%s: ReportMetric's unit %s is neither a literal nor a literal joined to a name", fset.Position(u.Pos()), types.ExprString(u))
			return true
		})
	}
	reportedUnits[pkg] = func(unit string) bool {
		if exact[unit] {
			return true
		}
		for _, p := range prefixes {
			if name, ok := strings.CutPrefix(unit, p); ok && lits[name] {
				return true
			}
		}
		for _, s := range suffixes {
			if name, ok := strings.CutSuffix(unit, s); ok && lits[name] {
				return true
			}
		}
		return false
	}
	return reportedUnits[pkg](unit)
}

func TestRatios(t *testing.T) {
	if got := ratios([]float64{1, 2}, []float64{1}); got != nil {
		t.Errorf("ratios of different lengths = %v, want nil", got)
	}
	if got := ratios([]float64{1}, []float64{0}); got != nil {
		t.Errorf("ratio over zero = %v, want nil", got)
	}
}

// The allocation targets of issue 11 are the gathers of every type in both
// layouts the data comes in, but float32's observation-first one (issue 2's),
// and the split batch.
func TestAllocationTargets(t *testing.T) {
	var got []string
	for _, d := range targetDefs {
		if d.Issue == 11 && d.Ref.Unit == "allocs/op" {
			got = append(got, d.Ref.Bench)
		}
	}
	want := []string{"BenchmarkGather/float64/first", "BenchmarkGather/uint8/first",
		"BenchmarkGather/float32/last", "BenchmarkGather/float64/last", "BenchmarkGather/uint8/last", "BenchmarkSplit/1024"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("issue 11's allocation targets mismatch (-want +got):\n%s", diff)
	}
}
