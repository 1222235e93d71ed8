package augment_test

import (
	"fmt"
	"image"
	"math/rand/v2"
	"os"

	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
)

// The training transform of torchvision's ImageNet recipe, applied to one
// JPEG into a slot of a batch: only the crop is decoded.
func ExampleNew() {
	train, err := augment.New(augment.CHW,
		augment.RandomResizedCrop{Size: image.Pt(224, 224)},
		augment.RandomHorizontalFlip{},
		augment.ImageNet)
	if err != nil {
		panic(err)
	}
	data, err := os.ReadFile("testdata/chelsea_q95_444.jpg")
	if err != nil {
		panic(err)
	}
	batch := make([]float32, 64*train.Len()) // 64 images, CHW each
	dec := turbo.New(imagecodec.Options{})   // libjpeg-turbo when the build has it, pure Go otherwise
	rng := rand.New(rand.NewPCG(1, 2))
	slot := batch[5*train.Len() : 6*train.Len()]
	if err := train.Apply(slot, dec, "chelsea_q95_444.jpg", data, rng); err != nil {
		panic(err)
	}
	fmt.Println(train.Shape(), train.Len())
	// Output:
	// [3 224 224] 150528
}

// The evaluation transform: Resize(256), CenterCrop(224), ToTensor and
// Normalize, here on decoded pixels (a grey image). A pixel of 128 becomes
// (128/255 - mean) / std in every channel.
func ExamplePipeline_ApplyRGB() {
	eval, err := augment.New(augment.HWC,
		augment.Resize{Size: 256},
		augment.CenterCrop{Size: image.Pt(224, 224)},
		augment.ImageNet)
	if err != nil {
		panic(err)
	}
	img := imagecodec.NewRGB(image.Rect(0, 0, 500, 375))
	for i := range img.Pix {
		img.Pix[i] = 128
	}
	out := make([]float32, eval.Len())
	if err := eval.ApplyRGB(out, img, rand.New(rand.NewPCG(0, 0))); err != nil {
		panic(err)
	}
	fmt.Println(eval.Shape())
	fmt.Printf("%.4f %.4f %.4f\n", out[0], out[1], out[2])
	// Output:
	// [224 224 3]
	// 0.0741 0.2052 0.4265
}

// RandomResizedCrop's boxes, drawn as torchvision draws them, from the
// generator given.
func ExampleRandomResizedCrop_Box() {
	rrc := augment.RandomResizedCrop{Size: image.Pt(224, 224)}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3 {
		fmt.Println(rrc.Box(image.Pt(500, 375), rng))
	}
	// Output:
	// (110,50)-(430,317)
	// (6,119)-(162,273)
	// (61,18)-(462,328)
}

// MXNet's ImageRecordIter parameters, by MXNet's names.
func ExampleMXNet_Set() {
	m := augment.NewMXNet(3, 224, 224)
	for _, kv := range [][2]string{
		{"resize", "256"}, {"rand_crop", "True"}, {"rand_mirror", "True"},
		{"max_rotate_angle", "10"}, {"mean_r", "123.68"}, {"mean_g", "116.28"}, {"mean_b", "103.53"},
	} {
		if err := m.Set(kv[0], kv[1]); err != nil {
			panic(err)
		}
	}
	p, err := augment.New(augment.CHW, m)
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Shape(), m.Resize, m.RandCrop, m.MaxRotateAngle)
	err = m.Set("max_rotate_angel", "10")
	fmt.Println(err)
	// Output:
	// [3 224 224] 256 true 10
	// augment.MXNet.Set: unknown parameter "max_rotate_angel": invalid pipeline
}

// Pillow's antialiased bilinear resize of an RGB image, here a 2x2 image to
// 1x1: the mean of its pixels.
func ExampleFilter_Resize() {
	img := imagecodec.NewRGB(image.Rect(0, 0, 2, 2))
	copy(img.Pix, []uint8{0, 0, 0, 100, 100, 100, 200, 200, 200, 255, 255, 255})
	small := augment.Bilinear.Resize(nil, img, image.Pt(1, 1))
	fmt.Println(small.Rect, small.Pix)
	// Output:
	// (0,0)-(1,1) [139 139 139]
}
