// Command obskit-bench runs obskit's benchmark suite and writes its report.
// Run it from the repository root (the make targets do):
//
//	obskit-bench bench   [-count N] [-quick]
//	obskit-bench compare [-count N] [-quick] [-python /usr/bin/python3] [-out bench/results/]
//	obskit-bench report  [-in bench/results] [-doc docs/performance.md] [-charts docs]
//
// bench (make bench) prints the machine, runs the Go benchmarks of the suite
// (bench/) and the packages' own benchmarks of their targets with go test,
// streaming their output, and ends with the speed targets of the issues and a
// table of workloads: obskit against its limit (copy() of the same bytes,
// rand.Perm) and the C reference, measured alternately in the same run.
//
// compare (make compare) does the same with the peers: the suite's benchmarks
// start bench/peers.py with the -python interpreter and run NumPy, PyTorch and
// scikit-learn as sides of the same benchmarks, pass by pass in turn with
// obskit. It writes everything, with the machine it ran on, to the machine's
// own file in bench/results/, replacing that machine's earlier file.
//
// report (make chart) draws one chart per machine with gonum/plot and
// rewrites the generated section of docs/performance.md, a section per
// machine, newest first.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
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
	fs := flag.NewFlagSet("obskit-bench "+args[0], flag.ContinueOnError)
	fs.SetOutput(stdout)
	switch args[0] {
	case "bench", "compare":
		count := fs.Int("count", 5, "runs of every benchmark (go test -count)")
		quick := fs.Bool("quick", false, "one iteration of every benchmark, to test the pipeline (the figures mean nothing)")
		goCmd := fs.String("go", "go", "the go command")
		out := fs.String("out", "", "write the results to this JSON file, or to the machine's file in this directory (a path ending in /)")
		python := new(string)
		if args[0] == "compare" {
			python = fs.String("python", "/usr/bin/python3", "the Python interpreter of the peers (with numpy, torch, sklearn)")
		}
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if *count < 1 {
			return fmt.Errorf("-count %d: want at least 1", *count)
		}
		if mod, err := os.ReadFile("go.mod"); err != nil || !bytes.HasPrefix(mod, []byte("module github.com/obskit/obskit\n")) {
			return errors.New("run from the root of the obskit repository (make bench and make compare do)")
		}
		r, err := measure(ctx, *goCmd, *python, *count, *quick, stdout)
		if *out != "" {
			path, serr := r.save(*out)
			if serr != nil {
				return serr
			}
			fmt.Fprintf(stdout, "results written to %s\n", path)
		}
		return err
	case "report":
		in := fs.String("in", "bench/results", "the results file, or a directory of them (one per machine)")
		doc := fs.String("doc", "docs/performance.md", "the document whose generated section is rewritten (empty: none)")
		charts := fs.String("charts", "docs", "the directory of the charts, performance-<machine>.png (empty: none)")
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

// measure runs the suite, with the peers of python unless it is empty, and
// prints the tables. The error reports failed go test runs; the results are
// complete otherwise.
func measure(ctx context.Context, goCmd, python string, count int, quick bool, stdout io.Writer) (*Results, error) {
	start := time.Now()
	r := &Results{Date: start, Count: count, Quick: quick}
	stopLoad := sampleLoad(5 * time.Second)
	r.Machine = readMachine(ctx, goCmd)
	fmt.Fprintf(stdout, "Machine: %s\n", r.Machine)
	var env []string
	if python != "" {
		var err error
		if r.Python, r.Skipped, env, err = startPeers(ctx, python); err != nil {
			r.Skipped = []Skip{{everyPeer, err.Error()}}
		}
	}
	s, failures := Samples{}, []string(nil)
	for _, g := range goRuns {
		args := g.args(count, quick)
		line := strings.Join(append(env, command("go", args)), " ")
		r.Commands = append(r.Commands, line)
		fmt.Fprintf(stdout, "\n$ %s\n", line)
		var buf bytes.Buffer
		cmd := exec.CommandContext(ctx, goCmd, args...)
		cmd.Env = append(os.Environ(), env...)
		cmd.Stdout, cmd.Stderr = io.MultiWriter(stdout, &buf), os.Stderr
		err := cmd.Run()
		if perr := s.parse(&buf, g.Pkg); err == nil {
			err = perr
		}
		if err != nil {
			failures = append(failures, fmt.Sprintf("%s: %v", line, err))
		}
	}
	r.Machine.Load = stopLoad()
	r.Duration = time.Since(start).Round(time.Second).String()
	r.Benchmarks, r.Failures = s, failures
	prefix := strings.Join(env, " ")
	r.Workloads = workloads(s)
	r.Targets = evaluate(targetDefs(), s, count, prefix)
	r.Context = evaluate(contextDefs(), s, count, prefix)
	r.Tables = tables(s, count)
	var b bytes.Buffer
	section(&b, r, "", true)
	stdout.Write(b.Bytes())
	if len(failures) > 0 {
		return r, fmt.Errorf("%d go test runs failed:\n  %s", len(failures), strings.Join(failures, "\n  "))
	}
	return r, nil
}

// everyPeer names all peers, for a skip that loses them all.
const everyPeer = "all peers (NumPy, PyTorch, scikit-learn)"

// startPeers checks that python runs bench/peers.py and reads the versions of
// the peers; env is what the suite's go test runs need to start it.
func startPeers(ctx context.Context, python string) (p *PythonInfo, skipped []Skip, env []string, err error) {
	path, err := exec.LookPath(python)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("no Python interpreter %s (%v); install python3 with numpy, torch and sklearn (on Debian: apt-get install python3-numpy python3-torch python3-sklearn) or set PYTHON=", python, err)
	}
	out, err := exec.CommandContext(ctx, path, "bench/peers.py", "--versions").Output()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s bench/peers.py --versions: %v", python, err)
	}
	var v struct {
		Versions map[string]string
		Skipped  []Skip
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return nil, nil, nil, fmt.Errorf("bench/peers.py --versions printed no valid JSON: %w", err)
	}
	abs, _ := filepath.Abs(path)
	return &PythonInfo{python, v.Versions}, v.Skipped, []string{"OBSKIT_PYTHON=" + abs}, nil
}

// report draws the chart of every results file of rs into the directory
// charts and rewrites the generated section of doc, one section per machine.
func report(rs []*Results, doc, charts string) error {
	links := map[*Results]string{}
	for _, r := range rs {
		if charts == "" {
			break
		}
		path := filepath.Join(charts, "performance-"+r.Machine.Slug()+".png")
		if err := writeChart(r, path); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		rel, err := filepath.Rel(filepath.Dir(doc), path)
		if err != nil {
			rel = path
		}
		links[r] = filepath.ToSlash(rel)
	}
	if doc == "" {
		return nil
	}
	return updateDoc(doc, rs, links)
}
