// Command obskit-bench runs obskit's benchmark suite and compares it with what
// users would otherwise pick. Run it from the repository root (the make targets
// do):
//
//	obskit-bench bench   [-count N] [-quick]
//	obskit-bench compare [-count N] [-quick] [-python /usr/bin/python3] [-out bench/results/]
//	obskit-bench report  [-in bench/results] [-doc docs/performance.md] [-charts docs]
//
// bench (make bench) runs the Go benchmarks of every hot path, each beside its
// baseline in the same run (copy() of the same bytes for gathers and loops,
// rand.Perm for splits), streams go test's output, and ends with the speed
// targets of the issues and obskit's throughput against its limits.
//
// Both print the machine first: CPU model and microarchitecture, caches,
// the CPU features the kernels care about, and how the row kernel copies on it.
//
// compare (make compare) runs the same Go benchmarks, then bench/peers.py with
// Python (NumPy, PyTorch, scikit-learn on the same workloads and sizes), prints
// one table of ratios obskit / peer (higher = obskit faster), says which peers
// it skipped and why, and writes everything, with the machine it ran on, to a
// JSON file: the machine's own file in a directory (bench/results/), so that
// the figures of every machine measured are kept, one file each.
//
// report (make chart) draws the charts of each results file with gonum/plot
// and rewrites the generated section of docs/performance.md, one section per
// machine, newest first.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "obskit-bench:", err)
		os.Exit(1)
	}
}

const usage = `usage: obskit-bench bench|compare|report [flags]; obskit-bench <command> -h lists the flags`

func run(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	cmd := args[0]
	fs := flag.NewFlagSet("obskit-bench "+cmd, flag.ContinueOnError)
	fs.SetOutput(stdout)
	switch cmd {
	case "bench", "compare":
		count := fs.Int("count", 5, "runs of every benchmark (go test -count, peers.py --runs)")
		quick := fs.Bool("quick", false, "one iteration of every benchmark, to test the pipeline (the figures mean nothing)")
		goCmd := fs.String("go", "go", "the go command")
		out := fs.String("out", "", "write the results to this JSON file, or to the machine's file in this directory (a path ending in /)")
		python, peers := new(string), new(string)
		if cmd == "compare" {
			python = fs.String("python", "/usr/bin/python3", "the Python interpreter of the peers (with numpy, torch, sklearn)")
			peers = fs.String("peers", "bench/peers.py", "the peers script")
		}
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if *count < 1 {
			return fmt.Errorf("-count %d: want at least 1", *count)
		}
		if err := checkRoot(); err != nil {
			return err
		}
		r, err := measure(ctx, *goCmd, cmd == "compare", *python, *peers, *count, *quick, stdout)
		if *out != "" {
			path := resultsPath(*out, r.Machine)
			if serr := r.save(path); serr != nil {
				return serr
			}
			fmt.Fprintf(stdout, "results written to %s\n", path)
		}
		return err
	case "report":
		in := fs.String("in", "bench/results", "the results file, or a directory of them (one per machine)")
		doc := fs.String("doc", "docs/performance.md", "the document whose generated section is rewritten (empty: none)")
		charts := fs.String("charts", "docs", "the directory of the charts, two per machine: performance-<machine>.png (GB/s) and performance-<machine>-splits.png (Mobs/s) (empty: none)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		rs, err := loadAll(*in)
		if err != nil {
			return err
		}
		return report(rs, *doc, *charts)
	}
	return fmt.Errorf("unknown command %q; %s", args[0], usage)
}

// checkRoot fails unless the working directory is the root of the obskit
// module, where the package paths of the suite resolve.
func checkRoot() error {
	mod, err := os.ReadFile("go.mod")
	if err != nil || !bytes.HasPrefix(mod, []byte("module github.com/obskit/obskit\n")) {
		return errors.New("run from the root of the obskit repository (make bench and make compare do)")
	}
	return nil
}

// measure runs the Go side and, for a comparison, the Python side, and prints
// the tables. The error reports failed go test runs; the results are complete
// otherwise.
func measure(ctx context.Context, goCmd string, compare bool, python, peers string, count int, quick bool, stdout io.Writer) (*Results, error) {
	start := time.Now()
	r := &Results{Date: start, Count: count, Quick: quick}
	stopLoad := sampleLoad(5 * time.Second)
	r.Machine = readMachine(ctx, goCmd)
	fmt.Fprintf(stdout, "Machine: %s\n", r.Machine)
	samples, commands, failures := runGo(ctx, goCmd, goRuns, count, quick, stdout)
	r.Benchmarks, r.Commands, r.Failures = samples, commands, failures
	var py *peersOutput
	if compare {
		runs := count
		if quick {
			runs = 1
		}
		out, cmdline, skip := runPeers(ctx, python, peers, runs, stdout)
		r.Commands = append(r.Commands, cmdline)
		if skip != nil {
			r.Skipped = append(r.Skipped, *skip)
		}
		if out != nil {
			py = out
			r.Python = &PythonInfo{Interpreter: python, Versions: out.Versions}
			r.Skipped = append(r.Skipped, out.Skipped...)
		}
	}
	r.Machine.Load = stopLoad()
	r.Duration = time.Since(start).Round(time.Second).String()
	ws, err := assemble(workloadDefs(suiteSizes), samples, py)
	if err != nil {
		return r, err
	}
	r.Workloads = ws
	r.Targets = evaluate(targetDefs, samples, ws, count, python)
	r.Context = evaluate(contextDefs, samples, ws, count, python)

	fmt.Fprintf(stdout, "\nMachine: %s\nLoad average %s; %s\n\n", r.Machine, r.Machine.Load, r.Machine.Go)
	printTargets(stdout, r.Targets, r.Context)
	fmt.Fprintln(stdout)
	printComparison(stdout, r, compare)
	if len(failures) > 0 {
		return r, fmt.Errorf("%d go test runs failed:\n  %s", len(failures), strings.Join(failures, "\n  "))
	}
	return r, nil
}

// report draws the charts of every results file of rs into the directory
// charts and rewrites the generated section of doc, one section per machine,
// with links to the charts relative to the document.
func report(rs []*Results, doc, charts string) error {
	links := map[*Results][]chartLink{}
	for _, r := range rs {
		if charts == "" {
			break
		}
		slug := r.Machine.Slug()
		for _, c := range []struct{ unit, title, file string }{
			{"GB/s", "Gathers and batch loops: 60000 x 784, batches of 128", "performance-" + slug + ".png"},
			{"Mobs/s", "Shuffled split and 10 folds of 10,000,000 observations", "performance-" + slug + "-splits.png"},
		} {
			path := filepath.Join(charts, c.file)
			if err := writeChart(r, c.unit, c.title+", "+r.Machine.CPU, path); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			rel, err := filepath.Rel(filepath.Dir(doc), path)
			if err != nil {
				rel = path
			}
			links[r] = append(links[r], chartLink{c.title + " (" + c.unit + ")", filepath.ToSlash(rel)})
		}
	}
	if doc == "" {
		return nil
	}
	return updateDoc(doc, rs, links)
}
