package imagedata_test

import (
	"fmt"
	"image"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/imagedata"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// OpenFolder reads a folder per class as torchvision's ImageFolder does.
func ExampleOpenFolder() {
	data, err := imagedata.OpenFolder("testdata/photos", imagedata.FolderOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(data.Classes)
	for i := range data.Nobs() {
		fmt.Println(data.X().Path(i), data.Y()[i])
	}
	obs := data.GetObs(0)
	fmt.Printf("%d bytes, starting %x, label %d\n", len(obs.X), obs.X[:2], obs.Y)
	// Output:
	// [cat cup person]
	// testdata/photos/cat/chelsea.jpg 0
	// testdata/photos/cup/coffee.jpg 1
	// testdata/photos/person/astronaut.jpg 2
	// testdata/photos/person/camera.jpg 2
	// 1620 bytes, starting ffd8, label 0
}

// OpenList reads an im2rec list; the label function sets the label type, here
// int class numbers, which a stratified split takes.
func ExampleOpenList() {
	data, err := imagedata.OpenList("testdata/photos.lst", "testdata/photos", imagedata.Class)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(data.Nobs(), "images, labels", tuples.Labels(data))
	parts, err := subset.StratifiedSplit(data, rand.New(rand.NewPCG(1, 2)), 0.5)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("half of them:", tuples.Labels(parts[0]))
	// Output:
	// 4 images, labels [2 0 1 2]
	// half of them: [2]
}

// OpenRecords reads the image records of a .rec file (with its index) and
// their labels, here every label of each record.
func ExampleOpenRecords() {
	data, err := imagedata.OpenRecords("../recordio/testdata/images.rec", "../recordio/testdata/images.idx", imagedata.All)
	if err != nil {
		log.Fatal(err)
	}
	for i := range data.Nobs() {
		fmt.Printf("key %d: id %d, labels %v, %d bytes of image\n",
			data.X().File().Key(i), data.Headers[i].ID, data.Y()[i], len(data.GetObs(i).X))
	}
	// Output:
	// key 0: id 0, labels [3], 35078 bytes of image
	// key 1: id 1, labels [1 2.5 -3], 5668 bytes of image
	// key 2: id 2, labels [0], 0 bytes of image
	// key 3: id 3, labels [7], 4 bytes of image
	// key 9223372036854775807: id 18446744073709551615, labels [0.5], 1 bytes of image
	// key 4: id 4, labels [1], 16 bytes of image
}

// Decode turns a data set of encoded images into a labeled container of
// float32 images, decoded and augmented straight into the loop's batch.
func ExampleDecode() {
	data, err := imagedata.OpenFolder("testdata/photos", imagedata.FolderOptions{})
	if err != nil {
		log.Fatal(err)
	}
	// torchvision's training transform, sized for these small photos.
	train := augment.New(augment.CHW,
		augment.RandomResizedCrop{Size: image.Pt(32, 32)},
		augment.RandomHorizontalFlip{},
		augment.ImageNet)
	images := imagedata.Decode(data, train, turbo.New(imagecodec.Options{}))
	epoch := func(opts ...eachobs.Option) (batches [][]float32) {
		for b := range eachobs.Batches(images, 2, append(opts, eachobs.Shuffle(7))...) {
			fmt.Println(b.Data.X.Shape(), b.Data.Y) // the batch of images and their classes
			batches = append(batches, slices.Clone(b.Data.X.Data()))
		}
		return batches
	}
	serial := epoch()
	// Each image draws its crop and flip from its own generator: the same
	// batches with two workers.
	parallel := epoch(eachobs.Workers(2))
	fmt.Println("the same with 2 workers:", slices.EqualFunc(serial, parallel, slices.Equal))
	// Output:
	// [2 3 32 32] [0 2]
	// [2 3 32 32] [1 2]
	// [2 3 32 32] [0 2]
	// [2 3 32 32] [1 2]
	// the same with 2 workers: true
}

// DecodeUint8 gives the images as 8-bit pixels, for a trainer that
// normalizes them on the device: the same crops and flips as Decode's,
// before ToTensor and Normalize.
func ExampleDecodeUint8() {
	data, err := imagedata.OpenFolder("testdata/photos", imagedata.FolderOptions{})
	if err != nil {
		log.Fatal(err)
	}
	// Channels last, GoMLX's layout; the Normalize step is the device's.
	train := augment.New(augment.HWC,
		augment.RandomResizedCrop{Size: image.Pt(32, 32)},
		augment.RandomHorizontalFlip{},
		augment.ImageNet)
	dec := turbo.New(imagecodec.Options{})
	pixels := imagedata.DecodeUint8(data, train, dec)
	floats := imagedata.Decode(data, train, dec)
	var want []float32
	for b := range eachobs.Batches(floats, 4, eachobs.Shuffle(7)) {
		want = slices.Clone(b.Data.X.Data())
	}
	for b := range eachobs.Batches(pixels, 4, eachobs.Shuffle(7)) {
		fmt.Println(b.Data.X.Shape(), b.Data.Y) // uint8 images and their classes
		same := true
		for i, v := range b.Data.X.Data() {
			c := i % 3 // HWC: the channel is the last axis
			same = same && want[i] == (float32(v)/255-augment.ImageNet.Mean[c])/augment.ImageNet.Std[c]
		}
		fmt.Println("Decode's floats are these bytes normalized:", same)
	}
	// Output:
	// [4 32 32 3] [0 2 1 2]
	// Decode's floats are these bytes normalized: true
}

// SkipBad replaces an image that does not decode by the next one of its
// class, and records it: the loop goes on, and says which and how often.
func ExampleSkipBad() {
	root, err := os.MkdirTemp("", "photos")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	good, err := os.ReadFile("testdata/photos/cat/chelsea.jpg")
	if err != nil {
		log.Fatal(err)
	}
	for name, data := range map[string][]byte{"cat/1.jpg": good, "cat/2.jpg": good[:500], "cat/3.jpg": good, "dog/1.jpg": good} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	data, err := imagedata.OpenFolder(root, imagedata.FolderOptions{})
	if err != nil {
		log.Fatal(err)
	}
	p := augment.New(augment.CHW, augment.CenterCrop{Size: image.Pt(32, 32)})
	var skips imagedata.Skips
	images := imagedata.Decode(data, p, turbo.New(imagecodec.Options{}), imagedata.SkipBad(&skips))
	for epoch := range 2 {
		for b := range eachobs.Batches(images, 4) {
			fmt.Println("epoch", epoch, "classes", b.Data.Y)
		}
	}
	fmt.Println(skips.Count(), "skips")
	for _, s := range skips.Images() {
		fmt.Printf("image %d (%s) replaced by image %d\n", s.Index, filepath.Base(data.X().Path(s.Index)), s.With)
	}
	// Output:
	// epoch 0 classes [0 0 0 1]
	// epoch 1 classes [0 0 0 1]
	// 2 skips
	// image 1 (2.jpg) replaced by image 2
}

// NewImages decodes a container of encoded images without labels: here the
// images of a RecordIO file, for prediction, with torchvision's evaluation
// transform in channels-last layout.
func ExampleNewImages() {
	records, err := imagedata.OpenRecords("testdata/photos.rec", "testdata/photos.idx", imagedata.First)
	if err != nil {
		log.Fatal(err)
	}
	eval := augment.New(augment.HWC, augment.Resize{Size: 40}, augment.CenterCrop{Size: image.Pt(32, 32)}, augment.ImageNet)
	images := imagedata.NewImages(records.X(), eval, turbo.New(imagecodec.Options{}))
	fmt.Println(images.Nobs(), "images of shape", images.ObsShape())
	for b := range eachobs.Batches(images, 3) {
		fmt.Println(b.Data.Shape())
	}
	// Output:
	// 4 images of shape [32 32 3]
	// [3 32 32 3]
	// [1 32 32 3]
}
