package augment

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"

	"github.com/obskit/obskit/container"
)

// Affine is a pipeline of its own, for augmentations that this package's
// torchvision steps do not spell: for each image, Draw chooses from the
// image's size and the generator an affine mapping from the output's pixels
// to the source's, the filter that resamples it, an HLS shift, a flip and a
// linear map of the values ([AffineImage]); the pipeline decodes the part of
// the image the mapping reads and resamples it once. Package mxnet's
// Augmenter, MXNet's ImageRecordIter augmentation, is such a step. An Affine
// step may follow an [ExifTranspose] and nothing else.
type Affine struct {
	// Size is the output's width and height.
	Size image.Point
	// Draw fills in im, which it is given as the identity (see
	// [AffineImage]), for a source image of size src (after the EXIF
	// orientation when the pipeline applies it), drawing every random choice
	// from rng and nothing else, so that an image's augmentation is a
	// function of the generator alone. It is called by any number of
	// goroutines at once. An error it returns, such as an image too small
	// for the augmentation, is Apply's, wrapped with the image's name.
	Draw func(src image.Point, rng *rand.Rand, im *AffineImage) error
}

func (Affine) isStep() {}

// An AffineImage is one image's augmentation, drawn by an [Affine] step's
// Draw. Draw is given the identity: Map {1, 0, 0, 0, 1, 0}, Mul {1, 1, 1},
// every other field zero (the 8-bit values, not flipped, Filter
// [Bilinear]).
type AffineImage struct {
	// Map takes an output pixel (x, y) to the source pixel (Map[0]*x +
	// Map[1]*y + Map[2], Map[3]*x + Map[4]*y + Map[5]), pixel i's centre
	// being at i (OpenCV's convention). Its values must be finite.
	Map [6]float64
	// Filter resamples the source through Map.
	Filter Filter
	// Warp samples each output pixel at its place in the source as OpenCV's
	// warpAffine does with a constant border: the kernel is not widened when
	// shrinking (nearest takes the closest pixel, area counts as bilinear)
	// and taps outside the image count as Fill. Without it, a Map without
	// rotation or shear whose output lies inside the source is resampled
	// separably, as a resize of a crop (Pillow's filters widened when
	// shrinking, as [Filter.Resize] does); any other Map is warped.
	Warp bool
	// Crop, for a Map resampled separably, stops the taps at the part of
	// the source the output covers, rounded outward: the output is that
	// crop resized on its own. Without it the taps read around it, as when
	// an image is resized and then cropped.
	Crop bool
	// Fill is the value of each channel of the pixels outside the source.
	Fill uint8
	// ShiftHLS takes every pixel of the output to OpenCV's 8-bit HLS (hue
	// in [0, 180), lightness and saturation in [0, 255]), adds HLS to its
	// hue, lightness and saturation, each clamped to its range, and brings
	// it back to RGB, as MXNet's random_h, random_l and random_s do. The
	// round trip alone changes some colours by a level, as OpenCV's does.
	ShiftHLS bool
	HLS      [3]int
	// Flip mirrors the output left to right.
	Flip bool
	// Mean, Mul and Bias map the values: the float written for the 8-bit
	// value v of channel c is (v - Mean[c])*Mul[c] + Bias[c], computed in
	// float32.
	Mean, Mul, Bias [3]float32
	// MeanImage, when not nil, takes the place of Mean: a value per channel
	// and output pixel, channels first (3*Size.Y*Size.X values), read where
	// the pixel is before the Flip, as MXNet subtracts its mean image. The
	// slice is read, not copied, and must not change while the pipeline
	// uses it.
	MeanImage []float32
}

// affine is the mapping p -> A p + b of pixel centres (OpenCV's
// convention: pixel i's centre is at i), as a00, a01, b0, a10, a11, b1.
type affine [6]float64

func (a affine) apply(x, y float64) (float64, float64) {
	return a[0]*x + a[1]*y + a[2], a[3]*x + a[4]*y + a[5]
}

// identity is the AffineImage Draw is given.
var identity = AffineImage{Map: [6]float64{1, 0, 0, 0, 1, 0}, Mul: [3]float32{1, 1, 1}}

func (a Affine) outSize() image.Point { return a.Size }

// plan draws one image's AffineImage into g.img and makes its geometry.
func (a Affine) plan(src image.Point, rng *rand.Rand, g *geomPlan) error {
	*g = geomPlan{img: identity}
	im := &g.img
	if err := a.Draw(src, rng, im); err != nil {
		return err
	}
	const op = "augment.Affine.Draw"
	for _, v := range im.Map {
		container.CheckArg(!math.IsNaN(v) && !math.IsInf(v, 0), op, "Map", im.Map, "finite values")
	}
	container.CheckArg(im.Filter < numFilters, op, "Filter", im.Filter, "a filter of package augment")
	if im.MeanImage != nil {
		container.CheckArg(len(im.MeanImage) == 3*a.Size.X*a.Size.Y, op, "len(MeanImage)", len(im.MeanImage), fmt.Sprintf("%d, 3 values per output pixel", 3*a.Size.X*a.Size.Y))
	}
	out2in := affine(im.Map)
	out := a.Size
	g.fill = im.Fill
	g.rs.out, g.rs.win, g.rs.filter, g.rs.src = out, image.Rectangle{Max: out}, im.Filter, src
	// The output's edges in the source, in Pillow's edge coordinates.
	ax, ay := out2in[0], out2in[4]
	b0 := out2in[2] + 0.5 - 0.5*ax
	b1 := out2in[5] + 0.5 - 0.5*ay
	box := [4]float64{b0, b1, b0 + ax*float64(out.X), b1 + ay*float64(out.Y)}
	separable := !im.Warp && out2in[1] == 0 && out2in[3] == 0 && ax > 0 && ay > 0 &&
		box[0] >= -1e-9 && box[1] >= -1e-9 && box[2] <= float64(src.X)+1e-9 && box[3] <= float64(src.Y)+1e-9
	if !separable {
		g.warp, g.affine = true, out2in
		return nil
	}
	reg := image.Rectangle{Max: src}
	if im.Crop {
		// The crop in the source, rounded outward.
		reg = image.Rect(int(math.Floor(box[0]+1e-9)), int(math.Floor(box[1]+1e-9)),
			int(math.Ceil(box[2]-1e-9)), int(math.Ceil(box[3]-1e-9))).Intersect(reg)
	}
	g.rs.region = reg
	g.rs.box = [4]float64{box[0] - float64(reg.Min.X), box[1] - float64(reg.Min.Y), box[2] - float64(reg.Min.X), box[3] - float64(reg.Min.Y)}
	g.scalable = true
	return nil
}

// affinePixels sets s's colour steps and sink from the image's AffineImage.
func affinePixels(s *scratch) {
	im := &s.g.img
	if im.ShiftHLS {
		s.ops = append(s.ops, colorOp{kind: adjHLS, hls: im.HLS})
	}
	s.sink.flip = im.Flip
	s.sink.mean = im.MeanImage
	if im.MeanImage != nil {
		s.sink.mul, s.sink.bias = im.Mul, im.Bias
		return
	}
	for c := range 3 {
		mean, mul, bias := im.Mean[c], im.Mul[c], im.Bias[c]
		for v := range 256 {
			s.lut[c][v] = (float32(v)-mean)*mul + bias
		}
	}
	s.sink.lut = &s.lut
}
