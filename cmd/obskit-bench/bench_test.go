package main

import (
	"bytes"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func init() { repoRoot = "../.." }

// goOutput is go test output of two runs of the suite, with the lines of
// other output that benchfmt must skip.
const goOutput = `goos: linux
pkg: github.com/obskit/obskit/bench
BenchmarkGather/dram/float32/first-2   	 5	 100 ns/op	 10000 kit-MB/s	 20000 copy-MB/s	 0.5 x-copy	 2 x-numpy	 5000 numpy-MB/s	 1.2 x-c	 0 kit-allocs/op
--- BENCH: BenchmarkGather/dram/float32/first-2
    harness_test.go:1: a log line
BenchmarkGather/dram/float32/first-2   	 5	 100 ns/op	 12000 kit-MB/s	 20000 copy-MB/s	 0.6 x-copy	 3 x-numpy	 4000 numpy-MB/s	 0.8 x-c	 0 kit-allocs/op
BenchmarkPlain/dram-2   	 5	 100 ns/op	 11000 kit-MB/s
BenchmarkPlain/dram-2   	 5	 100 ns/op	 12000 kit-MB/s
BenchmarkSplits/split 1 1 ns/op 20 kit-Mobs/s 10 perm-Mobs/s 0.5 x-perm 40 sklearn-Mobs/s 2 x-sklearn
PASS
ok  	github.com/obskit/obskit/bench	10.0s
`

func samples(t *testing.T) Samples {
	t.Helper()
	s := Samples{}
	if err := s.parse(strings.NewReader(goOutput), "bench"); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParse(t *testing.T) {
	s := samples(t)
	for _, c := range []struct {
		name, unit string
		want       []float64
	}{
		{"BenchmarkGather/dram/float32/first", "kit-MB/s", []float64{10000, 12000}},
		{"BenchmarkGather/dram/float32/first", "ns/op", []float64{100, 100}},
		{"BenchmarkPlain/dram", "kit-MB/s", []float64{11000, 12000}},
		{"BenchmarkSplits/split", "x-perm", []float64{0.5}},
	} {
		if diff := cmp.Diff(c.want, s.Get("bench", c.name, c.unit)); diff != "" {
			t.Errorf("Get(%s, %s) mismatch (-want +got):\n%s", c.name, c.unit, diff)
		}
	}
}

func TestArgs(t *testing.T) {
	for _, c := range []struct {
		g     goRun
		quick bool
		want  string
	}{
		{goRuns[0], false, "go test -C bench -run '^$' -bench . -skip '^BenchmarkKernel$' -count 3 -timeout 60m ./"},
		{goRuns[1], true, "go test -C bench -run '^$' -bench '^BenchmarkKernel$' -benchtime 1x -count 3 -timeout 60m ./"},
		{goRun{Pkg: "npy", Bench: "^BenchmarkOpen$"}, false, "go test -run '^$' -bench '^BenchmarkOpen$' -count 3 -timeout 60m ./npy/"},
	} {
		if got := command("go", c.g.args(3, c.quick)); got != c.want {
			t.Errorf("args(%+v, quick %v):\n got %s\nwant %s", c.g, c.quick, got, c.want)
		}
	}
	if got, want := benchCommand("bench", "BenchmarkKernel/dram/rows/64", 5), "go test -C bench -run '^$' -bench '^BenchmarkKernel$/^dram$/^rows$/^64$' -benchtime 0.5s -count 5 -timeout 60m ./"; got != want {
		t.Errorf("benchCommand:\n got %s\nwant %s", got, want)
	}
}

func TestEvaluate(t *testing.T) {
	s := samples(t)
	first := "bench BenchmarkGather/dram/float32/first"
	got := evaluate([]targetDef{
		{15, "numpy", "x", ref{first, "x-numpy"}, ref{}, ">=", 1.1},
		{2, "copy", "x", ref{first, "x-copy"}, ref{}, ">=", 0.95},
		{15, "plain", "x", ref{first, "kit-MB/s"}, ref{"bench BenchmarkPlain/dram", "kit-MB/s"}, "~", 0.1},
		{15, "allocs", "x", ref{first, "kit-allocs/op"}, ref{}, "<=", 0},
		{15, "absent", "x", ref{first, "x-torch"}, ref{}, ">=", 1.1},
		{3, "context", "x", ref{first, "x-c"}, ref{}, "", 0},
	}, s, 5, "OBSKIT_PYTHON=/usr/bin/python3")
	want := []struct{ status, want, median string }{
		{"met", ">= 1.1", "2.50"}, {"not met", ">= 0.95", "0.550"}, {"met", "1 ± 0.1", "0.955"},
		{"met", "<= 0", "0"}, {"not measured", ">= 1.1", "0"}, {"measured", "", "1.00"},
	}
	for i, w := range want {
		if g := got[i]; g.Status != w.status || g.Want != w.want || num(g.Measured.Median) != w.median {
			t.Errorf("target %q: status %q, want %q, median %s; want %q, %q, %s", g.What, g.Status, g.Want, num(g.Measured.Median), w.status, w.want, w.median)
		}
	}
	if c := got[0].Command; !strings.HasPrefix(c, "OBSKIT_PYTHON=/usr/bin/python3 go test -C bench") {
		t.Errorf("a peer's target command %q does not start the peers", c)
	}
	if c := got[2].Command; !strings.Contains(c, "; go test -C bench -run '^$' -bench '^BenchmarkPlain$/^dram$'") {
		t.Errorf("a target over another benchmark: command %q lacks the other's", c)
	}
}

func TestWorkloads(t *testing.T) {
	ws := workloads(samples(t))
	if len(ws) != 2 || ws[0].Key != "gather/dram/float32/first" || ws[1].Key != "split" {
		t.Fatalf("workloads: %+v, want gather/dram/float32/first and split", ws)
	}
	g := ws[0]
	if g.Unit != "GB/s" || g.Obskit.Median != 11 || g.Limit.Median != 20 || len(g.Peers) != 1 || g.Peers[0].Kind != "numpy" || g.Peers[0].Ratio != 2.5 {
		t.Errorf("gather workload: %+v", g)
	}
	if sp := ws[1]; sp.Unit != "Mobs/s" || sp.Obskit.Median != 20 || sp.Peers[0].Name != "scikit-learn train_test_split" {
		t.Errorf("split workload: %+v", sp)
	}
}

// Every metric the definitions read is reported by the suite: a side name
// that appears in its sources (Go or peers.py), or a metric it reports.
func TestDefsAreMeasured(t *testing.T) {
	var src []byte
	files, _ := filepath.Glob("../../bench/*.go")
	cref, _ := filepath.Glob("../../bench/internal/cref/*.go")
	files = append(files, cref...)
	for _, f := range append(files, "../../bench/peers.py") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src = append(src, b...)
	}
	known := func(unit string) bool {
		side := regexp.MustCompile(`^(x|padding)-|(-0)?-(MB/s|Mobs/s|allocs/op)$`).ReplaceAllString(unit, "")
		return bytes.Contains(src, []byte(`"`+side+`"`)) || bytes.Contains(src, []byte(`"`+unit+`"`)) ||
			regexp.MustCompile(`^[0-9]+KiB$`).MatchString(side) || !strings.Contains(unit, "-") && unit != "speedup"
	}
	for _, d := range append(targetDefs(), contextDefs()...) {
		for _, r := range []ref{d.ref, d.over} {
			if strings.HasPrefix(r.bench, "bench ") && !known(r.unit) {
				t.Errorf("target %q reads %q, which the suite does not report", d.what, r.unit)
			}
		}
	}
	for _, d := range workloadDefs() {
		for _, side := range append([]peerDef{{side: d.kit[0]}, {side: d.limit[0]}}, d.peers...) {
			if !known(side.side + "-" + d.unit) {
				t.Errorf("workload %s reads side %q, which the suite does not report", d.key, side.side)
			}
		}
	}
	for _, tb := range sideTables {
		for _, c := range tb.sides {
			if !known(c[0] + "-MB/s") {
				t.Errorf("table %q reads side %q, which the suite does not report", tb.title, c[0])
			}
		}
	}
}

func fakeResults(t *testing.T, cpu, micro string, date time.Time) *Results {
	s := samples(t)
	return &Results{
		Date: date, Duration: "9m0s", Count: 2, Commands: []string{"go test -C bench ./"},
		Machine:   Machine{CPU: cpu, Microarch: micro, CPUs: 2, Load: LoadStats{Min: 9, Max: 11, Mean: 10, Samples: 4}},
		Python:    &PythonInfo{"/usr/bin/python3", map[string]string{"numpy": "1.24.2"}},
		Skipped:   []Skip{{"PyTorch", "not importable"}},
		Workloads: workloads(s), Targets: evaluate(targetDefs()[:1], s, 2, ""), Context: evaluate(contextDefs()[:1], s, 2, ""),
		Tables: tables(s, 2), Benchmarks: s,
	}
}

// A results file written before the microarchitecture field existed and a
// newer run on the same machine are one machine: compare replaces the old
// file and the report shows the newest.
func TestOneSectionPerMachine(t *testing.T) {
	dir := t.TempDir()
	day := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, r := range []*Results{fakeResults(t, "Intel(R) Xeon(R) Processor", "", day), fakeResults(t, "AMD EPYC", "Zen 5", day)} {
		if _, err := r.save(dir + "/"); err != nil {
			t.Fatal(err)
		}
	}
	path, err := fakeResults(t, "Intel(R) Xeon(R) Processor", "Emerald Rapids", day.Add(time.Hour)).save(dir)
	if err != nil || filepath.Base(path) != "intel-xeon-processor-emerald-rapids-2cpu.json" {
		t.Fatalf("save: %s, %v", path, err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 2 {
		t.Errorf("files after a new run of a machine: %v, want its new file and the other machine's", files)
	}
	os.WriteFile(filepath.Join(dir, "old.json"), must(os.ReadFile(files[0])), 0o644) // an old copy of a machine left behind
	rs, err := loadAll(dir)
	if err != nil || len(rs) != 2 || rs[0].Machine.Microarch != "Emerald Rapids" {
		t.Fatalf("loadAll: %d machines, %v; want 2, the Xeon's newest first", len(rs), err)
	}
	for _, r := range rs {
		r.Tables = "| kernel |\n| --- |\n| 1 |\n"
	}
	doc := filepath.Join(dir, "performance.md")
	os.WriteFile(doc, []byte("# Title\n\n"+beginMarker+"\nold\n"+endMarker+"\n\nnotes\n"), 0o644)
	if err := report(rs, doc, dir); err != nil {
		t.Fatal(err)
	}
	md := string(must(os.ReadFile(doc)))
	for _, want := range []string{
		"# Title\n\n" + beginMarker + "\n\nFigures of 2 machines", "### Intel(R) Xeon(R) Processor (Emerald Rapids), 2 CPUs, 2026-03-01 13:00 UTC",
		"![Throughput of obskit, its limit and its peers](performance-intel-xeon-processor-emerald-rapids-2cpu.png)",
		"mean 10.0 of 4 samples", "The machine was shared", "- Peers: /usr/bin/python3, numpy 1.24.2.", "**Skipped PyTorch**: not importable",
		"0 of 1 targets met. Not met: observation-first gather of float32 in DRAM",
		"| gather float32, observation-first, dram | 11.0 GB/s (`Array.GetObsInto`) | 20.0 GB/s (copy()) | 0.550 (0.500 - 0.600) | NumPy X[idx] 4.50 GB/s (x2.50)",
		"| shuffled 80/20 split of 10M | 20.0 Mobs/s (`subset.Split`)",
		endMarker + "\n\nnotes\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
	// The kernel's experiments of the older run measured an older kernel:
	// only the newest run's are drawn, the older's are pointed to.
	if n := strings.Count(md, "#### Where a shuffled gather's time goes"); n != 1 || !strings.Contains(md, "bench/results/amd-epyc-zen-5-2cpu.json (`tables`)") {
		t.Errorf("the report draws the kernel's tables %d times, want once (the newest run's) and a pointer to the older run's:\n%s", n, md)
	}
	if strings.Count(md, "### Intel") != 1 || strings.Contains(md, "\nold\n") {
		t.Errorf("the report shows the Xeon %d times or keeps the old section:\n%s", strings.Count(md, "### Intel"), md)
	}
	img, err := png.Decode(bytes.NewReader(must(os.ReadFile(filepath.Join(dir, "performance-amd-epyc-zen-5-2cpu.png")))))
	if err != nil || img.Bounds().Dx() < 500 {
		t.Errorf("chart: %v", err)
	}
	os.WriteFile(doc, []byte("no markers"), 0o644)
	if err := report(rs, doc, ""); !errors.Is(err, errNoMarkers) {
		t.Errorf("report into a document without markers: %v, want errNoMarkers", err)
	}
}

// The targets and figures one command measures share a row; the command shown
// is the form that runs the peers too.
func TestTargetTableGroups(t *testing.T) {
	m := Measure{Median: 2, Min: 1, Max: 3, Runs: []float64{1, 2, 3}}
	ts := []Target{
		{Issue: 2, What: "gather", Metric: "x copy", Want: ">= 1", Measured: m, Status: "met", Command: "go test -bench G ./"},
		{Issue: 15, What: "gather against NumPy", Metric: "x numpy", Want: ">= 3", Measured: m, Status: "not met", Command: "OBSKIT_PYTHON=/p go test -bench G ./"},
		{Issue: 2, What: "epoch", Metric: "x copy", Measured: m, Status: "measured", Command: "go test -bench E ./; /usr/bin/python3 peers.py"},
		{Issue: 3, What: "epoch alone", Metric: "allocs", Measured: m, Status: "measured", Command: "go test -bench E ./"},
	}
	var b bytes.Buffer
	targetTable(&b, ts)
	md := b.String()
	for _, want := range []string{
		"| 2, 15 | gather (x copy): 2.00 (1.00 - 3.00), want >= 1, met; gather against NumPy (x numpy): 2.00 (1.00 - 3.00), want >= 3, **not met** | `OBSKIT_PYTHON=/p go test -bench G ./` |",
		"| 2, 3 | epoch (x copy): 2.00 (1.00 - 3.00); epoch alone (allocs): 2.00 (1.00 - 3.00) | `go test -bench E ./; /usr/bin/python3 peers.py` |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the table lacks %q:\n%s", want, md)
		}
	}
	if n := strings.Count(md, "\n"); n != 4 {
		t.Errorf("the table has %d lines, want a head, a rule and a row per command (2):\n%s", n, md)
	}
}

func TestTables(t *testing.T) {
	s := Samples{}
	s.parse(strings.NewReader("BenchmarkSplit/1024 1 1 ns/op 2000 one-MB/s 3000 two-MB/s 1.5 x-one 1.2 x-c-one 0.8 x-c-two 1.25 x-c\n"+
		"BenchmarkSplit/32 1 1 ns/op 2000 one-MB/s\nBenchmarkKernel/cache/rows/784 1 1 ns/op 9000 kit-MB/s\nBenchmarkKernel/dram/rows/64 1 1 ns/op 8000 kit-MB/s\n"), "bench")
	md := tables(s, 5)
	for _, want := range []string{
		"| regime, row bytes | kernel |", "| cache 784 | 9.00 | - |", "| dram 64 | 8.00 |",
		"| rows per batch | one goroutine |", "| 32 | 2.00 | - |", "| 1024 | 2.00 | 3.00 | - | - | 1.50 | 1.50 | 1.25 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("tables lack %q:\n%s", want, md)
		}
	}
	if strings.Index(md, "| 32 |") > strings.Index(md, "| 1024 |") {
		t.Errorf("rows out of numeric order:\n%s", md)
	}
}

func TestMachine(t *testing.T) {
	m := readMachine(t.Context(), "go")
	if m.CPUs < 1 || m.Go == "" || m.Kernel == "" {
		t.Errorf("readMachine: %+v", m)
	}
	// Some virtual machines give the kernel no cache topology (no
	// /sys/devices/system/cpu/cpu0/cache, lscpu -C empty): the caches are
	// then left out of the description, not invented.
	if _, err := os.Stat("/sys/devices/system/cpu/cpu0/cache"); err == nil && m.Caches == "" {
		t.Errorf("readMachine: the kernel lists caches but Caches is empty: %+v", m)
	}
	for _, c := range []struct {
		vendor     string
		fam, model int
		want       string
	}{{"AuthenticAMD", 25, 1, "Zen 3"}, {"AuthenticAMD", 25, 0x61, "Zen 4"}, {"AuthenticAMD", 26, 2, "Zen 5"}, {"GenuineIntel", 6, 207, "Emerald Rapids"}, {"GenuineIntel", 6, 1, ""}} {
		if got := microarch(c.vendor, c.fam, c.model); got != c.want {
			t.Errorf("microarch(%s, %d, %d) = %q, want %q", c.vendor, c.fam, c.model, got, c.want)
		}
	}
	if st := sampleLoad(time.Millisecond)(); st.Samples < 2 {
		t.Errorf("sampleLoad: %+v, want a sample at each end", st)
	}
}

func must[T any](v T, _ error) T { return v }
