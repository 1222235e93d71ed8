package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

//go:embed torch_train.py
var torchScript []byte

// A side is one measured training run: samples per second of the training loop
// (steps and the waits for data between them) and the share of that time
// spent waiting for the next batch.
type side struct {
	SamplesPerS float64 `json:"samples_per_s"`
	Steps       int     `json:"steps"`
	Seconds     float64 `json:"seconds"`
	WaitS       float64 `json:"wait_s"`
}

func (s side) waitShare() float64 { return s.WaitS / s.Seconds }

// bench trains the demo's model on all the digits, plain, with the chosen
// rate, once with GoMLX through the adapter and once with PyTorch's DataLoader
// and loop, alternating, cfg.bench rounds, and prints both sides' samples per
// second, their ratio and their waits for data, run by run and as medians.
func bench(cfg config, stdout io.Writer) error {
	dir, err := os.MkdirTemp("", "obskit-train-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	d, err := loadData(cfg)
	if err != nil {
		return err
	}
	digits := datasets.Digits() // as d.plain holds them
	x, y := digits.X(), digits.Y()
	labels := make([]int64, len(y))
	for i, v := range y {
		labels[i] = int64(v)
	}
	ya, err := arraycontainer.New(labels, []int{len(labels)}, obsdim.First)
	if err != nil {
		return err
	}
	script := filepath.Join(dir, "torch_train.py")
	for _, w := range []error{
		npy.Save(filepath.Join(dir, "x.npy"), x),
		npy.Save(filepath.Join(dir, "y.npy"), ya),
		os.WriteFile(script, torchScript, 0o644),
	} {
		if w != nil {
			return w
		}
	}
	opts := ""
	if cfg.sequential {
		opts = "ops_sequential"
	}
	backend, err := simplego.New(opts)
	if err != nil {
		return err
	}
	defer backend.Finalize()

	torch := torchMissing(cfg.python)
	rate := cfg.rates[len(cfg.rates)-1]
	fmt.Fprintf(stdout, "obskit-train -bench: the demo's perceptron (64-%d-10, Adam %g), batches of %d, on all %d digits (no augmentation);\n",
		cfg.hidden, rate, cfg.batch, x.Nobs())
	fmt.Fprintf(stdout, "each side times %d epochs after an untimed one; %d rounds, the sides alternating.\n", cfg.benchEpochs, cfg.bench)
	fmt.Fprintf(stdout, "GoMLX %s (simplego%s), GOMAXPROCS %d, eachobs.Prefetch(%d); PyTorch (%s) with DataLoader(shuffle, drop_last, num_workers=0), 1 and %d threads.\n",
		gomlxVersion(), map[bool]string{true: ", ops_sequential"}[cfg.sequential], runtime.GOMAXPROCS(0), cfg.prefetch, cfg.python, runtime.GOMAXPROCS(0))
	fmt.Fprintf(stdout, "CPU %s; load %s at the start.\n\n", cpuName(), loadAvg())
	if torch != "" {
		fmt.Fprintf(stdout, "PyTorch sides skipped: %s\n\n", torch)
	}
	n := runtime.GOMAXPROCS(0)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "round\tGoMLX+obskit\tPyTorch 1 thread\tPyTorch %d threads\tGo / best PyTorch\tGo wait\tPyTorch wait\t\n", n)
	var gs, t1s, tns, ratios []float64
	for r := 1; r <= cfg.bench; r++ {
		g, err := goSide(backend, d, cfg, rate)
		if err != nil {
			return fmt.Errorf("round %d, GoMLX: %w", r, err)
		}
		gs = append(gs, g.SamplesPerS)
		if torch != "" {
			fmt.Fprintf(tw, "%d\t%.0f\t-\t-\t-\t%.1f%%\t-\t\n", r, g.SamplesPerS, 100*g.waitShare())
			continue
		}
		t1, err := torchSide(cfg, dir, script, rate, 1)
		if err != nil {
			return fmt.Errorf("round %d, PyTorch: %w", r, err)
		}
		tn, err := torchSide(cfg, dir, script, rate, n)
		if err != nil {
			return fmt.Errorf("round %d, PyTorch: %w", r, err)
		}
		best := t1
		if tn.SamplesPerS > best.SamplesPerS {
			best = tn
		}
		t1s, tns = append(t1s, t1.SamplesPerS), append(tns, tn.SamplesPerS)
		ratios = append(ratios, g.SamplesPerS/best.SamplesPerS)
		fmt.Fprintf(tw, "%d\t%.0f\t%.0f\t%.0f\t%.2f\t%.1f%%\t%.1f%%\t\n", r, g.SamplesPerS, t1.SamplesPerS, tn.SamplesPerS,
			g.SamplesPerS/best.SamplesPerS, 100*g.waitShare(), 100*best.waitShare())
	}
	if torch != "" {
		fmt.Fprintf(tw, "median\t%.0f\t-\t-\t-\t\t\t\n", median(gs))
	} else {
		fmt.Fprintf(tw, "median\t%.0f\t%.0f\t%.0f\t%.2f\t\t\t\n", median(gs), median(t1s), median(tns), median(ratios))
	}
	tw.Flush()
	fmt.Fprintln(stdout, "(samples per second of each training loop; waits: share of the loop's time spent getting the next batch)")
	fmt.Fprintf(stdout, "\nload %s at the end.\n", loadAvg())
	return nil
}

// goSide trains a fresh model through the adapter and times cfg.benchEpochs
// epochs after one untimed (which compiles the graph).
func goSide(backend backends.Backend, d *data, cfg config, rate float64) (side, error) {
	m, err := newFit(backend, cfg, rate, cfg.seed)
	if err != nil {
		return side{}, err
	}
	l := eachobs.NewLoader(d.plain, cfg.batch, eachobs.Shuffle(cfg.seed), eachobs.Tail(index.Drop),
		eachobs.Prefetch(cfg.prefetch), eachobs.Workers(cfg.workers))
	ds, err := gomlx.Labeled("digits", l)
	if err != nil {
		return side{}, err
	}
	defer ds.Close()
	if _, err := m.epoch(ds); err != nil {
		return side{}, err
	}
	before, start := ds.Stats(), time.Now()
	for range cfg.benchEpochs {
		if _, err := m.epoch(ds); err != nil {
			return side{}, err
		}
	}
	seconds := time.Since(start).Seconds()
	after := ds.Stats()
	steps := after.Batches - before.Batches
	wait := (after.Wait + after.Fill - before.Wait - before.Fill).Seconds()
	return side{SamplesPerS: float64(steps*cfg.batch) / seconds, Steps: steps, Seconds: seconds, WaitS: wait}, nil
}

// torchMissing says why python cannot run the PyTorch side (no such program,
// no torch or numpy module), or returns "" when it can.
func torchMissing(python string) string {
	out, err := exec.Command(python, "-c", "import numpy, torch").CombinedOutput()
	if err == nil {
		return ""
	}
	msg := strings.TrimSpace(string(out))
	if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
		msg = msg[i+1:] // the exception's line of a traceback
	}
	if msg == "" {
		msg = err.Error()
	}
	return fmt.Sprintf("%s cannot import torch and numpy (%s); install Debian's python3-torch or pass -python", python, msg)
}

// torchSide runs the PyTorch script and reads its JSON line.
func torchSide(cfg config, dir, script string, rate float64, threads int) (side, error) {
	cmd := exec.Command(cfg.python, script,
		"--x", filepath.Join(dir, "x.npy"), "--y", filepath.Join(dir, "y.npy"),
		"--batch", fmt.Sprint(cfg.batch), "--epochs", fmt.Sprint(cfg.benchEpochs), "--hidden", fmt.Sprint(cfg.hidden),
		"--rate", fmt.Sprint(rate), "--threads", fmt.Sprint(threads), "--seed", fmt.Sprint(cfg.seed))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return side{}, fmt.Errorf("%s %s: %v: %s", cfg.python, script, err, strings.TrimSpace(stderr.String()))
	}
	var s side
	if err := json.Unmarshal(out, &s); err != nil {
		return side{}, fmt.Errorf("%s printed %q: %w", script, out, err)
	}
	return s, nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// cpuName is the model name, family and model of the first CPU in
// /proc/cpuinfo, or "unknown".
func cpuName() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	f := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok {
			if k = strings.TrimSpace(k); f[k] == "" {
				f[k] = strings.TrimSpace(v)
			}
		}
	}
	if f["model name"] == "" {
		return "unknown"
	}
	return fmt.Sprintf("%s (family %s model %s), %d CPUs", f["model name"], f["cpu family"], f["model"], runtime.NumCPU())
}

// loadAvg is the 1, 5 and 15 minutes load averages from /proc/loadavg.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}

// gomlxVersion is the version of GoMLX this binary was built with.
func gomlxVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == "github.com/gomlx/gomlx" {
				return m.Version
			}
		}
	}
	return "(unknown version)"
}
