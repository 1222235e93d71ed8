package augment

import (
	"fmt"
	"image"
	"math"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/imagecodec"
)

// A Filter is a resampling kernel: how the pixels of a source image are
// weighed to make one pixel of a resized one.
//
// The first six are Pillow's (Image.Resampling), with Pillow's arithmetic:
// when shrinking, the kernel is widened by the reduction factor, so that every
// source pixel counts (antialiasing). They are what torchvision's transforms
// use on PIL images, [Bilinear] by default. The four CV filters are OpenCV's
// cv::resize interpolations as MXNet's inter_method names them (1 bilinear,
// 2 bicubic, 4 lanczos4), which keep the kernel's width when shrinking, and
// MXNet's area (3), a box average; package mxnet's InterFilter maps the codes.
type Filter uint8

const (
	// Bilinear is Pillow's BILINEAR: a triangle of radius 1, widened when
	// shrinking. It is torchvision's default and the zero Filter.
	Bilinear Filter = iota
	// Nearest is Pillow's NEAREST: the source pixel under the centre of each
	// output pixel.
	Nearest
	// Bicubic is Pillow's BICUBIC: Keys' cubic with a = -0.5, radius 2.
	Bicubic
	// Lanczos is Pillow's LANCZOS: a sinc windowed by a sinc, radius 3.
	Lanczos
	// Box is Pillow's BOX: every source pixel whose centre falls in the output
	// pixel's footprint counts equally.
	Box
	// Hamming is Pillow's HAMMING: a sinc with a Hamming window, radius 1.
	Hamming

	// CVNearest is OpenCV's INTER_NEAREST: the source pixel at
	// floor(x * scale), MXNet's inter_method 0.
	CVNearest
	// CVBilinear is OpenCV's INTER_LINEAR: a triangle of radius 1 that is not
	// widened when shrinking, MXNet's inter_method 1 (its default).
	CVBilinear
	// CVBicubic is OpenCV's INTER_CUBIC: Keys' cubic with a = -0.75, radius 2,
	// not widened, MXNet's inter_method 2.
	CVBicubic
	// CVArea is OpenCV's INTER_AREA as MXNet's inter_method 3 uses it: a box
	// average when shrinking, the triangle of CVBilinear when enlarging.
	CVArea
	// CVLanczos4 is OpenCV's INTER_LANCZOS4: a sinc windowed by a sinc, radius
	// 4, not widened, MXNet's inter_method 4.
	CVLanczos4

	numFilters
)

var filterNames = [numFilters]string{
	Bilinear: "bilinear", Nearest: "nearest", Bicubic: "bicubic", Lanczos: "lanczos",
	Box: "box", Hamming: "hamming",
	CVNearest: "cv-nearest", CVBilinear: "cv-bilinear", CVBicubic: "cv-bicubic",
	CVArea: "cv-area", CVLanczos4: "cv-lanczos4",
}

// String returns the filter's name: "bilinear", "cv-area" and so on.
func (f Filter) String() string {
	if f < numFilters {
		return filterNames[f]
	}
	return fmt.Sprintf("Filter(%d)", uint8(f))
}

// ParseFilter returns the Filter named s, as [Filter.String] spells it.
func ParseFilter(s string) (Filter, error) {
	for f, name := range filterNames {
		if name == s {
			return Filter(f), nil
		}
	}
	return 0, fmt.Errorf("augment.ParseFilter: unknown filter %q", s)
}

// kernel is a filter's weight function and radius, and whether it is widened by
// the reduction factor when shrinking.
type kernel struct {
	fn        func(x float64) float64
	support   float64
	antialias bool
}

// kernelOf returns the kernel of f. Nearest and CVNearest are not kernels: the
// resampler handles them apart. CVArea's kernel depends on the direction; see
// axis.compute.
func kernelOf(f Filter) kernel {
	switch f {
	case Bilinear:
		return kernel{triangle, 1, true}
	case Bicubic:
		return kernel{cubicPIL, 2, true}
	case Lanczos:
		return kernel{lanczos3, 3, true}
	case Box, CVArea:
		return kernel{box, 0.5, true}
	case Hamming:
		return kernel{hamming, 1, true}
	case CVBilinear:
		return kernel{triangle, 1, false}
	case CVBicubic:
		return kernel{cubicCV, 2, false}
	case CVLanczos4:
		return kernel{lanczos4, 4, false}
	}
	panic(fmt.Sprintf("augment: %v has no kernel", f))
}

func box(x float64) float64 {
	if x > -0.5 && x <= 0.5 {
		return 1
	}
	return 0
}

func triangle(x float64) float64 {
	if x < 0 {
		x = -x
	}
	if x < 1 {
		return 1 - x
	}
	return 0
}

func hamming(x float64) float64 {
	if x < 0 {
		x = -x
	}
	if x == 0 {
		return 1
	}
	if x >= 1 {
		return 0
	}
	x *= math.Pi
	// Pillow spells the window's constants as C floats.
	return math.Sin(x) / x * (float64(float32(0.54)) + float64(float32(0.46))*math.Cos(x))
}

// keys is Keys' cubic convolution kernel with parameter a.
func keys(x, a float64) float64 {
	if x < 0 {
		x = -x
	}
	if x < 1 {
		return ((a+2)*x-(a+3))*x*x + 1
	}
	if x < 2 {
		return (((x-5)*x+8)*x - 4) * a
	}
	return 0
}

func cubicPIL(x float64) float64 { return keys(x, -0.5) }
func cubicCV(x float64) float64  { return keys(x, -0.75) }

func sinc(x float64) float64 {
	if x == 0 {
		return 1
	}
	x *= math.Pi
	return math.Sin(x) / x
}

func lanczos3(x float64) float64 {
	if -3 <= x && x < 3 {
		return sinc(x) * sinc(x/3)
	}
	return 0
}

func lanczos4(x float64) float64 {
	if -4 <= x && x < 4 {
		return sinc(x) * sinc(x/4)
	}
	return 0
}

// Resize resizes src to size with f, as Pillow's Image.resize does (or, for
// the CV filters, as OpenCV's cv::resize does), into dst's memory when it
// holds the result (see imagecodec.Reuse; a nil dst allocates), and returns
// the resized image, at (0, 0). With a Pillow filter the pixels are Pillow's
// exactly. It allocates its working buffers on each call (a [Pipeline] keeps
// them). It panics with a *container.ArgError for an empty src or size, or
// a filter not of this package.
func (f Filter) Resize(dst, src *imagecodec.RGB, size image.Point) *imagecodec.RGB {
	container.CheckArg(!src.Rect.Empty(), "augment.Filter.Resize", "src", src.Rect, "a non-empty image")
	container.CheckArg(size.X >= 1 && size.Y >= 1, "augment.Filter.Resize", "size", size, "at least 1x1")
	container.CheckArg(f < numFilters, "augment.Filter.Resize", "f", f, "a filter of package augment")
	dst = imagecodec.Reuse(dst, image.Rectangle{Max: size})
	var r resampler
	w, h := src.Rect.Dx(), src.Rect.Dy()
	r.prepare(&resampling{
		filter: f,
		region: image.Rect(0, 0, w, h),
		box:    [4]float64{0, 0, float64(w), float64(h)},
		out:    size,
		win:    image.Rectangle{Max: size},
	})
	r.run(view{pix: src.Pix, stride: src.Stride, w: w, h: h}, &rgbSink{v: view{pix: dst.Pix, stride: dst.Stride, w: size.X, h: size.Y}})
	return dst
}
