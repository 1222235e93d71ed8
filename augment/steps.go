package augment

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
)

// A Step is one transform of a [Pipeline], given to [New] in the order
// torchvision's Compose would apply it. The steps are the types of this
// package: the geometry ([RandomResizedCrop], [Resize] with [CenterCrop],
// [CenterCrop] alone, or an [Affine] step of its own), colour ([ColorJitter]), [RandomHorizontalFlip],
// and the conversion to floats ([Normalize], or ToTensor's [0, 1] without
// it), optionally preceded by [ExifTranspose].
type Step interface {
	isStep()
}

// RandomResizedCrop is torchvision's RandomResizedCrop: a crop of random area
// and aspect ratio, resized to Size. Ten times it draws an area fraction
// uniformly in Scale and an aspect ratio (width over height) log-uniformly in
// Ratio, and keeps the first crop that fits in the image, at a uniform random
// position; if none fits it takes the largest centred crop whose ratio is
// within Ratio. The zero values mean torchvision's defaults.
//
// In a [Pipeline] the crop is drawn from the image's header before decoding:
// only the crop is decoded, at the smallest scale that keeps it at least Size
// (a JPEG decoder's DCT scaling), as FFCV and DALI do.
type RandomResizedCrop struct {
	Size   image.Point // output width and height
	Scale  [2]float64  // area fraction range; zero: 0.08 to 1
	Ratio  [2]float64  // aspect ratio range; zero: 3/4 to 4/3
	Filter Filter      // zero: Bilinear, torchvision's default
}

// Resize is torchvision's Resize(size) with one size: the image is resized so
// that its shorter side is Size and its longer side int(Size*long/short),
// with Pillow's antialiased Filter ([Bilinear] by default). A [Pipeline]
// needs a [CenterCrop] after it, so that every image has one size.
type Resize struct {
	Size   int
	Filter Filter
}

// CenterCrop is torchvision's CenterCrop: the centred Size.X by Size.Y part,
// at offsets int(round((n - size) / 2)) (round half to even, as Python's
// round); an image smaller than Size is padded with black first, as
// torchvision pads a PIL image.
type CenterCrop struct {
	Size image.Point
}

// RandomHorizontalFlip is torchvision's RandomHorizontalFlip: the image is
// mirrored left to right with probability P (zero means torchvision's default,
// 0.5; use 1 to always mirror).
type RandomHorizontalFlip struct {
	P float64
}

// Normalize is torchvision's ToTensor followed by Normalize(mean, std): each
// 8-bit value v of channel c becomes (v/255 - Mean[c]) / Std[c], computed in
// float32 as PyTorch does, so the result is torchvision's to the last bit for
// the same pixels. Without a Normalize step a pipeline gives ToTensor's v/255.
type Normalize struct {
	Mean, Std [3]float32
}

// ImageNet is the Normalize of the ImageNet statistics every torchvision
// model is trained with.
var ImageNet = Normalize{
	Mean: [3]float32{0.485, 0.456, 0.406},
	Std:  [3]float32{0.229, 0.224, 0.225},
}

// ExifTranspose applies each image's EXIF orientation before any other step,
// as Pillow's ImageOps.exif_transpose does; without it images are used as
// stored, as torchvision uses them. It must be the first step.
type ExifTranspose struct{}

func (RandomResizedCrop) isStep()    {}
func (Resize) isStep()               {}
func (CenterCrop) isStep()           {}
func (RandomHorizontalFlip) isStep() {}
func (Normalize) isStep()            {}
func (ExifTranspose) isStep()        {}

// withDefaults returns c with torchvision's defaults for its zero fields.
func (c RandomResizedCrop) withDefaults() RandomResizedCrop {
	if c.Scale == [2]float64{} {
		c.Scale = [2]float64{0.08, 1}
	}
	if c.Ratio == [2]float64{} {
		c.Ratio = [2]float64{3.0 / 4, 4.0 / 3}
	}
	return c
}

func (c RandomResizedCrop) check() error {
	switch {
	case c.Size.X < 1 || c.Size.Y < 1:
		return fmt.Errorf("size %v, want at least 1x1", c.Size)
	case !(0 < c.Scale[0] && c.Scale[0] <= c.Scale[1]):
		return fmt.Errorf("scale %v, want 0 < min <= max", c.Scale)
	case !(0 < c.Ratio[0] && c.Ratio[0] <= c.Ratio[1]):
		return fmt.Errorf("ratio %v, want 0 < min <= max", c.Ratio)
	case c.Filter >= numFilters:
		return fmt.Errorf("filter %v", c.Filter)
	}
	return nil
}

// Box draws the crop of an image of size src, as torchvision's
// RandomResizedCrop.get_params does (with torch's generator replaced by rng).
func (c RandomResizedCrop) Box(src image.Point, rng *rand.Rand) image.Rectangle {
	c = c.withDefaults()
	width, height := src.X, src.Y
	area := float64(width * height)
	logr0, logr1 := math.Log(c.Ratio[0]), math.Log(c.Ratio[1])
	for range 10 {
		target := area * uniform(rng, c.Scale[0], c.Scale[1])
		ratio := math.Exp(uniform(rng, logr0, logr1))
		w := int(math.RoundToEven(math.Sqrt(target * ratio)))
		h := int(math.RoundToEven(math.Sqrt(target / ratio)))
		if 0 < w && w <= width && 0 < h && h <= height {
			i := rng.IntN(height - h + 1)
			j := rng.IntN(width - w + 1)
			return image.Rect(j, i, j+w, i+h)
		}
	}
	// The fallback: a centred crop.
	inRatio := float64(width) / float64(height)
	w, h := width, height
	switch {
	case inRatio < c.Ratio[0]:
		h = int(math.RoundToEven(float64(w) / c.Ratio[0]))
	case inRatio > c.Ratio[1]:
		w = int(math.RoundToEven(float64(h) * c.Ratio[1]))
	}
	i, j := (height-h)/2, (width-w)/2
	return image.Rect(j, i, j+w, i+h)
}

// uniform returns a number drawn uniformly in [lo, hi).
func uniform(rng *rand.Rand, lo, hi float64) float64 {
	return lo + (hi-lo)*rng.Float64()
}

// resizedSize returns the size torchvision's Resize(size) gives an image of
// size src: the shorter side size, the longer int(size*long/short).
func resizedSize(src image.Point, size int) image.Point {
	if src.X <= src.Y {
		return image.Pt(size, int(float64(size)*float64(src.Y)/float64(src.X)))
	}
	return image.Pt(int(float64(size)*float64(src.X)/float64(src.Y)), size)
}

// centerWindow returns, for one axis of n samples cropped to c, the first
// sample kept and where it lands in the crop: torchvision pads an axis
// shorter than the crop with (c-n)/2 samples before it, and crops a longer
// one at int(round((n-c)/2)).
func centerWindow(n, c int) (first, at int) {
	if c > n {
		return 0, (c - n) / 2
	}
	return int(math.RoundToEven(float64(n-c) / 2)), 0
}
