package main

import (
	"github.com/obskit/obskit/cmd/internal/progress"
	"math"
	"unsafe"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/eachobs"
)

// labeled is the data the classifier learns from and is scored on: a tuple of
// features and class codes, or any view of it (a split part, a fold).
type labeled[E arraycontainer.Number] = arraycontainer.Labeled[E, int]

// centroids is a nearest-centroid classifier: the model is the mean of every
// class's training observations, and an observation is predicted to belong
// to the class whose mean is nearest (squared Euclidean distance, ties to the
// lower class).
type centroids struct {
	d     int       // features per observation
	means []float64 // the mean of class c is means[c*d : (c+1)*d]
	seen  []bool    // class c had training observations; others are never predicted
}

// loops holds what every batch loop of an experiment shares.
type loops struct {
	size    int    // observations per batch
	d       int    // features per observation
	k       int    // number of classes
	fitM    *meter // where the fitting loops are measured
	scoreM  *meter // where the scoring loops are measured
	elemLen int64  // bytes per feature element
}

// newLoops returns the loops of an experiment on the features x, in batches of
// size, for k classes.
func newLoops[E arraycontainer.Number](size int, x *arraycontainer.Array[E], k int, fitM, scoreM *meter) loops {
	var zero E
	return loops{size: size, d: x.ObsLen(), k: k, fitM: fitM, scoreM: scoreM, elemLen: int64(unsafe.Sizeof(zero))}
}

// obsBytes is the number of bytes gathered per observation: its features and
// its label.
func (l loops) obsBytes() int64 {
	return int64(l.d)*l.elemLen + int64(unsafe.Sizeof(int(0)))
}

// fit returns the class means of data, summed in one batch loop over data
// shuffled from seed. The loop gathers every batch into one reused buffer
// (eachobs.Batches), so it allocates nothing per batch.
func fit[E arraycontainer.Number](l loops, data labeled[E], seed uint64, bar *progress.Bar) *centroids {
	d := l.d
	sums := make([]float64, l.k*d)
	counts := make([]int, l.k)
	for b := range timed(eachobs.Batches(data, l.size, eachobs.Shuffle(seed)), l.fitM, l.obsBytes(), bar) {
		x := rows(b.Data.X)
		for r, c := range b.Data.Y {
			sum := sums[c*d : (c+1)*d]
			for j, v := range x[r*d : (r+1)*d] {
				sum[j] += float64(v)
			}
			counts[c]++
		}
	}
	m := &centroids{d: d, means: sums, seen: make([]bool, l.k)}
	for c, n := range counts {
		if n == 0 {
			continue
		}
		m.seen[c] = true
		mean := m.means[c*d : (c+1)*d]
		for j := range mean {
			mean[j] /= float64(n)
		}
	}
	return m
}

// score predicts every observation of data in one batch loop, in order,
// and returns the number of correct predictions per class.
func score[E arraycontainer.Number](l loops, m *centroids, data labeled[E], bar *progress.Bar) (correct []int) {
	d := l.d
	correct = make([]int, l.k)
	obs := make([]float64, d) // one observation as float64, reused
	for b := range timed(eachobs.Batches(data, l.size), l.scoreM, l.obsBytes(), bar) {
		x := rows(b.Data.X)
		for r, c := range b.Data.Y {
			for j, v := range x[r*d : (r+1)*d] {
				obs[j] = float64(v)
			}
			if m.predict(obs) == c {
				correct[c]++
			}
		}
	}
	return correct
}

// predict returns the class whose mean is nearest to obs.
func (m *centroids) predict(obs []float64) int {
	best, bestDist := -1, math.Inf(1)
	for c, seen := range m.seen {
		if !seen {
			continue
		}
		dist := 0.0
		for j, mean := range m.means[c*m.d : (c+1)*m.d] {
			diff := obs[j] - mean
			dist += diff * diff
		}
		if best < 0 || dist < bestDist {
			best, bestDist = c, dist
		}
	}
	return best
}

// rows returns the elements of a batch gathered by GetObsInto: contiguous and
// row-major, observation r at [r*d, (r+1)*d).
func rows[E arraycontainer.Number](batch *arraycontainer.Array[E]) []E {
	return batch.Data()[batch.Offset() : batch.Offset()+batch.Len()]
}
