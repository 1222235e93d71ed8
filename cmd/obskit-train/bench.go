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

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/gobackend"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/internal/cputime"
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
	CPUSeconds  float64 `json:"cpu_seconds"` // of the whole process, every thread
	WaitS       float64 `json:"wait_s"`
}

func (s side) waitShare() float64 { return s.WaitS / s.Seconds }

// perCPU is the samples per second of CPU time: on a loaded machine the wall
// clock also counts the time other processes held the cores.
func (s side) perCPU() float64 { return s.SamplesPerS * s.Seconds / s.CPUSeconds }

// cpuTime is the CPU time (user and system) the process has used so far, in
// seconds.
func cpuTime() float64 { d, _ := cputime.Process(); return d.Seconds() }

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
	backend, err := gobackend.New(opts)
	if err != nil {
		return err
	}
	defer backend.Finalize()

	torch := torchMissing(cfg.python)
	rate := cfg.rates[len(cfg.rates)-1]
	fmt.Fprintf(stdout, "obskit-train -bench: the demo's CNN (conv 3x3 %d, max-pool, conv 3x3 %d, max-pool, dense %d, 10; Adam %g), batches of %d, on all %d digits (no augmentation);\n",
		cfg.filters, 2*cfg.filters, cfg.hidden, rate, cfg.batch, x.Nobs())
	fmt.Fprintf(stdout, "each side times %d epochs after an untimed one; %d rounds, the sides alternating.\n", cfg.benchEpochs, cfg.bench)
	fmt.Fprintf(stdout, "GoMLX %s (compute %s, gobackend%s), GOMAXPROCS %d, eachobs.Prefetch(%d); PyTorch (%s) with DataLoader(shuffle, drop_last, num_workers=0), 1 and %d threads.\n",
		moduleVersion("github.com/gomlx/gomlx"), moduleVersion("github.com/gomlx/compute"), map[bool]string{true: ", ops_sequential"}[cfg.sequential], runtime.GOMAXPROCS(0), cfg.prefetch, cfg.python, runtime.GOMAXPROCS(0))
	fmt.Fprintf(stdout, "CPU %s; load %s at the start.\n\n", cpuName(), loadAvg())
	if torch != "" {
		fmt.Fprintf(stdout, "PyTorch sides skipped: %s\n\n", torch)
	}
	n := runtime.GOMAXPROCS(0)
	var rounds [][3]side // GoMLX, PyTorch 1 thread, PyTorch n threads
	for r := 1; r <= cfg.bench; r++ {
		var sides [3]side
		if sides[0], err = goSide(backend, d, cfg, rate); err != nil {
			return fmt.Errorf("round %d, GoMLX: %w", r, err)
		}
		for k, threads := range []int{1, n} {
			if torch != "" {
				break
			}
			if sides[k+1], err = torchSide(cfg, dir, script, rate, threads); err != nil {
				return fmt.Errorf("round %d, PyTorch: %w", r, err)
			}
		}
		rounds = append(rounds, sides)
	}
	for _, t := range []struct {
		title string
		rate  func(side) float64
	}{
		{"samples per second of each training loop (wall clock)", func(s side) float64 { return s.SamplesPerS }},
		{"samples per CPU second (the process's user and system time, every thread: the figure the machine's load disturbs least)", side.perCPU},
	} {
		fmt.Fprintf(stdout, "%s:\n", t.title)
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "round\tGoMLX+obskit\tPyTorch 1 thread\tPyTorch %d threads\tGo / best PyTorch\tGo wait\tPyTorch wait\t\n", n)
		var cols [4][]float64
		for r, sides := range rounds {
			g := t.rate(sides[0])
			cols[0] = append(cols[0], g)
			if torch != "" {
				fmt.Fprintf(tw, "%d\t%.0f\t-\t-\t-\t%.1f%%\t-\t\n", r+1, g, 100*sides[0].waitShare())
				continue
			}
			best := sides[1]
			if t.rate(sides[2]) > t.rate(best) {
				best = sides[2]
			}
			cols[1], cols[2] = append(cols[1], t.rate(sides[1])), append(cols[2], t.rate(sides[2]))
			cols[3] = append(cols[3], g/t.rate(best))
			fmt.Fprintf(tw, "%d\t%.0f\t%.0f\t%.0f\t%.2f\t%.1f%%\t%.1f%%\t\n", r+1, g, t.rate(sides[1]), t.rate(sides[2]),
				g/t.rate(best), 100*sides[0].waitShare(), 100*best.waitShare())
		}
		if torch != "" {
			fmt.Fprintf(tw, "median\t%.0f\t-\t-\t-\t\t\t\n", median(cols[0]))
		} else {
			fmt.Fprintf(tw, "median\t%.0f\t%.0f\t%.0f\t%.2f\t\t\t\n", median(cols[0]), median(cols[1]), median(cols[2]), median(cols[3]))
		}
		tw.Flush()
		fmt.Fprintln(stdout)
	}
	fmt.Fprintln(stdout, "(waits: share of the training loop's wall time spent getting the next batch, the write into tensors included)")
	fmt.Fprintf(stdout, "\nload %s at the end.\n", loadAvg())
	return nil
}

// goSide trains a fresh model through the adapter and times cfg.benchEpochs
// epochs after one untimed (which compiles the graph).
func goSide(backend compute.Backend, d *data, cfg config, rate float64) (side, error) {
	m, err := newFit(backend, cfg, rate, cfg.seed)
	if err != nil {
		return side{}, err
	}
	l := eachobs.NewLoader(d.plain, cfg.batch, eachobs.Shuffle(cfg.seed), eachobs.Tail(index.Drop),
		eachobs.Prefetch(cfg.prefetch), eachobs.Workers(cfg.workers))
	ds, err := gomlx.Labeled(backend, "digits", l.Iter())
	if err != nil {
		return side{}, err
	}
	defer ds.Close()
	if _, err := m.epoch(ds); err != nil {
		return side{}, err
	}
	before, start, cpu := ds.Stats(), time.Now(), cpuTime()
	for range cfg.benchEpochs {
		if _, err := m.epoch(ds); err != nil {
			return side{}, err
		}
	}
	seconds := time.Since(start).Seconds()
	cpu = cpuTime() - cpu
	after := ds.Stats()
	steps := after.Batches - before.Batches
	wait := (after.Wait + after.Fill - before.Wait - before.Fill).Seconds()
	return side{SamplesPerS: float64(steps*cfg.batch) / seconds, Steps: steps, Seconds: seconds, CPUSeconds: cpu, WaitS: wait}, nil
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
		"--batch", fmt.Sprint(cfg.batch), "--epochs", fmt.Sprint(cfg.benchEpochs), "--hidden", fmt.Sprint(cfg.hidden), "--filters", fmt.Sprint(cfg.filters),
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

// moduleVersion is the version of the module path this binary was built
// with.
func moduleVersion(path string) string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == path {
				return m.Version
			}
		}
	}
	return "(unknown version)"
}
