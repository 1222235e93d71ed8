package subset_test

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/obskit/obskit/subset"
)

const benchN = 10_000_000

// BenchmarkShuffled builds a shuffled 80/20 split and the 10 folds (every
// training and validation view) of 10,000,000 observations, each beside rand.Perm
// of the same size ([besidePerm]); the issue asks for kit/perm at most 2.
func BenchmarkShuffled(b *testing.B) {
	src := subset.Iota(benchN)
	for _, bc := range []struct {
		name  string
		build func(rng *rand.Rand) error
	}{
		{"Split", func(rng *rand.Rand) error {
			_, err := subset.Split(src, rng, 0.8)
			return err
		}},
		{"KFolds", func(rng *rand.Rand) error {
			fs, err := subset.KFolds(src, rng, 10)
			if err != nil {
				return err
			}
			for train, val := range fs.All() {
				if train.Nobs()+val.Nobs() != benchN {
					return errors.New("fold does not cover the data")
				}
			}
			return nil
		}},
	} {
		b.Run(bc.name, func(b *testing.B) { besidePerm(b, benchN, bc.build) })
	}
}

// besidePerm runs build and rand.Perm(n) in every iteration, in alternating
// order so that neither always pays for the other's garbage and both see the
// same machine load, and reports each one's time (kit-ns, perm-ns) and their
// ratio (kit/perm).
func besidePerm(b *testing.B, n int, build func(rng *rand.Rand) error) {
	rng := rand.New(rand.NewPCG(1, 2))
	var perm, kit time.Duration
	var err error
	b.ReportAllocs()
	timed := func(f func()) time.Duration {
		t := time.Now()
		f()
		return time.Since(t)
	}
	odd := false
	for b.Loop() {
		if odd {
			kit += timed(func() { err = build(rng) })
		}
		perm += timed(func() { _ = rng.Perm(n) })
		if !odd {
			kit += timed(func() { err = build(rng) })
		}
		if err != nil {
			b.Fatal(err)
		}
		odd = !odd
	}
	b.ReportMetric(float64(perm.Nanoseconds())/float64(b.N), "perm-ns")
	b.ReportMetric(float64(kit.Nanoseconds())/float64(b.N), "kit-ns")
	b.ReportMetric(float64(kit)/float64(perm), "kit/perm")
}

// BenchmarkViewOfViews builds a 100-index view of a fold's training view of a
// shuffled view of 10,000,000 observations: bytes per op are O(100), not O(n).
func BenchmarkViewOfViews(b *testing.B) {
	fs, err := subset.KFolds(subset.Iota(benchN), rand.New(rand.NewPCG(1, 2)), 10)
	if err != nil {
		b.Fatal(err)
	}
	train, _ := fs.Fold(3)
	idx := make([]int, 100)
	for i := range idx {
		idx[i] = i * 80_000
	}
	b.ReportAllocs()
	for b.Loop() {
		v := subset.Of(subset.Range(train, 1_000_000, 9_000_000), idx)
		if v.Nobs() != 100 {
			b.Fatal("wrong length")
		}
	}
}

// BenchmarkGetObsInto gathers shuffled batches of 128 rows of 64 float32 through
// a shuffled view, beside the same gather on the slice itself (baseline).
func BenchmarkGetObsInto(b *testing.B) {
	const n, d, batch = 60_000, 64, 128
	rows := make([][d]float32, n)
	src := subset.Of(subsetSlice(rows), nil).Source()
	v := subset.Shuffle(src, rand.New(rand.NewPCG(1, 2)))
	idx := make([]int, batch)
	direct := v.Indices()[:batch] // the same rows, already mapped
	for i := range idx {
		idx[i] = i
	}
	buf := make([][d]float32, batch)
	b.Run("baseline=Slice.GetObsInto", func(b *testing.B) {
		b.SetBytes(batch * d * 4)
		b.ReportAllocs()
		for b.Loop() {
			buf = src.GetObsInto(buf, direct)
		}
	})
	b.Run("View.GetObsInto", func(b *testing.B) {
		b.SetBytes(batch * d * 4)
		b.ReportAllocs()
		for b.Loop() {
			buf = v.GetObsInto(buf, idx)
		}
	})
}

// tenClasses returns Iota(n) linked (tuples.Zip2) with n labels in 10
// interleaved classes.
func tenClasses(b *testing.B, n int) *labeledInts[int] {
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i * 7 % 10
	}
	return withLabels(b, labels)
}

// BenchmarkStratified builds a shuffled stratified 80/20 split and stratified
// 10 folds of 1,000,000 observations in 10 classes (labels linked with
// tuples.Zip2), beside rand.Perm of the same size ([besidePerm]).
func BenchmarkStratified(b *testing.B) {
	const n = 1_000_000
	data := tenClasses(b, n)
	for _, bc := range []struct {
		name  string
		build func(rng *rand.Rand) error
	}{
		{"StratifiedSplit", func(rng *rand.Rand) error {
			_, err := subset.StratifiedSplit(data, rng, 0.8)
			return err
		}},
		{"StratifiedKFolds", func(rng *rand.Rand) error {
			_, err := subset.StratifiedKFolds(data, rng, 10)
			return err
		}},
	} {
		b.Run(bc.name, func(b *testing.B) { besidePerm(b, n, bc.build) })
	}
}
