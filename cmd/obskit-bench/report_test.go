package main

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeResults is a complete results file as compare writes it, from the fake
// measurements of workloads_test.go.
func fakeResults(t *testing.T) *Results {
	t.Helper()
	ws, err := assemble(fakeDefs, fakeSamples(), fakePeers())
	if err != nil {
		t.Fatal(err)
	}
	p := fakePeers()
	return &Results{
		Date: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), Duration: "9m0s", Count: 2,
		Commands:  []string{"go test -run '^$' -bench . ./bench/", "/usr/bin/python3 bench/peers.py --json"},
		Machine:   Machine{CPU: "Test CPU", CPUs: 2, Memory: "23.0 GiB", OS: "linux/amd64", Go: "go1.26", LoadBefore: 1.5, Load: LoadStats{Min: 9, Max: 11, Mean: 10, Samples: 4}},
		Python:    &PythonInfo{Interpreter: "/usr/bin/python3", Versions: p.Versions},
		Skipped:   p.Skipped,
		Workloads: ws,
		Targets:   evaluate(targetDefs[:1], fakeSamples(), ws, 2, "/usr/bin/python3"),
		Context:   evaluate(contextDefs[:1], fakeSamples(), ws, 2, "/usr/bin/python3"),
	}
}

func TestReplaceGenerated(t *testing.T) {
	doc := "# Title\n\nintro\n\n" + beginMarker + "\nold\n" + endMarker + "\n\nnotes\n"
	got, err := replaceGenerated([]byte(doc), "new\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "# Title\n\nintro\n\n" + beginMarker + "\n\nnew\n\n" + endMarker + "\n\nnotes\n"
	if string(got) != want {
		t.Errorf("replaceGenerated:\n got %q\nwant %q", got, want)
	}
	for _, bad := range []string{"no markers", endMarker + "\n" + beginMarker} {
		if _, err := replaceGenerated([]byte(bad), "x"); !errors.Is(err, errNoMarkers) {
			t.Errorf("replaceGenerated(%q) error = %v, want errNoMarkers", bad, err)
		}
	}
}

func TestMarkdown(t *testing.T) {
	md := markdown(fakeResults(t), []chartLink{{"throughput", "performance.svg"}})
	for _, want := range []string{
		"Test CPU, 2 logical CPUs", "1.50 when the run started; while measuring 9.0 - 11.0 (mean 10.0 of 4 samples) on 2 CPUs", "The machine was shared",
		"**Skipped PyTorch**: not importable", "```sh\ngo test -run '^$' -bench . ./bench/\n",
		"![throughput](performance.svg)",
		"- obskit / NumPy, 1 comparison: 2.20 (NumPy X[idx], gather).",
		"- obskit / scikit-learn, 1 comparison: 2.00",
		"0 of 1 targets met. Not met: observation-first gather of 60000x784 float32, shuffled batches of 128 (issue 2, not measured).",
		"| gather | 5.50 GB/s (`kit`) | 10.0 GB/s (copy()) | 0.550 (0.500 - 0.600) | NumPy X[idx] | 2.50 GB/s | 2.20 |",
		"| workload | obskit | limit | obskit/limit | peer | peer throughput | obskit/peer |",
		"| split | 20.0 Mobs/s (`subset.Split`) | 40.0 Mobs/s (rand.Perm) | 0.500 (0.500 - 0.500) | scikit-learn train_test_split | 10.0 Mobs/s | 2.00 |",
		"| 2 | observation-first gather",
		"| 2 | observation-first gather on the wall clock (the suite's figure; the target's is on the thread CPU clock) | throughput / copy() of the same bytes: - | `go test",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

// A directory of results files, one per machine, makes one section per
// machine, newest first.
func TestReportMachines(t *testing.T) {
	dir := t.TempDir()
	old, cur := fakeResults(t), fakeResults(t)
	old.Machine.CPU, old.Date = "Old CPU", old.Date.Add(-time.Hour)
	cur.Machine.Family, cur.Machine.Microarch = "AuthenticAMD family 26 model 2", "Zen 5"
	for _, r := range []*Results{old, cur} {
		if err := r.save(resultsPath(dir+"/", r.Machine)); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := loadAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Machine.CPU != "Test CPU" {
		t.Fatalf("loadAll = %d results, first %q; want 2, Test CPU first (newest)", len(rs), rs[0].Machine.CPU)
	}
	doc := document(rs, nil)
	i, j := strings.Index(doc, "### Test CPU (Zen 5), 2 CPUs"), strings.Index(doc, "### Old CPU, 2 CPUs")
	if i < 0 || j < i || !strings.Contains(doc, "Figures of 2 machines") {
		t.Errorf("document of two machines:\n%s", doc)
	}
	if _, err := loadAll(t.TempDir()); err == nil {
		t.Error("loadAll of an empty directory: no error")
	}
}

func TestSlug(t *testing.T) {
	for _, tc := range []struct {
		m    Machine
		want string
	}{
		{Machine{CPU: "AMD EPYC", CPUs: 2, Family: "AuthenticAMD family 26 model 2 stepping 1", Microarch: "Zen 5"}, "amd-epyc-zen-5-2cpu"},
		{Machine{CPU: "Intel(R) Xeon(R) Processor", CPUs: 2}, "intel-xeon-processor-2cpu"},
		{Machine{CPU: "INTEL(R) XEON(TM) GOLD", CPUs: 4, Family: "GenuineIntel family 6 model 1"}, "intel-xeon-gold-4cpu"},
		{Machine{Microarch: "Zen 5", CPUs: 1}, "zen-5-1cpu"},
		{Machine{CPUs: 8}, "unknown-cpu-8cpu"},
	} {
		if got := tc.m.Slug(); got != tc.want {
			t.Errorf("Slug(%+v) = %q, want %q", tc.m, got, tc.want)
		}
	}
	if got := resultsPath("out.json", Machine{CPU: "x", CPUs: 1}); got != "out.json" {
		t.Errorf("resultsPath of a file = %q", got)
	}
}

func TestKernelTables(t *testing.T) {
	r := fakeResults(t)
	r.Benchmarks = Samples{
		"bench BenchmarkKernel/rows/3136": {"kit-MB/s": {20000, 22000, 21000}, "go-MB/s": {9000, 9000, 9000}},
		"bench BenchmarkKernel/rows/64":   {"kit-MB/s": {9000}},
		"bench BenchmarkKernel/pages":     {"kit-MB/s": {15000}, "copy-4k-MB/s": {24000}},
		"bench BenchmarkSplit/1024":       {"one-MB/s": {10000, 10000}, "two-MB/s": {17000, 19000}, "x-one": {1.7, 1.9}, "x-c-one": {2, 2}, "x-c-two": {1, 2}},
	}
	var b strings.Builder
	kernelTables(&b, r)
	md := b.String()
	for _, want := range []string{
		"| row bytes | kernel | go copy() | no prefetch | C memcpy | C prefetch 2 rows | C 8 KiB cursor |",
		"| 64 | 9.00 | - | - | - | - | - |\n| 3136 | 21.0 | 9.00 | - | - | - | - |",
		"| 3136 bytes | 15.0 | - | - | 24.0 |",
		"| 1024 | 10.0 | 18.0 | - | - | 1.80 (1.70 - 1.90) | 1.50 (1.00 - 2.00) |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("kernel tables lack %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "Prefetch distance") {
		t.Errorf("kernel tables show a table that was not measured:\n%s", md)
	}
	// The C split's speedup of the context is the table's column, row 1024.
	if i := slices.IndexFunc(contextDefs, func(d targetDef) bool {
		return d.Ref == metricRef{"bench", "BenchmarkSplit/1024", "x-c-one"}
	}); i < 0 {
		t.Error("no figure of context reads BenchmarkSplit/1024 x-c-one")
	} else if got := spread(evaluate(contextDefs[i:i+1], r.Benchmarks, nil, 2, "")[0].Measured); got != "1.50 (1.00 - 2.00)" {
		t.Errorf("context figure %q = %s, want the table's 1.50 (1.00 - 2.00)", contextDefs[i].What, got)
	}
	// The commands are those of the tables' benchmarks, each once.
	kernel := "`go test -C bench -run '^$' -bench '^BenchmarkKernel$' -benchtime 0.5s -count 2 -benchmem -timeout 60m ./`"
	split := "`go test -C bench -run '^$' -bench '^BenchmarkSplit$' -count 2 -benchmem -timeout 60m ./`"
	if want := "Commands: " + kernel + " and " + split + ".\n"; !strings.Contains(md, want) {
		t.Errorf("kernel tables lack %q:\n%s", want, md)
	}
	r.Benchmarks = Samples{"bench BenchmarkSplit/1024": r.Benchmarks["bench BenchmarkSplit/1024"]}
	b.Reset()
	kernelTables(&b, r)
	if md, want := b.String(), "Command: "+split+".\n"; !strings.Contains(md, want) || strings.Contains(md, "BenchmarkKernel") {
		t.Errorf("kernel tables of BenchmarkSplit alone lack %q or name BenchmarkKernel:\n%s", want, md)
	}
	b.Reset()
	kernelTables(&b, &Results{Count: 2})
	if b.Len() != 0 {
		t.Errorf("kernel tables of no measurement:\n%s", b.String())
	}
}

// Every table of the kernel's experiments reads a benchmark that a run of the
// suite runs, and units that its package reports.
func TestKernelTableDefsAreMeasured(t *testing.T) {
	for _, d := range kernelTableDefs {
		if !strings.HasPrefix(d.Prefix, d.Bench) || !hasRun("bench", d.Bench) {
			t.Errorf("table %q: prefix %s of benchmark %s, which is in no run of goRuns", d.Title, d.Prefix, d.Bench)
		}
		var units []string
		for _, c := range d.Sides {
			units = append(units, c.Side+"-MB/s")
		}
		for _, c := range d.Ratios {
			units = append(units, c.Num)
			if c.Den != "" {
				units = append(units, c.Den)
			}
		}
		for _, u := range units {
			if !reports(t, "bench", u) {
				t.Errorf("table %q: no benchmark of bench reports %q", d.Title, u)
			}
		}
	}
}

func TestShared(t *testing.T) {
	for _, tc := range []struct {
		mean float64
		want bool
	}{{1.1, false}, {2.4, false}, {2.6, true}, {10, true}} {
		m := Machine{CPUs: 2, Load: LoadStats{Mean: tc.mean, Samples: 3}}
		if got := shared(m); got != tc.want {
			t.Errorf("shared(mean load %v on 2 CPUs) = %v, want %v", tc.mean, got, tc.want)
		}
	}
	if shared(Machine{CPUs: 2}) {
		t.Error("shared without load samples = true")
	}
}

func TestPrintComparison(t *testing.T) {
	var b bytes.Buffer
	printComparison(&b, fakeResults(t), true)
	out := b.String()
	for _, want := range []string{"higher = obskit faster", "NumPy X[idx]", "2.20", "SKIPPED PyTorch: not importable"} {
		if !strings.Contains(out, want) {
			t.Errorf("printComparison lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	printComparison(&b, fakeResults(t), false)
	out = b.String()
	for _, want := range []string{"obskit against its limit", "0.550 (0.500 - 0.600)", "10.0 GB/s (copy())"} {
		if !strings.Contains(out, want) {
			t.Errorf("printComparison without peers lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "NumPy") || strings.Contains(out, "SKIPPED") {
		t.Errorf("printComparison without peers shows peers:\n%s", out)
	}
}

// report writes both charts and the generated section from a results file.
func TestReport(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "results.json")
	if err := fakeResults(t).save(in); err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(dir, "docs", "performance.md")
	if err := os.MkdirAll(filepath.Dir(doc), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(doc, []byte("# perf\n"+beginMarker+"\n"+endMarker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	charts := filepath.Join(dir, "docs")
	err := run(context.Background(), []string{"report", "-in", in, "-doc", doc, "-charts", charts}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	chart := filepath.Join(charts, "performance-test-cpu-2cpu.png")
	splits := filepath.Join(charts, "performance-test-cpu-2cpu-splits.png")
	for path, wants := range map[string][]string{
		chart:  {"PNG"},
		splits: {"PNG"},
		doc:    {"# perf", "](performance-test-cpu-2cpu.png)", "](performance-test-cpu-2cpu-splits.png)", "NumPy X[idx]", "### Test CPU, 2 CPUs, 2026-03-01 12:00 UTC"},
	} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range wants {
			if !strings.Contains(string(data), w) {
				t.Errorf("%s lacks %q", filepath.Base(path), w)
			}
		}
	}
}

// The committed charts are PNG (make chart's defaults): the raster backend
// draws them.
func TestChartPNG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.png")
	if err := writeChart(fakeResults(t), "GB/s", "t", path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s is no PNG: %v", path, err)
	}
	// 8.5 inches wide at the backend's default 96 dpi.
	if cfg.Width != 816 || cfg.Height < 100 {
		t.Errorf("chart is %d x %d pixels, want 816 wide and more than 100 high", cfg.Width, cfg.Height)
	}
}

// The chart of a unit shows its workloads in order, each a title row then a
// bar per side measured: obskit, the Go limit, the peers and the C reference,
// but not Python's own limit, nor a side without runs.
func TestChartRows(t *testing.T) {
	m := func(name string, runs ...float64) Measure { return newMeasure(name, runs) }
	limit := m("copy()", 10, 10)
	ws := []Workload{
		{Title: "gather", Unit: "GB/s", Obskit: m("kit", 5, 6), Limit: &limit, Peers: []Peer{
			{Measure: m("NumPy X[idx]", 2.5), Kind: "numpy"},
			{Measure: m("PyTorch index_select(out=)"), Kind: "torch"}, // not measured
			{Measure: m("Python copy", 9), Kind: "limit"},
			{Measure: m("C memcpy per row", 3, 4), Kind: "c"},
		}},
		{Title: "split", Unit: "Mobs/s", Obskit: m("subset.Split", 20), Peers: []Peer{
			{Measure: m("scikit-learn train_test_split", 10), Kind: "sklearn"},
		}},
		{Title: "tuple", Unit: "GB/s"}, // nothing measured: the title alone
	}
	for unit, want := range map[string][]bar{
		"GB/s": {
			{"gather", "", 0}, {"obskit", "obskit", 5.5}, {"copy()", "go-limit", 10},
			{"NumPy X[idx]", "numpy", 2.5}, {"C memcpy per row", "c", 3.5},
			{"tuple", "", 0},
		},
		"Mobs/s": {{"split", "", 0}, {"obskit", "obskit", 20}, {"scikit-learn train_test_split", "sklearn", 10}},
		"s":      nil,
	} {
		got := chartRows(ws, unit)
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(bar{})); diff != "" {
			t.Errorf("chartRows(%s) mismatch (-want +got):\n%s", unit, diff)
		}
		for _, b := range got {
			if b.kind != "" && !slices.ContainsFunc(kinds, func(k kindStyle) bool { return k.kind == b.kind }) {
				t.Errorf("chartRows(%s): bar %q of kind %q, which has no colour or legend", unit, b.label, b.kind)
			}
		}
	}
	// The kinds of the peers that fakeResults holds are charted too.
	for _, w := range fakeResults(t).Workloads {
		for _, b := range chartRows([]Workload{w}, w.Unit)[1:] {
			if !slices.ContainsFunc(kinds, func(k kindStyle) bool { return k.kind == b.kind }) {
				t.Errorf("workload %s: bar %q of kind %q has no colour", w.Title, b.label, b.kind)
			}
		}
	}
}

// Drawn as SVG, whose text can be read back, a chart shows its rows' labels,
// its unit and the legend of the kinds present.
func TestChartSVG(t *testing.T) {
	for unit, wants := range map[string][]string{
		"GB/s":   {">gather<", ">obskit<", ">NumPy X[idx]<", ">copy()<", "GB/s, median of 2 runs", ">limit: copy() in Go<", ">NumPy<"},
		"Mobs/s": {">split<", ">obskit<", ">scikit-learn train_test_split<", ">rand.Perm<", "Mobs/s, median of 2 runs", ">scikit-learn<"},
	} {
		path := filepath.Join(t.TempDir(), "c.svg")
		if err := writeChart(fakeResults(t), unit, "t", path); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range wants {
			if !strings.Contains(string(data), w) {
				t.Errorf("chart of %s lacks %q", unit, w)
			}
		}
		if strings.Contains(string(data), "PyTorch") {
			t.Errorf("chart of %s shows PyTorch, which was not measured", unit)
		}
	}
}

func TestChartWithoutWorkloads(t *testing.T) {
	r := fakeResults(t)
	r.Workloads = nil
	if err := writeChart(r, "GB/s", "t", filepath.Join(t.TempDir(), "c.svg")); err == nil {
		t.Error("writeChart of no workloads: no error")
	}
}

func TestRunErrors(t *testing.T) {
	for _, args := range [][]string{nil, {"nope"}, {"bench", "-count", "0"}, {"report", "-in", "/nonexistent.json"}} {
		if err := run(context.Background(), args, &bytes.Buffer{}); err == nil {
			t.Errorf("run(%q): no error", args)
		}
	}
	// bench outside the repository root says where to run it.
	err := run(context.Background(), []string{"bench"}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "root of the obskit repository") {
		t.Errorf("run(bench) in %s: error %v", must(os.Getwd()), err)
	}
}

func must[T any](v T, _ error) T { return v }
