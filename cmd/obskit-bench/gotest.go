package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// A goRun is one go test invocation of the suite.
type goRun struct {
	Pkg       string // package directory, relative to the repository root
	Bench     string // the -bench pattern
	Benchtime string // -benchtime, or "" for go test's default (1s)
	Skip      string // the -skip pattern, or "" for none
}

// goRuns is the Go side of the suite: bench/ holds the workloads that move
// bytes, each beside its limit, the C reference and the peers, and the row
// kernel's experiments (BenchmarkKernel, a run of its own with a shorter
// benchtime); the others are the packages' own benchmarks of their issues'
// targets and of their design.
var goRuns = []goRun{
	{Pkg: "bench", Bench: ".", Skip: "^BenchmarkKernel$"},
	{Pkg: "bench", Bench: "^BenchmarkKernel$", Benchtime: "0.5s"},
	{Pkg: "subset", Bench: "^BenchmarkViewOfViews$"},
	{Pkg: "arraycontainer", Bench: "^BenchmarkObsFirst$", Benchtime: "5x"},
	{Pkg: "internal/pipeline", Bench: "^BenchmarkHandoff$", Benchtime: "5x"},
	{Pkg: "stream", Bench: "^BenchmarkParallelMapSpeedup$", Benchtime: "2x"},
	{Pkg: "npy", Bench: "^BenchmarkOpen$"},
	{Pkg: "provider", Bench: "^BenchmarkEpochRatio$"},
}

// repoRoot is the repository root, relative to the working directory:
// obskit-bench runs from it; its tests point it at ../.. .
var repoRoot = "."

// args returns the arguments of go for the run; quick runs every benchmark
// for one iteration. A package directory with a go.mod of its own is a
// module, which go test must run in (-C).
func (g goRun) args(count int, quick bool) []string {
	args, pkg := []string{"test"}, "./"+g.Pkg+"/"
	if _, err := os.Stat(filepath.Join(repoRoot, g.Pkg, "go.mod")); err == nil {
		args, pkg = append(args, "-C", g.Pkg), "./"
	}
	args = append(args, "-run", "^$", "-bench", g.Bench)
	if g.Skip != "" {
		args = append(args, "-skip", g.Skip)
	}
	if bt := g.Benchtime; quick || bt != "" {
		if quick {
			bt = "1x"
		}
		args = append(args, "-benchtime", bt)
	}
	return append(args, "-count", strconv.Itoa(count), "-timeout", "60m", pkg)
}

// benchCommand returns the go test command that runs benchmark name of
// package dir pkg alone, with the -benchtime of its run in goRuns.
func benchCommand(pkg, name string, count int) string {
	top, _, _ := strings.Cut(name, "/")
	g := goRun{Pkg: pkg}
	for _, run := range goRuns {
		if run.Pkg == pkg && regexp.MustCompile(run.Bench).MatchString(top) &&
			(run.Skip == "" || !regexp.MustCompile(run.Skip).MatchString(top)) {
			g.Benchtime = run.Benchtime
			break
		}
	}
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	g.Bench = strings.Join(parts, "/")
	return command("go", g.args(count, false))
}

// command returns a command line that a shell runs as cmd args.
func command(cmd string, args []string) string {
	var b strings.Builder
	b.WriteString(cmd)
	for _, a := range args {
		b.WriteByte(' ')
		if regexp.MustCompile(`^[-A-Za-z0-9_./=:,+@%]+$`).MatchString(a) {
			b.WriteString(a)
		} else {
			b.WriteString("'" + strings.ReplaceAll(a, "'", `'\''`) + "'")
		}
	}
	return b.String()
}

// Samples holds the values go test reported: benchmark → unit → one value per
// run. A benchmark is named by its package directory and its name without the
// GOMAXPROCS suffix: "bench BenchmarkGather/dram/float32/first".
type Samples map[string]map[string][]float64

// Get returns the values of unit reported by benchmark name of package dir
// pkg.
func (s Samples) Get(pkg, name, unit string) []float64 { return s[pkg+" "+name][unit] }

var procsSuffix = regexp.MustCompile(`^-[0-9]+$`)

// parse adds the benchmark results of go test output r, from package
// directory pkg, to s, in the units the benchmarks reported.
func (s Samples) parse(r io.Reader, pkg string) error {
	br := benchfmt.NewReader(r, pkg)
	for br.Scan() {
		res, ok := br.Result().(*benchfmt.Result)
		if !ok {
			continue // syntax errors are lines of other output (PASS, ok, logs)
		}
		base, parts := res.Name.Parts()
		if n := len(parts); n > 0 && procsSuffix.Match(parts[n-1]) {
			parts = parts[:n-1]
		}
		// benchfmt drops the "Benchmark" of the name; put it back, so that
		// names read as go test prints them.
		key := pkg + " Benchmark" + string(base) + string(bytes.Join(parts, nil))
		if s[key] == nil {
			s[key] = map[string][]float64{}
		}
		for _, v := range res.Values {
			unit, val := v.Unit, v.Value
			if v.OrigUnit != "" {
				unit, val = v.OrigUnit, v.OrigValue
			}
			s[key][unit] = append(s[key][unit], val)
		}
	}
	return br.Err()
}
