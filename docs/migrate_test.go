package docs_test

// The examples of the migration pages: from-mlutils.md, from-pytorch.md and
// from-sklearn.md.

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

func Example_fromMLUtils() {
	// julia> X = Float32.(reshape(0:11, 2, 6))   # 2 features x 6 observations, column-major
	julia := []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	x, _ := arraycontainer.New(julia, []int{6, 2}, obsdim.First) // the same bytes, no copy
	y := container.FromSlice([]string{"a", "b", "a", "a", "a", "b"})
	data, _ := tuples.Zip2(x, y) // julia> data = (X, y)

	// julia> getobs(data, 1)       -- 1-based there, 0-based here
	fmt.Println(data.GetObs(0))

	// julia> splitobs(1:15; at=0.7) -- the same rounding: half to even
	parts, _ := subset.Split(subset.Iota(15), nil, 0.7)
	fmt.Println(parts[0].Nobs(), parts[1].Nobs())

	// julia> for (xb, yb) in DataLoader(data; batchsize=4, shuffle=true, partial=false)
	for b := range eachobs.Batches(data, 4, eachobs.Shuffle(1), eachobs.Tail(index.Drop)) {
		fmt.Println(b.Data.X.Shape(), b.Data.Y) // [4 2]: observations first
	}

	// julia> oversample(data, y; shuffle=false) -- the copies are random there, not here
	over, _ := subset.Oversample(data, nil, 1)
	fmt.Println(over.Indices(), tuples.Labels(over))
	// Output:
	// {[0 1] a}
	// 10 5
	// [4 2] [b b a a]
	// [0 1 2 3 4 5 1 5] [a b a a a b b b]
}

// torchSizes returns the part sizes of PyTorch's random_split for fractions:
// floor(n*f) each, then the remainder one by one from the first part.
func torchSizes(n int, fractions ...float64) []int {
	sizes := make([]int, len(fractions))
	left := n
	for i, f := range fractions {
		sizes[i] = int(math.Floor(float64(n) * f))
		left -= sizes[i]
	}
	for i := range left {
		sizes[i%len(sizes)]++
	}
	return sizes
}

func Example_fromPyTorch() {
	ds := datasets.Digits() // ds = TensorDataset(X, y)

	// train, val = random_split(ds, [0.8, 0.2], generator=g)
	parts, err := subset.Split(ds, rand.New(rand.NewPCG(1, 2)), 0.8, 0.2)
	if err != nil {
		panic(err)
	}
	train, val := parts[0], parts[1]
	fmt.Println("train", train.Nobs(), "val", val.Nobs())

	// loader = DataLoader(train, batch_size=256, shuffle=True, drop_last=True,
	//                     num_workers=2, prefetch_factor=2, generator=g)
	loader := eachobs.NewLoader(train, 256,
		eachobs.Shuffle(42), eachobs.Tail(index.Drop), eachobs.Workers(2), eachobs.Prefetch(2))
	for epoch := range 2 { // for epoch in range(2): for xb, yb in loader:
		steps := 0
		for b := range loader.Epoch(epoch) {
			xb, yb := b.Data.X, b.Data.Y // a [256 8 8] uint8 array and a []int, reused next step
			if steps == 0 {
				fmt.Println("epoch", epoch, "first batch", xb.Shape(), yb[:4])
			}
			steps++
		}
		fmt.Println("epoch", epoch, "steps", steps)
	}

	// The same fractions, other sizes: random_split floors, Split rounds half to even.
	split, _ := subset.Split(subset.Iota(10), nil, 0.35, 0.35, 0.3)
	fmt.Println("Split", split[0].Nobs(), split[1].Nobs(), split[2].Nobs(), "random_split", torchSizes(10, 0.35, 0.35, 0.3))
	// Output:
	// train 1438 val 359
	// epoch 0 first batch [256 8 8] [8 4 2 1]
	// epoch 0 steps 5
	// epoch 1 first batch [256 8 8] [4 8 5 7]
	// epoch 1 steps 5
	// Split 4 4 2 random_split [4 3 3]
}

func Example_fromSklearn() {
	iris := datasets.Iris() // X, y = load_iris(return_X_y=True)
	rng := rand.New(rand.NewPCG(1, 2))

	// X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y)
	parts, err := subset.StratifiedSplit(iris, rng, 0.75, 0.25)
	if err != nil {
		panic(err)
	}
	fmt.Println("stratified", parts[0].Nobs(), parts[1].Nobs()) // 38 of each species' 50; scikit-learn: 112/38

	// for tr, te in StratifiedKFold(n_splits=5, shuffle=True).split(X, y):
	folds, err := subset.StratifiedKFolds(iris, rng, 5)
	if err != nil {
		panic(err)
	}
	var sizes [][2]int
	for tr, te := range folds.All() {
		sizes = append(sizes, [2]int{tr.Nobs(), te.Nobs()})
	}
	fmt.Println("folds (train, test)", sizes)

	// train_test_split(range(10), test_size=0.25) gives 7/3 (the test part is
	// ceil(0.25*10)); Split rounds the first part half to even: 8/2.
	// SplitCounts reproduces any sizes exactly.
	split, _ := subset.Split(subset.Iota(10), rng, 0.75, 0.25)
	counts, _ := subset.SplitCounts(subset.Iota(10), rng, 7, 3)
	fmt.Println("Split", split[0].Nobs(), split[1].Nobs(), "SplitCounts", counts[0].Nobs(), counts[1].Nobs())
	// Output:
	// stratified 114 36
	// folds (train, test) [[120 30] [120 30] [120 30] [120 30] [120 30]]
	// Split 8 2 SplitCounts 7 3
}
