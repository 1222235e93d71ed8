package docs_test

// The examples of split.md and cross-validate.md.

import (
	"fmt"
	"math/rand/v2"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/subset"
)

func Example_stratifiedSplit() {
	iris := datasets.Iris() // 150 flowers, 50 per species, grouped by species
	rng := rand.New(rand.NewPCG(1, 2))

	// Train, validation and test parts, 60/20/20, every species split on its own.
	parts, err := subset.StratifiedSplit(iris, rng, 0.6, 0.2, 0.2)
	if err != nil {
		panic(err)
	}
	for k, part := range parts {
		fmt.Print([]string{"train", "validation", "test"}[k], " ", part.Nobs(), ":")
		for _, c := range subset.Classes(part) {
			fmt.Print(" ", datasets.IrisSpecies[c.Label], " ", len(c.Indices))
		}
		fmt.Println()
	}

	// A plain shuffled split leaves the species unbalanced.
	plain, _ := subset.Split(iris, rng, 0.6, 0.2, 0.2)
	fmt.Print("plain test ", plain[2].Nobs(), ":")
	for _, c := range subset.Classes(plain[2]) {
		fmt.Print(" ", datasets.IrisSpecies[c.Label], " ", len(c.Indices))
	}
	fmt.Println()
	// Output:
	// train 90: versicolor 30 virginica 30 setosa 30
	// validation 30: setosa 10 virginica 10 versicolor 10
	// test 30: virginica 10 versicolor 10 setosa 10
	// plain test 30: virginica 12 versicolor 7 setosa 11
}

// centroids is a nearest-centroid classifier of the 3 iris species.
type centroids [3][4]float64

// fitCentroids averages the measurements of each species of d.
func fitCentroids(d arraycontainer.Labeled[float64, int]) centroids {
	var sum centroids
	var n [3]float64
	for _, f := range eachobs.Obs(d) {
		for j := range 4 {
			sum[f.Y][j] += f.X.At(j)
		}
		n[f.Y]++
	}
	for c := range sum {
		for j := range sum[c] {
			sum[c][j] /= n[c]
		}
	}
	return sum
}

// accuracy returns the fraction of d that m classifies right.
func (m centroids) accuracy(d arraycontainer.Labeled[float64, int]) float64 {
	right := 0
	for _, f := range eachobs.Obs(d) {
		best, bestDist := 0, 0.0
		for c := range m {
			dist := 0.0
			for j := range 4 {
				dist += (f.X.At(j) - m[c][j]) * (f.X.At(j) - m[c][j])
			}
			if c == 0 || dist < bestDist {
				best, bestDist = c, dist
			}
		}
		if best == f.Y {
			right++
		}
	}
	return float64(right) / float64(d.Nobs())
}

func Example_crossValidate() {
	iris := datasets.Iris()
	// Five stratified folds of a shuffle: each validates on 10 flowers of
	// every species and trains on the other 120.
	folds, err := subset.StratifiedKFolds(iris, rand.New(rand.NewPCG(1, 2)), 5)
	if err != nil {
		panic(err)
	}
	mean := 0.0
	for train, val := range folds.All() {
		acc := fitCentroids(train).accuracy(val)
		fmt.Printf("train %d, validate %d: accuracy %.2f\n", train.Nobs(), val.Nobs(), acc)
		mean += acc / float64(folds.Len())
	}
	fmt.Printf("mean accuracy %.2f\n", mean)
	// Output:
	// train 120, validate 30: accuracy 0.87
	// train 120, validate 30: accuracy 0.87
	// train 120, validate 30: accuracy 0.97
	// train 120, validate 30: accuracy 1.00
	// train 120, validate 30: accuracy 0.97
	// mean accuracy 0.93
}
