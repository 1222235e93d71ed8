package obskit_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/convert"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// Softmax regression on the embedded handwritten digits, the kit's main job end
// to end: a stratified train/validation/test split, 5-fold cross-validation of
// the learning rate on the training part, and shuffled batches whose uint8
// pixels become float32 in [0, 1] as they are gathered. Everything but the
// model's arithmetic (the functions fit, step and accuracy) is data handling,
// and it spells no type argument, asserts no type and converts nothing by hand.
func Example_softmax() {
	digits := datasets.Digits()                               // [1797 8 8] uint8 pixels 0..16, labels 0..9
	x, err := digits.X().Reshape([]int{-1, 64}, obsdim.First) // [1797 64], no copy
	check(err)
	data, err := tuples.Zip2(convert.Scale(x, float32(1.0/16), 0), digits.Y())
	check(err)
	rng := rand.New(rand.NewPCG(1, 2))
	parts, err := subset.StratifiedSplit(data, rng, 0.6, 0.2, 0.2)
	check(err)
	train, val, test := parts[0], parts[1], parts[2]
	folds, err := subset.StratifiedKFolds(train, rng, 5)
	check(err)

	best, bestAcc := 0.0, 0.0
	for _, lr := range []float64{0.01, 0.1, 1} {
		acc := 0.0
		for tr, va := range folds.All() {
			acc += accuracy(fit(tr, lr), va) / float64(folds.Len())
		}
		fmt.Printf("learning rate %-4v cross-validated accuracy %.2f\n", lr, acc)
		if acc > bestAcc {
			best, bestAcc = lr, acc
		}
	}
	m := fit(train, best)
	fmt.Printf("train %d, validation %.2f, test %.2f\n", train.Nobs(), accuracy(m, val), accuracy(m, test))
	// Output:
	// learning rate 0.01 cross-validated accuracy 0.87
	// learning rate 0.1  cross-validated accuracy 0.91
	// learning rate 1    cross-validated accuracy 0.96
	// train 1078, validation 0.96, test 0.96
}

// fit fits a model on d in 10 shuffled epochs of batches of 32.
func fit(d arraycontainer.Labeled[float32, int], lr float64) *model {
	m := new(model)
	for epoch := range 10 {
		for b := range eachobs.Batches(d, 32, eachobs.Shuffle(uint64(epoch))) {
			m.step(b.Data, lr)
		}
	}
	return m
}

// accuracy returns the fraction of d that m classifies right.
func accuracy(m *model, d arraycontainer.Labeled[float32, int]) float64 {
	right := 0
	for b := range eachobs.Batches(d, 256) {
		for i, y := range b.Data.Y {
			if p := m.predict(b.Data.X.Data()[i*64 : (i+1)*64]); argmax(p[:]) == y {
				right++
			}
		}
	}
	return float64(right) / float64(d.Nobs())
}

// model is softmax regression: 10 classes of 64 features.
type model struct {
	w [10][64]float32
	b [10]float32
}

func (m *model) predict(x []float32) (p [10]float32) {
	top := float32(math.Inf(-1))
	for c := range p {
		z := m.b[c]
		for f, v := range x {
			z += m.w[c][f] * v
		}
		p[c], top = z, max(top, z)
	}
	sum := float32(0)
	for c := range p {
		p[c] = float32(math.Exp(float64(p[c] - top)))
		sum += p[c]
	}
	for c := range p {
		p[c] /= sum
	}
	return p
}

// step takes one gradient step of the cross-entropy on a batch.
func (m *model) step(b arraycontainer.LabeledBatch[float32, int], lr float64) {
	var gw [10][64]float32
	var gb [10]float32
	for i, y := range b.Y {
		x := b.X.Data()[i*64 : (i+1)*64]
		p := m.predict(x)
		p[y]--
		for c := range p {
			gb[c] += p[c]
			for f, v := range x {
				gw[c][f] += p[c] * v
			}
		}
	}
	scale := float32(lr) / float32(len(b.Y))
	for c := range gb {
		m.b[c] -= scale * gb[c]
		for f := range gw[c] {
			m.w[c][f] -= scale * gw[c][f]
		}
	}
}

func argmax(p []float32) int {
	k := 0
	for c, v := range p {
		if v > p[k] {
			k = c
		}
	}
	return k
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}
