package augment_test

import (
	"fmt"
	"image"
	"log"
	"math/rand/v2"

	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/imagecodec"
)

// The 8-bit output of a pipeline: the same crop and flip as its float32
// output, as bytes, for a loader that normalizes on the training device.
// Here a 4x2 image is centre-cropped to 2x2 and mirrored, in HWC; the float32
// output of the same draws is ToTensor's v/255 of each byte.
func ExamplePipeline_ApplyRGBUint8() {
	img := &imagecodec.RGB{Stride: 12, Rect: image.Rect(0, 0, 4, 2), Pix: []uint8{
		0, 0, 0, 10, 20, 30, 40, 50, 60, 0, 0, 0,
		0, 0, 0, 70, 80, 90, 100, 110, 120, 0, 0, 0,
	}}
	p := augment.New(augment.HWC, augment.CenterCrop{Size: image.Pt(2, 2)}, augment.RandomHorizontalFlip{P: 1})
	pixels := make([]uint8, p.Len())
	if err := p.ApplyRGBUint8(pixels, img, rand.New(rand.NewPCG(1, 2))); err != nil {
		log.Fatal(err)
	}
	floats := make([]float32, p.Len())
	if err := p.ApplyRGB(floats, img, rand.New(rand.NewPCG(1, 2))); err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Shape(), pixels)
	fmt.Printf("%.4f\n", floats[:3])
	// Output:
	// [2 2 3] [40 50 60 10 20 30 100 110 120 70 80 90]
	// [0.1569 0.1961 0.2353]
}
