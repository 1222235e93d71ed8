package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/gobackend"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/cmd/internal/progress"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/transform"
	"github.com/obskit/obskit/tuples"
)

// The digits twice over: plain (the evaluations' data), and augmented (the
// training data), whose observation i is image i shifted at random. Parts of
// the data are index lists valid in both.
type data struct {
	plain     arraycontainer.Labeled[uint8, int]
	augmented container.Batched[tuples.Pair[*arraycontainer.Array[uint8], int], tuples.Pair[[]*arraycontainer.Array[uint8], []int]]
}

// shift returns the augmentation that moves an image, with probability p, by
// -1, 0 or +1 pixel in each direction, drawn from the image's generator (its
// own for each observation, epoch and seed). It works in place (GetObs gave a
// fresh copy); the border left empty is 0.
func shift(p float64) func(*arraycontainer.Array[uint8], *rand.Rand) *arraycontainer.Array[uint8] {
	return func(img *arraycontainer.Array[uint8], rng *rand.Rand) *arraycontainer.Array[uint8] {
		if rng.Float64() >= p {
			return img
		}
		move(img.Data(), rng.IntN(3)-1, rng.IntN(3)-1)
		return img
	}
}

// move shifts the 8x8 image px by dx columns and dy rows.
func move(px []uint8, dx, dy int) {
	var src [64]uint8
	copy(src[:], px)
	for y := range 8 {
		for x := range 8 {
			sy, sx := y-dy, x-dx
			v := uint8(0)
			if sy >= 0 && sy < 8 && sx >= 0 && sx < 8 {
				v = src[8*sy+sx]
			}
			px[8*y+x] = v
		}
	}
}

func loadData(cfg config) (*data, error) {
	d := datasets.Digits() // [1797 8 8] uint8 pixel counts 0..16, labels 0..9
	plain, err := tuples.Zip2(d.X(), d.Y())
	if err != nil {
		return nil, err
	}
	augmented, err := tuples.Zip2(transform.MapRand(d.X(), shift(cfg.shift)), d.Y())
	if err != nil {
		return nil, err
	}
	return &data{plain, augmented}, nil
}

// trainSet is the training dataset of the observations idx: augmented,
// reshuffled every epoch, the partial last batch dropped (one shape, one
// graph), prepared ahead while GoMLX runs the step.
func (d *data) trainSet(backend compute.Backend, cfg config, idx []int) (*gomlx.Dataset[tuples.Pair[[]*arraycontainer.Array[uint8], []int]], error) {
	l := eachobs.NewLoader(subset.Of(d.augmented, idx), cfg.batch,
		eachobs.Shuffle(cfg.seed), eachobs.Tail(index.Drop), eachobs.Prefetch(cfg.prefetch), eachobs.Workers(cfg.workers))
	return gomlx.New(backend, "train", l.Iter(), func(w *gomlx.Writer, b tuples.Pair[[]*arraycontainer.Array[uint8], []int]) {
		gomlx.Stack(w.Input(), b.X)  // [batch 8 8] uint8
		gomlx.Values(w.Label(), b.Y) // [batch 1] int64
	})
}

// evalSet is the evaluation dataset of the observations idx: one batch of
// them all, so that every observation counts once.
func (d *data) evalSet(backend compute.Backend, name string, idx []int) (*gomlx.Dataset[arraycontainer.LabeledBatch[uint8, int]], error) {
	return gomlx.Labeled(backend, name, eachobs.NewLoader(subset.Of(d.plain, idx), len(idx)).Iter())
}

// An epochResult is one line of the learning curves.
type epochResult struct {
	train, val, valLoss float64
}

// A report is what a run found.
type report struct {
	cfg                 config
	trainN, valN, testN int
	cv                  []cvResult
	rate                float64
	curve               []epochResult
	best                int // the epoch whose weights were kept, from 1
	stopped             bool
	test                float64
	steps               int
	stepTime            time.Duration
	wait                gomlx.Stats
	elapsed             time.Duration
	png                 string
}

type cvResult struct {
	rate      float64
	mean, std float64
}

// run runs the experiment, showing progress on p.
func run(cfg config, p *progress.Progress) (*report, error) {
	start := time.Now()
	opts := ""
	if cfg.sequential {
		opts = "ops_sequential"
	}
	backend, err := gobackend.New(opts)
	if err != nil {
		return nil, err
	}
	defer backend.Finalize()
	d, err := loadData(cfg)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(cfg.seed, 1))
	parts, err := subset.StratifiedSplit(d.plain, rng, 0.6, 0.2, 0.2)
	if err != nil {
		return nil, err
	}
	trainPart, valPart, testPart := parts[0], parts[1], parts[2]
	rep := &report{cfg: cfg, trainN: trainPart.Nobs(), valN: valPart.Nobs(), testN: testPart.Nobs()}

	// Cross-validation of the learning rate.
	folds, err := subset.StratifiedKFolds(trainPart, rng, cfg.folds)
	if err != nil {
		return nil, err
	}
	bar := p.Bar("cross-validation", int64(len(cfg.rates)*cfg.folds*cfg.cvEpochs), "epochs")
	best := -1.0
	for _, rate := range cfg.rates {
		var accs []float64
		f := 0
		for tr, va := range folds.All() {
			acc, err := rep.fold(backend, d, cfg, rate, uint64(f), tr.Indices(), va.Indices(), bar)
			if err != nil {
				bar.Done()
				return nil, fmt.Errorf("cross-validation, rate %g, fold %d: %w", rate, f, err)
			}
			accs = append(accs, acc)
			f++
		}
		r := cvResult{rate: rate}
		r.mean, r.std = meanStd(accs)
		rep.cv = append(rep.cv, r)
		if r.mean > best {
			best, rep.rate = r.mean, rate
		}
	}
	bar.Done()

	// The final model, stopped early on the validation part.
	bar = p.Bar("training", int64(cfg.epochs), "epochs")
	defer bar.Done()
	if err := rep.final(backend, d, cfg, trainPart.Indices(), valPart.Indices(), testPart.Indices(), bar); err != nil {
		return nil, fmt.Errorf("training: %w", err)
	}
	if cfg.png != "" {
		if err := writeCurves(rep, cfg.png); err != nil {
			return nil, fmt.Errorf("%s: %w", cfg.png, err)
		}
		rep.png = cfg.png
	}
	rep.elapsed = time.Since(start)
	return rep, nil
}

// fold trains a model at rate on the observations tr for cfg.cvEpochs and
// returns its accuracy on va.
func (rep *report) fold(backend compute.Backend, d *data, cfg config, rate float64, f uint64, tr, va []int, bar *progress.Bar) (float64, error) {
	m, err := newFit(backend, cfg, rate, cfg.seed+f)
	if err != nil {
		return 0, err
	}
	ds, err := d.trainSet(backend, cfg, tr)
	if err != nil {
		return 0, err
	}
	defer ds.Close()
	for range cfg.cvEpochs {
		if _, err := m.epoch(ds); err != nil {
			return 0, err
		}
		bar.Add(1)
	}
	rep.count(m, ds)
	val, err := d.evalSet(backend, "validation fold", va)
	if err != nil {
		return 0, err
	}
	_, acc, err := m.eval(val)
	return acc, err
}

// final trains at the chosen rate, keeps the weights of the epoch with the
// best validation accuracy, and measures them on the test part.
func (rep *report) final(backend compute.Backend, d *data, cfg config, tr, va, te []int, bar *progress.Bar) error {
	m, err := newFit(backend, cfg, rep.rate, cfg.seed)
	if err != nil {
		return err
	}
	ds, err := d.trainSet(backend, cfg, tr)
	if err != nil {
		return err
	}
	defer ds.Close()
	val, err := d.evalSet(backend, "validation", va)
	if err != nil {
		return err
	}
	bestAcc := -1.0
	var best weights
	for e := 1; e <= cfg.epochs; e++ {
		trainAcc, err := m.epoch(ds)
		if err != nil {
			return err
		}
		loss, acc, err := m.eval(val)
		if err != nil {
			return err
		}
		bar.Add(1)
		rep.curve = append(rep.curve, epochResult{train: trainAcc, val: acc, valLoss: loss})
		if acc > bestAcc {
			bestAcc, rep.best = acc, e
			if best, err = m.snapshot(); err != nil {
				return err
			}
		} else if e-rep.best >= cfg.patience {
			rep.stopped = e < cfg.epochs
			break
		}
	}
	rep.count(m, ds)
	if err := m.restore(best); err != nil {
		return err
	}
	test, err := d.evalSet(backend, "test", te)
	if err != nil {
		return err
	}
	_, rep.test, err = m.eval(test)
	return err
}

// count adds the steps of a finished fit to the report's data-wait figures.
func (rep *report) count(m *fit, ds interface{ Stats() gomlx.Stats }) {
	s := ds.Stats()
	rep.steps += s.Batches
	rep.wait.Batches += s.Batches
	rep.wait.Wait += s.Wait
	rep.wait.Fill += s.Fill
	rep.stepTime += m.steps
}

func meanStd(v []float64) (mean, std float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(v)))
}
