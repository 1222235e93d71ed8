package augment_test

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"os"

	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
)

// The training transform of torchvision's ImageNet recipe, applied to one
// JPEG into a slot of a batch: only the crop is decoded.
func ExampleNew() {
	train := augment.New(augment.CHW,
		augment.RandomResizedCrop{Size: image.Pt(224, 224)},
		augment.RandomHorizontalFlip{},
		augment.ImageNet)
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
	eval := augment.New(augment.HWC,
		augment.Resize{Size: 256},
		augment.CenterCrop{Size: image.Pt(224, 224)},
		augment.ImageNet)
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

// An Affine step draws each image's mapping from the output to the source:
// here a rotation by up to 15 degrees about the centre, the whole image
// scaled into a 64x48 output (OpenCV's bilinear kernel, grey outside), and
// ImageNet's means subtracted in 8-bit units.
func ExampleAffine() {
	out := image.Pt(64, 48)
	rotate := augment.Affine{Size: out, Draw: func(src image.Point, rng *rand.Rand, im *augment.AffineImage) error {
		angle := (rng.Float64()*30 - 15) * math.Pi / 180
		s := max(float64(src.X)/float64(out.X), float64(src.Y)/float64(out.Y))
		c, n := s*math.Cos(angle), s*math.Sin(angle)
		// Output pixel (x, y), from the output's centre, to the source's.
		ox, oy := float64(out.X-1)/2, float64(out.Y-1)/2
		sx, sy := float64(src.X-1)/2, float64(src.Y-1)/2
		im.Map = [6]float64{c, -n, sx - c*ox + n*oy, n, c, sy - n*ox - c*oy}
		im.Filter, im.Warp, im.Fill = augment.CVBilinear, true, 128
		im.Mean = [3]float32{123.68, 116.28, 103.53}
		return nil
	}}
	p := augment.New(augment.CHW, rotate)
	data, err := os.ReadFile("testdata/chelsea_q95_444.jpg")
	if err != nil {
		panic(err)
	}
	x := make([]float32, p.Len())
	if err := p.Apply(x, imagecodec.New(imagecodec.Options{}), "chelsea", data, rand.New(rand.NewPCG(1, 2))); err != nil {
		panic(err)
	}
	fmt.Println(p.Shape(), len(x))
	// Output:
	// [3 48 64] 9216
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
