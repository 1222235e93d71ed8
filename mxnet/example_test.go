package mxnet_test

import (
	"fmt"
	"log"
	"math/rand/v2"
	"os"

	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/mxnet"
)

// NewImageRecordIter is MXNet's ImageRecordIter: MXNet's parameters as
// fields, with MXNet's defaults, and a provider of named, padded batches.
func ExampleNewImageRecordIter() {
	it := mxnet.NewImageRecordIter("../imagedata/testdata/photos.rec", [3]int{3, 32, 32}, 3)
	it.Decoder = turbo.New(imagecodec.Options{})
	it.Verbose = false
	it.Shuffle, it.Seed = true, 4
	it.Aug.RandCrop, it.Aug.RandMirror = true, true
	it.Aug.MeanR, it.Aug.MeanG, it.Aug.MeanB = 123.68, 116.28, 103.53
	p, err := it.Provider()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.ProvideData(), p.ProvideLabel())
	for b := range p.Epoch(0) {
		// round_batch: the last batch is filled from the start of the epoch.
		fmt.Println("labels", p.Label(b, "softmax_label").Data(), "padding", b.Pad())
	}
	// Output:
	// [{data [3 3 32 32]}] [{softmax_label [3]}]
	// labels [2 0 2] padding 0
	// labels [1 2 0] padding 2
}

// Parameters from a user, by MXNet's names, as keyword arguments: Set
// returns the error of a name or value it does not take, Check that of
// values out of range, each naming the parameter, so that the program
// reports them as the user's mistakes.
func ExampleImageRecordIter_Set() {
	it := mxnet.NewImageRecordIter("../imagedata/testdata/photos.rec", [3]int{3, 224, 224}, 64)
	it.Decoder = turbo.New(imagecodec.Options{})
	for _, kw := range [][2]string{{"data_shape", "(3, 32, 32)"}, {"batch_size", "2"}, {"shuffle", "True"}, {"rand_crop", "1"}, {"max_rotate_angel", "10"}} {
		if err := it.Set(kw[0], kw[1]); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println(it.Aug.DataShape, it.BatchSize, it.Shuffle, it.Aug.RandCrop)
	if err := it.Set("num_parts", "0"); err != nil {
		log.Fatal(err)
	}
	fmt.Println(it.Check())
	// Output:
	// mxnet.ImageRecordIter.Set: invalid MXNet parameter: unknown parameter "max_rotate_angel"
	// [3 32 32] 2 true true
	// mxnet.ImageRecordIter.Check: invalid MXNet parameter: num_parts 0, want >= 1
}

// Augmenter is MXNet's augmentation as a step of package augment: here a
// rotation of up to 10 degrees and a random crop of a photo, normalized by
// ImageNet's means in 8-bit units, channels first.
func ExampleAugmenter_Step() {
	aug := mxnet.NewAugmenter(3, 32, 32)
	aug.RandCrop, aug.MaxRotateAngle = true, 10
	aug.MeanR, aug.MeanG, aug.MeanB = 123.68, 116.28, 103.53
	p := augment.New(augment.CHW, aug.Step())
	data, err := os.ReadFile("../imagedata/testdata/photos/cat/chelsea.jpg")
	if err != nil {
		log.Fatal(err)
	}
	x := make([]float32, p.Len())
	if err := p.Apply(x, turbo.New(imagecodec.Options{}), "chelsea.jpg", data, rand.New(rand.NewPCG(1, 2))); err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Shape(), len(x))
	// Output:
	// [3 32 32] 3072
}
