// Command obskit-train trains a small network with GoMLX on the kit's batches:
// the demo of the gomlx adapter (make demo-train). See usageText.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/obskit/obskit/cmd/internal/progress"
)

func main() {
	os.Exit(cli(os.Args[1:], os.Stdout, os.Stderr))
}

const usageText = `obskit-train trains a convolutional network with GoMLX (github.com/gomlx/gomlx
v0.28, its pure-Go backend github.com/gomlx/compute/gobackend: no cgo, no GPU,
no XLA plugin to download) on batches served by obskit, and prints a report on
stdout:

  - the 1,797 handwritten digits embedded in the kit, split by class into
    training, validation and test parts;
  - 3-fold stratified cross-validation of the learning rate on the training
    part, each fold trained on batches augmented at random (a quarter of the
    images shifted by a pixel, drawn per observation from the loop's seed and
    epoch, the same whatever the prefetching);
  - training with the chosen rate, stopped early on the validation part (the
    best epoch's weights kept), and the accuracy on the test part;
  - accuracy per epoch, a PNG of the learning curves, and the share of the
    training steps' time spent waiting for data.

The model is a small CNN: the uint8 pixels normalized in the graph, two 3x3
convolutions (-filters and twice as many channels, ReLU) each followed by a 2x2
max-pool, a dense layer of -hidden ReLUs and 10 logits; Adam. From the
repository: make demo-train (ARGS="..." passes flags).

With -bench N it instead trains the same model on all the digits with GoMLX
through the adapter and with PyTorch (a DataLoader and the usual loop, the
script embedded in this binary, run by -python), alternating N rounds, and
prints the samples per second of both training loops and their waits for
data (make bench-train).

Flags:
`

var errHelp = errors.New("help requested")

// config holds the settings of one run, from the command line.
type config struct {
	seed       uint64
	rates      []float64 // learning rates the cross-validation compares
	folds      int
	cvEpochs   int // epochs of each cross-validation fit
	epochs     int // most epochs of the final training
	patience   int // epochs without a better validation accuracy before stopping
	batch      int
	hidden     int
	filters    int
	shift      float64 // probability that a training image is shifted
	prefetch   int
	workers    int
	png        string
	progress   bool
	sequential bool // the pure-Go backend runs a graph's ops one after another

	bench       int    // rounds of the comparison with PyTorch; 0: the demo
	benchEpochs int    // timed epochs of each side of a round
	python      string // the Python with PyTorch and NumPy
}

// parseFlags reads the command line; errHelp after -h, another error (already
// printed with the usage) for a bad command line.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("obskit-train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageText)
		fs.PrintDefaults()
	}
	rates := "0.003,0.01"
	fs.Uint64Var(&cfg.seed, "seed", 1, "seed of every random choice (split, folds, shuffles, augmentation, weights)")
	fs.StringVar(&rates, "rates", rates, "learning `rates` the cross-validation compares, comma-separated")
	fs.IntVar(&cfg.folds, "folds", 3, "folds of the cross-validation")
	fs.IntVar(&cfg.cvEpochs, "cv-epochs", 4, "epochs of each cross-validation fit")
	fs.IntVar(&cfg.epochs, "epochs", 30, "most epochs of the final training")
	fs.IntVar(&cfg.patience, "patience", 5, "epochs without a better validation accuracy before the final training stops")
	fs.IntVar(&cfg.batch, "batch", 32, "observations per batch")
	fs.IntVar(&cfg.hidden, "hidden", 64, "units of the dense hidden layer")
	fs.IntVar(&cfg.filters, "filters", 16, "channels of the first convolution (the second has twice as many)")
	fs.Float64Var(&cfg.shift, "shift", 0.25, "`probability` that a training image is shifted by up to a pixel (the augmentation)")
	fs.IntVar(&cfg.prefetch, "prefetch", 2, "batches the loop prepares ahead while GoMLX runs a step (eachobs.Prefetch)")
	fs.IntVar(&cfg.workers, "workers", 1, "goroutines that gather batches (eachobs.Workers)")
	fs.StringVar(&cfg.png, "png", "obskit-train.png", "`file` to write the learning curves to (PNG); empty: none")
	fs.IntVar(&cfg.bench, "bench", 0, "instead of the demo, compare the training loop's samples per second with PyTorch's over `rounds` alternating rounds")
	fs.IntVar(&cfg.benchEpochs, "bench-epochs", 5, "timed epochs of each side of a -bench round")
	fs.StringVar(&cfg.python, "python", "/usr/bin/python3", "the Python with PyTorch (and NumPy) for -bench")
	fs.BoolVar(&cfg.progress, "progress", true, "show progress bars on stderr when it is a terminal")
	fs.BoolVar(&cfg.sequential, "ops-sequential", false, "run the backend's ops one after another instead of in parallel where it can")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cfg, errHelp
		}
		return cfg, err
	}
	var err error
	switch {
	case fs.NArg() > 0:
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case cfg.bench < 0 || cfg.benchEpochs < 1:
		err = errors.New("-bench must be at least 0 and -bench-epochs at least 1")
	case cfg.folds < 2:
		err = fmt.Errorf("-folds %d: want at least 2", cfg.folds)
	case cfg.cvEpochs < 1 || cfg.epochs < 1 || cfg.patience < 1:
		err = errors.New("-cv-epochs, -epochs and -patience must be at least 1")
	case cfg.shift < 0 || cfg.shift > 1:
		err = fmt.Errorf("-shift %g: want a probability in [0, 1]", cfg.shift)
	case cfg.batch < 1 || cfg.hidden < 1 || cfg.filters < 1 || cfg.workers < 1 || cfg.prefetch < 0:
		err = errors.New("-batch, -hidden, -filters and -workers must be at least 1, -prefetch at least 0")
	}
	if err == nil {
		cfg.rates, err = parseRates(rates)
	}
	if err != nil {
		fmt.Fprintf(stderr, "obskit-train: %v (-h for help)\n", err)
		return cfg, err
	}
	return cfg, nil
}

func parseRates(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		r, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || r <= 0 {
			return nil, fmt.Errorf("-rates %q: %q is not a positive number", s, f)
		}
		out = append(out, r)
	}
	return out, nil
}

// cli runs the demo and returns the exit status: 0 after the report (or -h),
// 2 for a bad command line, 1 for any other error, printed on stderr.
func cli(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	switch {
	case errors.Is(err, errHelp):
		return 0
	case err != nil:
		return 2
	}
	if cfg.bench > 0 {
		if err := bench(cfg, stdout); err != nil {
			fmt.Fprintf(stderr, "obskit-train: -bench: %s\n", strings.ReplaceAll(err.Error(), "\n", "; "))
			return 1
		}
		return 0
	}
	p := progress.New(progress.Output(stderr, cfg.progress))
	rep, err := run(cfg, p)
	p.Stop()
	if err != nil {
		fmt.Fprintf(stderr, "obskit-train: %s\n", strings.ReplaceAll(err.Error(), "\n", "; "))
		return 1
	}
	rep.print(stdout)
	return 0
}
