package main

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// naiveCentroids is the reference classifier: one observation at a time with
// GetObs, in data order.
func naiveCentroids[E arraycontainer.Number](x *arraycontainer.Array[E], y []int, train []int, k int) (means [][]float64) {
	means = make([][]float64, k)
	counts := make([]int, k)
	for _, i := range train {
		obs := x.GetObs(i).Clone().Data()
		if means[y[i]] == nil {
			means[y[i]] = make([]float64, len(obs))
		}
		for j, v := range obs {
			means[y[i]][j] += float64(v)
		}
		counts[y[i]]++
	}
	for c := range means {
		for j := range means[c] {
			means[c][j] /= float64(counts[c])
		}
	}
	return means
}

// naiveCorrect counts, per class, the observations of val whose nearest mean
// (by a plain loop over the classes) is their own class.
func naiveCorrect[E arraycontainer.Number](x *arraycontainer.Array[E], y []int, val []int, means [][]float64) []int {
	correct := make([]int, len(means))
	for _, i := range val {
		obs := x.GetObs(i).Clone().Data()
		best, bestDist := -1, 0.0
		for c, mean := range means {
			if mean == nil {
				continue
			}
			dist := 0.0
			for j, v := range obs {
				dist += (float64(v) - mean[j]) * (float64(v) - mean[j])
			}
			if best < 0 || dist < bestDist {
				best, bestDist = c, dist
			}
		}
		if best == y[i] {
			correct[y[i]]++
		}
	}
	return correct
}

// gotMeans returns the class means of m, nil for a class it never saw.
func gotMeans(m *centroids) [][]float64 {
	means := make([][]float64, len(m.seen))
	for c, seen := range m.seen {
		if seen {
			means[c] = m.means[c*m.d : (c+1)*m.d]
		}
	}
	return means
}

// checkAgainstNaive fits and scores with the batch loops, in every batch size,
// on random training and validation index lists (some classes left out of
// training when drop says so), and compares with the naive classifier.
func checkAgainstNaive[E arraycontainer.Number](t *testing.T, x *arraycontainer.Array[E], y []int, k int, drop func(class int) bool, opt cmp.Option) {
	t.Helper()
	data, err := tuples.Zip2(x, container.FromSlice(y))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 3 {
		perm := rng.Perm(x.Nobs())
		cut := x.Nobs() * 3 / 4
		var train []int
		for _, i := range perm[:cut] {
			if !drop(y[i]) {
				train = append(train, i)
			}
		}
		val := perm[cut:]
		wantMeans := naiveCentroids(x, y, train, k)
		wantCorrect := naiveCorrect(x, y, val, wantMeans)
		for _, size := range []int{1, 7, 64, len(perm)} {
			var fm, sm meter
			l := newLoops(size, x, k, &fm, &sm)
			m := fit(l, subset.Of(data, train), seedOf(uint64(trial), uint64(size)), nil)
			if diff := cmp.Diff(wantMeans, gotMeans(m), opt); diff != "" {
				t.Fatalf("trial %d, batches of %d: fit means mismatch (-want +got):\n%s", trial, size, diff)
			}
			if diff := cmp.Diff(wantCorrect, score(l, m, subset.Of(data, val), nil)); diff != "" {
				t.Errorf("trial %d, batches of %d: score mismatch (-want +got):\n%s", trial, size, diff)
			}
			if fm.Obs != len(train) || sm.Obs != len(val) {
				t.Errorf("trial %d, batches of %d: meters counted %d and %d observations, want %d and %d", trial, size, fm.Obs, sm.Obs, len(train), len(val))
			}
		}
	}
}

func TestFitScoreAgainstNaive(t *testing.T) {
	keepAll := func(int) bool { return false }
	t.Run("digits", func(t *testing.T) {
		d := datasets.Digits()
		// Integer pixels sum exactly in float64: the means are equal whatever
		// the order of the shuffled batches.
		checkAgainstNaive(t, d.X(), d.Y(), 10, keepAll, cmpopts.EquateEmpty())
	})
	t.Run("digits with classes missing from training", func(t *testing.T) {
		d := datasets.Digits()
		checkAgainstNaive(t, d.X(), d.Y(), 10, func(c int) bool { return c >= 7 }, cmpopts.EquateEmpty())
	})
	t.Run("iris", func(t *testing.T) {
		d := datasets.Iris()
		checkAgainstNaive(t, d.X(), d.Y(), 3, keepAll, cmpopts.EquateApprox(0, 1e-12))
	})
}

// The loops reuse one batch buffer: fitting and scoring allocate no more with
// many batches than with few, so nothing is allocated per batch.
func TestNoAllocationPerBatch(t *testing.T) {
	d := datasets.Digits()
	train := subset.Range(d, 0, 1500)
	val := subset.Range(d, 1500, 1797)
	allocs := func(size int) (fitAllocs, scoreAllocs float64) {
		var fm, sm meter
		l := newLoops(size, d.X(), 10, &fm, &sm)
		m := fit(l, train, 1, nil)
		fitAllocs = testing.AllocsPerRun(5, func() { fit(l, train, 1, nil) })
		scoreAllocs = testing.AllocsPerRun(5, func() { score(l, m, val, nil) })
		return fitAllocs, scoreAllocs
	}
	fitFew, scoreFew := allocs(500) // 3 and 1 batches
	fitMany, scoreMany := allocs(4) // 375 and 75 batches
	// 125 times the batches must not cost more allocations: one per batch
	// would be 372 more per fit and 74 more per score. The counts move by a
	// few either way between runs under -race (45 / 40 with 3 and 1 batches,
	// 40 / 41 with 375 and 75, in one run): the runtime's own, per loop, not
	// per batch; and a loop's argument checks box a batch size or count from
	// 256 up into an interface. A margin of 8 tells the two apart.
	const margin = 8
	if fitMany > fitFew+margin || scoreMany > scoreFew+margin {
		t.Errorf("allocations per fit / score: %v / %v with batches of 500, %v / %v with batches of 4: the loops allocate per batch",
			fitFew, scoreFew, fitMany, scoreMany)
	}
}
