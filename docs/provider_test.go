package docs_test

// The example of provider.md.

import (
	"fmt"
	"math/rand/v2"

	"github.com/obskit/obskit/convert"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/provider"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

func Example_provider() {
	digits := datasets.Digits()
	parts, err := subset.StratifiedSplit(digits, rand.New(rand.NewPCG(1, 2)), 0.8)
	if err != nil {
		panic(err)
	}
	train := parts[0].Indices() // applied to every source by index

	// The sources: pixels as float32 in [0, 1], digits one-hot, as float32 too.
	pixels := convert.Scale(digits.X(), float32(1.0/16), 0)
	onehot, err := convert.OneHot(digits.Y(), 10, float32(1))
	if err != nil {
		panic(err)
	}
	data, _ := tuples.NewNamed([]string{"pixels"}, subset.Of(pixels, train))
	label, _ := tuples.NewNamed([]string{"digit"}, subset.Of(onehot, train))

	p, err := provider.New(data, label, 500, provider.PadWith(0),
		provider.Loop(eachobs.Shuffle(7), eachobs.Prefetch(1)))
	if err != nil {
		panic(err)
	}
	fmt.Println("provide_data:", p.ProvideData(), "provide_label:", p.ProvideLabel())

	var devices []provider.Batch[float32, float32] // reused: no allocation per batch
	for b := range p.Epoch(0) {
		devices = provider.SplitInto(devices, b, 2) // two views for two devices, no copy
		fmt.Println("batch", b.Pos.Batch, "real", b.Real, "pad", b.Pad(),
			"device 0", p.Data(devices[0], "pixels").Shape(), "device 1", p.Label(devices[1], "digit").Shape())
	}
	// Output:
	// provide_data: [{pixels [500 8 8]}] provide_label: [{digit [500 10]}]
	// batch 0 real 500 pad 0 device 0 [250 8 8] device 1 [250 10]
	// batch 1 real 500 pad 0 device 0 [250 8 8] device 1 [250 10]
	// batch 2 real 438 pad 62 device 0 [250 8 8] device 1 [250 10]
}
