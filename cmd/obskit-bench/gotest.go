package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// Samples holds the values go test reported: benchmark → unit → one value per
// run. A benchmark is named by its package directory and its name without the
// GOMAXPROCS suffix: "bench BenchmarkGather/float32/first".
type Samples map[string]map[string][]float64

// Get returns the values of unit reported by benchmark name of package dir pkg.
func (s Samples) Get(pkg, name, unit string) []float64 {
	return s[pkg+" "+name][unit]
}

// runs returns the values of r or, with over, those of r divided by those of
// over run by run (empty unless both hold as many runs; see ratios).
func (s Samples) runs(r metricRef, over *metricRef) []float64 {
	runs := s.Get(r.Pkg, r.Bench, r.Unit)
	if over != nil {
		runs = ratios(runs, s.Get(over.Pkg, over.Bench, over.Unit))
	}
	return runs
}

// A goRun is one go test invocation of the suite.
type goRun struct {
	Pkg       string // package directory, relative to the repository root
	Bench     string // the -bench pattern
	Benchtime string // -benchtime, or "" for go test's default (1s)
	Skip      string // the -skip pattern, or "" for none
}

// goRuns is the Go side of the suite: bench/ holds the workloads that move
// bytes (gathers beside the C reference, tuples, subsets, epochs, prefetch,
// the mapped file, the two-goroutine split, issue 2's paired gathers on the
// thread clock), each beside copy() of the same bytes, and the row kernel's
// experiments (BenchmarkKernel, a run of its own with a shorter benchtime:
// fourteen sub-benchmarks of up to seven sides); the others are the packages'
// own benchmarks for the targets of their issues, and the provider's epoch
// beside the eachobs loop it wraps.
var goRuns = []goRun{
	{Pkg: "bench", Bench: ".", Skip: "^BenchmarkKernel$"},
	{Pkg: "bench", Bench: "^BenchmarkKernel$", Benchtime: "0.5s"},
	{Pkg: "subset", Bench: "^BenchmarkShuffled$", Benchtime: "3x"},
	{Pkg: "subset", Bench: "^BenchmarkViewOfViews$"},
	{Pkg: "stream", Bench: "^BenchmarkParallelMapSpeedup$", Benchtime: "2x"},
	{Pkg: "npy", Bench: "^BenchmarkOpen$"},
	{Pkg: "provider", Bench: "^BenchmarkEpochRatio$"},
}

// args returns the arguments of go for the run. quick runs every benchmark for
// one iteration.
func (g goRun) args(count int, quick bool) []string {
	bt := g.Benchtime
	if quick {
		bt = "1x"
	}
	args := []string{"test"}
	pkg := "./" + g.Pkg + "/"
	if isModule(g.Pkg) {
		args, pkg = append(args, "-C", g.Pkg), "./"
	}
	args = append(args, "-run", "^$", "-bench", g.Bench)
	if g.Skip != "" {
		args = append(args, "-skip", g.Skip)
	}
	if bt != "" {
		args = append(args, "-benchtime", bt)
	}
	return append(args, "-count", strconv.Itoa(count), "-benchmem", "-timeout", "60m", pkg)
}

// repoRoot is the repository root, relative to the working directory:
// obskit-bench runs from it (checkRoot); its tests, which run in their
// package's directory, point it at ../.. .
var repoRoot = "."

// isModule reports whether the package directory dir (relative to the
// repository root) is a module of its own, with a go.mod of its own, which go
// test must run in (-C).
func isModule(dir string) bool {
	_, err := os.Stat(filepath.Join(repoRoot, dir, "go.mod"))
	return err == nil
}

// command returns a command line that a shell runs as cmd args.
func command(cmd string, args []string) string {
	var b strings.Builder
	b.WriteString(cmd)
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(shellQuote(a))
	}
	return b.String()
}

var shellSafe = regexp.MustCompile(`^[-A-Za-z0-9_./=:,+@%]+$`)

func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// runGo runs every go test invocation of runs in turn, copying its output to
// out, and returns the values of every benchmark, the commands it ran and the
// runs that failed (their benchmarks are missing or incomplete).
func runGo(ctx context.Context, goCmd string, runs []goRun, count int, quick bool, out io.Writer) (s Samples, commands, failures []string) {
	s = Samples{}
	for _, r := range runs {
		args := r.args(count, quick)
		line := command("go", args)
		commands = append(commands, line)
		fmt.Fprintf(out, "\n$ %s\n", line)
		var buf bytes.Buffer
		cmd := exec.CommandContext(ctx, goCmd, args...)
		cmd.Stdout = io.MultiWriter(out, &buf)
		cmd.Stderr = os.Stderr
		err := cmd.Run()
		if perr := parseBench(&buf, r.Pkg, s); perr != nil && err == nil {
			err = perr
		}
		if err != nil {
			failures = append(failures, fmt.Sprintf("%s: %v", line, err))
		}
	}
	return s, commands, failures
}

// runs reports whether the run selects the top-level benchmark of bench
// ("BenchmarkShuffled" of "BenchmarkShuffled/Split") of its package: its -bench
// pattern matches it and its -skip pattern does not.
func (g goRun) runs(pkg, bench string) bool {
	top, _, _ := strings.Cut(bench, "/")
	return g.Pkg == pkg && regexp.MustCompile(g.Bench).MatchString(top) &&
		(g.Skip == "" || !regexp.MustCompile(g.Skip).MatchString(top))
}

var procsSuffix = regexp.MustCompile(`^-[0-9]+$`)

// parseBench adds the benchmark results of go test output r, from package
// directory pkg, to s.
func parseBench(r io.Reader, pkg string, s Samples) error {
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
		// benchfmt drops the "Benchmark" of the name; put it back, so that names
		// read as go test prints them.
		name := "Benchmark" + string(base) + string(bytes.Join(parts, nil))
		key := pkg + " " + name
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
