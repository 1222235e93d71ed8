package gomlx_test

import (
	"fmt"
	"image"
	"log"

	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/gomlx/core/graph"

	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/imagedata"
	"github.com/obskit/obskit/index"
)

// A folder of photos (a folder per class) as a GoMLX dataset of uint8
// images, normalized in the graph: imagedata.DecodeUint8 decodes and
// augments each image into the loop's uint8 batch (channels last, GoMLX's
// layout), a quarter of the bytes of float32 batches, and gomlx.Normalize
// turns a batch into the floats torchvision's ToTensor and Normalize would
// give, here moved to channels first.
func ExampleLabeled_images() {
	backend, err := gobackend.New("")
	if err != nil {
		log.Fatal(err)
	}
	data, err := imagedata.OpenFolder("../imagedata/testdata/photos", imagedata.FolderOptions{})
	if err != nil {
		log.Fatal(err)
	}
	train := augment.New(augment.HWC,
		augment.RandomResizedCrop{Size: image.Pt(32, 32)},
		augment.RandomHorizontalFlip{})
	images := imagedata.DecodeUint8(data, train, turbo.New(imagecodec.Options{}))
	loader := eachobs.NewLoader(images, 2, eachobs.Shuffle(7), eachobs.Tail(index.Drop))
	ds, err := gomlx.Labeled(backend, "photos", loader.Iter())
	if err != nil {
		log.Fatal(err)
	}
	defer ds.Close()
	normalize, err := graph.NewExec(backend, func(x *graph.Node) *graph.Node {
		mean, std := augment.ImageNet.Mean, augment.ImageNet.Std
		return gomlx.Normalize(x, gomlx.ChannelsLast, gomlx.ChannelsFirst, 255, mean[:], std[:])
	})
	if err != nil {
		log.Fatal(err)
	}
	for b, err := range ds.Iter() {
		if err != nil {
			log.Fatal(err)
		}
		out, err := normalize.Call(b.Inputs[0]) // in a model, the first op on the input
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("input %s, label %s, normalized %s\n", b.Inputs[0].Shape(), b.Labels[0].Shape(), out[0].Shape())
		if err := b.Finalize(); err != nil {
			log.Fatal(err)
		}
	}
	// Output:
	// input (Uint8)[2, 32, 32, 3], label (Int64)[2, 1], normalized (Float32)[2, 3, 32, 32]
	// input (Uint8)[2, 32, 32, 3], label (Int64)[2, 1], normalized (Float32)[2, 3, 32, 32]
}
