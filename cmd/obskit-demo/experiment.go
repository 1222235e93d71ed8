package main

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/obskit/obskit/cmd/internal/progress"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// Streams of the random generators: every random choice derives from (seed,
// stream), so each step is reproducible on its own.
const (
	streamSplit uint64 = iota // the train/test split
	streamFolds               // the cross-validation folds
	streamFit                 // the shuffles of fold f's fitting loop are streamFit+f; the final fit's come after
)

func rng(seed, stream uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, stream)) }

// seedOf returns the seed of a batch loop's shuffles (eachobs.Shuffle) for
// stream, drawn from (seed, stream) like every other random choice.
func seedOf(seed, stream uint64) uint64 { return rng(seed, stream).Uint64() }

// experiment runs the kit's main job on d: a stratified train/test split,
// k-fold cross-validation of a nearest-centroid classifier on the training
// part, and a final fit on the whole training part scored on the test part.
func (d *dataset[E]) experiment(cfg config, p *progress.Progress) (*report, error) {
	data, err := tuples.Zip2(d.x, container.FromSlice(d.y)) // features and labels: a labeled tuple
	if err != nil {
		return nil, err
	}
	k := len(d.classes)
	rep := &report{
		Source:   d.source,
		Elem:     fmt.Sprintf("%T", *new(E)),
		ObsShape: d.x.ObsShape(),
		N:        data.Nobs(),
		Classes:  d.classes,
		Seed:     cfg.seed,
		Batch:    cfg.batch,
		TestPart: cfg.test,
	}

	parts, err := subset.StratifiedSplit(data, rng(cfg.seed, streamSplit), 1-cfg.test, cfg.test)
	if errors.Is(err, container.ErrEmpty) {
		return nil, fmt.Errorf("-test %v holds out no observation of the %d: the data is too small for a test (%w)", cfg.test, rep.N, err)
	}
	if err != nil {
		return nil, fmt.Errorf("train/test split: %w", err)
	}
	train, test := parts[0], parts[1]
	rep.Train, rep.Test = classSizes(train, k), classSizes(test, k)

	folds, stratified, err := chooseFolds(train, cfg)
	if err != nil {
		return nil, err
	}
	rep.Stratified = stratified
	l := newLoops(cfg.batch, d.x, k, &rep.Fit, &rep.Score)
	for f := range folds.Len() {
		tr, val := folds.Fold(f)
		bar := p.Bar(fmt.Sprintf("fold %d/%d", f+1, folds.Len()), int64(tr.Nobs()+val.Nobs()), "obs")
		m := fit(l, tr, seedOf(cfg.seed, streamFit+uint64(f)), bar)
		correct := score(l, m, val, bar)
		bar.Done()
		rep.Folds = append(rep.Folds, fold{Train: tr.Nobs(), Validate: val.Nobs(), Correct: sum(correct)})
	}

	bar := p.Bar("final", int64(train.Nobs()+test.Nobs()), "obs")
	m := fit(l, train, seedOf(cfg.seed, streamFit+uint64(folds.Len())), bar)
	rep.TestCorrect = score(l, m, test, bar)
	bar.Done()
	return rep, nil
}

// chooseFolds returns the cross-validation folds of train: stratified when
// every class of train has at least cfg.folds observations, plain shuffled
// k-fold otherwise (stratified reports which).
func chooseFolds[X, B any](train container.Batched[tuples.Pair[X, int], B], cfg config) (folds *subset.Folds[tuples.Pair[X, int], B], stratified bool, err error) {
	folds, err = subset.StratifiedKFolds(train, rng(cfg.seed, streamFolds), cfg.folds)
	stratified = err == nil
	if errors.Is(err, subset.ErrClassSize) {
		folds, err = subset.KFolds(train, rng(cfg.seed, streamFolds), cfg.folds)
	}
	if err != nil {
		return nil, false, fmt.Errorf("%d-fold cross-validation of %d training observations: %w", cfg.folds, train.Nobs(), err)
	}
	return folds, stratified, nil
}

// classSizes counts the observations of each of the k classes of c, reading
// the class codes with tuples.Labels (through the views, from the tuple's
// labels, without gathering the features).
func classSizes[E arraycontainer.Number](c labeled[E], k int) []int {
	sizes := make([]int, k)
	for _, c := range tuples.Labels(c) {
		sizes[c]++
	}
	return sizes
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}
