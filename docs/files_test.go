package docs_test

// The example of files.md.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// writeNpy writes x.npy (1000 observations of 3 float32 features) and y.npy
// (their int64 labels, 0 or 1) into dir, as np.save would.
func writeNpy(dir string) {
	xs, ys := make([]float32, 1000*3), make([]int64, 1000)
	for i := range ys {
		xs[3*i], ys[i] = float32(i), int64(i%4/3) // one in four is labeled 1
	}
	x, _ := arraycontainer.New(xs, []int{1000, 3}, obsdim.First)
	y, _ := arraycontainer.New(ys, []int{1000}, obsdim.First)
	if err := npy.Save(filepath.Join(dir, "x.npy"), x); err != nil {
		panic(err)
	}
	if err := npy.Save(filepath.Join(dir, "y.npy"), y); err != nil {
		panic(err)
	}
}

func Example_npy() {
	dir, _ := os.MkdirTemp("", "obskit")
	defer os.RemoveAll(dir)
	writeNpy(dir)

	// The header alone says what the file holds.
	h, err := npy.Stat(filepath.Join(dir, "x.npy"))
	if err != nil {
		panic(err)
	}
	fmt.Println(h.Dtype.GoType(), h.Shape)

	// Open maps the files: it reads the headers, and pages are read when
	// first touched. The element type is the one type argument Go cannot infer.
	// There is nothing to close: the mappings live while the arrays do.
	x, err := npy.Open[float32](filepath.Join(dir, "x.npy"), obsdim.First)
	if err != nil {
		panic(err)
	}
	y, err := npy.Open[int64](filepath.Join(dir, "y.npy"), obsdim.First)
	if err != nil {
		panic(err)
	}
	labels, err := y.Scalars() // the label vector as plain values, no copy
	if err != nil {
		panic(err)
	}
	data, err := tuples.Zip2(x, labels)
	if err != nil {
		panic(err)
	}

	parts, err := subset.StratifiedSplit(data, rand.New(rand.NewPCG(1, 2)), 0.8)
	if err != nil {
		panic(err)
	}
	train, test := parts[0], parts[1]
	fmt.Print("train ", train.Nobs(), ", test ", test.Nobs(), ":")
	for _, c := range subset.Classes(test) {
		fmt.Print(" label ", c.Label, " x", len(c.Indices))
	}
	fmt.Println()
	for b := range eachobs.Batches(train, 256, eachobs.Shuffle(7)) {
		fmt.Println("batch", b.Pos.Batch, b.Data.X.Shape(), b.Data.Y[:4]) // copies in the loop's buffer
	}
	// Output:
	// float32 [1000 3]
	// train 800, test 200: label 0 x150 label 1 x50
	// batch 0 [256 3] [0 0 1 0]
	// batch 1 [256 3] [0 0 1 1]
	// batch 2 [256 3] [0 1 1 1]
	// batch 3 [32 3] [0 1 1 0]
}
