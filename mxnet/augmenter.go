package mxnet

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"

	"github.com/obskit/obskit/augment"
)

// Augmenter is the augmentation of MXNet's ImageRecordIter: the augmenter's
// geometry (resize, affine warp, padding, crops), its colour (random_h,
// random_s, random_l) and the iterator's normalization (mirror, mean, std,
// scale, contrast, illumination). Its fields are MXNet's parameters, named as
// Go names them (rand_crop is RandCrop), with MXNet's meanings;
// [NewAugmenter] fills in MXNet's defaults, which are not all zero, and
// [Augmenter.Set] sets a field by MXNet's name from a string, as MXNet's
// keyword arguments do. [Augmenter.Step] makes it a step of package augment,
// a pipeline of its own:
//
//	aug := mxnet.NewAugmenter(3, 224, 224)
//	aug.RandCrop, aug.RandMirror, aug.MaxRotateAngle = true, true, 10
//	p := augment.New(augment.CHW, aug.Step())
//
// The steps and their random draws are MXNet's (src/io/image_aug_default.cc,
// iter_image_recordio_2.cc), with one difference of method: MXNet resamples
// up to three times (the resize, the warp, the resize of the crop), rounding
// to 8 bits each time; the kit composes the steps into one mapping of the
// source (augment.Affine) and resamples once, with the filter inter_method
// names (for 9, auto, chosen by the whole mapping's scale; for 10, random,
// drawn once), which is faster and sharper and puts every source pixel where
// MXNet puts it. Without rotation or shear the mapping is separable: only
// the part of the image the output reads is decoded, at a reduced scale when
// the crop is at least twice the output. With them, pixels are sampled
// through the inverse mapping with OpenCV's warpAffine kernels (area counts
// as bilinear, as there), fill_value outside the image.
type Augmenter struct {
	// DataShape is data_shape: channels (3), height, width of the output.
	DataShape [3]int
	// Resize is resize: the shorter side is resized to it first (-1: no).
	Resize int
	// RandCrop is rand_crop: crops at random positions instead of centred.
	RandCrop bool
	// CropYStart and CropXStart are crop_y_start and crop_x_start (-1: not
	// set), early ImageRecordIter's fixed offsets of the final crop to
	// DataShape, used instead of a centred or random one when the image is
	// larger than DataShape along that axis.
	CropYStart, CropXStart int
	// MaxRotateAngle is max_rotate_angle: rotate by an integer number of
	// degrees drawn in [-v, v]. Rotate (rotate, -1: not set) fixes the angle
	// when positive.
	MaxRotateAngle, Rotate int
	// MaxAspectRatio is max_aspect_ratio: the aspect ratio is scaled by a
	// factor drawn in [1-v, 1+v].
	MaxAspectRatio float64
	// MaxShearRatio is max_shear_ratio: shear (x, y) to (x+m*y, y) with m
	// drawn in [-v, v].
	MaxShearRatio float64
	// MaxCropSize and MinCropSize are max_crop_size and min_crop_size (-1:
	// not set): crop a square of a side drawn in [min, max] and resize it to
	// DataShape.
	MaxCropSize, MinCropSize int
	// MaxRandomScale and MinRandomScale are max_random_scale and
	// min_random_scale: scale the image by a factor drawn in [min, max].
	MaxRandomScale, MinRandomScale float64
	// MaxImgSize and MinImgSize are max_img_size and min_img_size: bounds of
	// the width and height after the scale and rotation.
	MaxImgSize, MinImgSize float64
	// RandomH, RandomS and RandomL are random_h, random_s and random_l: add
	// to OpenCV's 8-bit hue, saturation and lightness a value drawn in
	// [-v, v] (from the weighted sum of two uniform draws MXNet uses).
	RandomH, RandomS, RandomL int
	// FillValue is fill_value: the value of the pixels the warp and the
	// padding add.
	FillValue int
	// InterMethod is inter_method: 0 nearest, 1 bilinear, 2 bicubic, 3
	// area, 4 lanczos4 (OpenCV's kernels, see [InterFilter]), 9 auto
	// (bicubic when enlarging, area when shrinking, bilinear otherwise), 10
	// random among 0 to 4.
	InterMethod int
	// Pad is pad: a border of FillValue this wide added around the image
	// after the warp.
	Pad int
	// Mirror and RandMirror are mirror and rand_mirror: flip every image, or
	// half of them.
	Mirror, RandMirror bool
	// MeanImg is the mean image of mean_img, channels first, DataShape's
	// size, or nil; when set, MeanR, MeanG and MeanB are not used.
	// [Augmenter.Set] reads it from a .npy file of float32 ([ReadMeanImg]).
	MeanImg []float32
	// MeanR, MeanG, MeanB and StdR, StdG, StdB are mean_r, mean_g, mean_b
	// and std_r, std_g, std_b, in 8-bit units: the output is
	// ((v - mean)*contrast + illumination) * Scale / std.
	MeanR, MeanG, MeanB, StdR, StdG, StdB float64
	// Scale is scale.
	Scale float64
	// MaxRandomContrast and MaxRandomIllumination are max_random_contrast
	// and max_random_illumination: contrast drawn in [1-v, 1+v] and
	// illumination in [-v, v].
	MaxRandomContrast, MaxRandomIllumination float64
}

// NewAugmenter returns MXNet's defaults for an output of channels by height
// by width: no augmentation, a centred crop, bilinear, mean 0, std 1, scale
// 1.
func NewAugmenter(channels, height, width int) Augmenter {
	return Augmenter{
		DataShape: [3]int{channels, height, width},
		Resize:    -1, CropYStart: -1, CropXStart: -1, Rotate: -1,
		MaxCropSize: -1, MinCropSize: -1,
		MaxRandomScale: 1, MinRandomScale: 1,
		MaxImgSize: 1e10, MinImgSize: 0,
		FillValue: 255, InterMethod: 1,
		StdR: 1, StdG: 1, StdB: 1, Scale: 1,
	}
}

// Step returns the augmentation as a step of package augment, a pipeline of
// its own (augment.New takes it, after an augment.ExifTranspose or alone),
// writing float32 values: the 8-bit output of augment.Pipeline.ApplyUint8 is
// not MXNet's, whose contrast, illumination and mean image are float steps
// drawn per image. Each image draws, from the generator the pipeline is
// given, MXNet's geometry, then the HLS shift, the mirror, the contrast and
// the illumination. The step keeps a copy of m, sharing MeanImg, which must
// not change while it is used. Step panics with a *container.ArgError naming
// the parameter when a value is out of range, what [Augmenter.Check] returns
// as an error.
func (m Augmenter) Step() augment.Affine {
	m.check().panicAt("mxnet.Augmenter.Step")
	return augment.Affine{Size: image.Pt(m.DataShape[2], m.DataShape[1]), Draw: m.draw}
}

// Check returns an error wrapping [ErrParam] that names the first parameter
// out of range, or of values that do not fit together (a data_shape that is
// not 3 channels, an inter_method MXNet does not have, a zero std, a
// min_crop_size above max_crop_size, a mean_img not of data_shape...), and
// nil when [Augmenter.Step] takes m. A program that takes the parameters
// from its users calls it, so that their mistakes are errors it reports.
func (m Augmenter) Check() error { return m.check().err("mxnet.Augmenter.Check") }

// check returns the first parameter out of range, or nil.
func (m *Augmenter) check() *problem {
	c, h, w := m.DataShape[0], m.DataShape[1], m.DataShape[2]
	const cInt = 1 << 31
	for _, p := range []struct {
		name string
		v    int
	}{
		{"data_shape height", h}, {"data_shape width", w}, {"resize", m.Resize}, {"crop_y_start", m.CropYStart},
		{"crop_x_start", m.CropXStart}, {"max_rotate_angle", m.MaxRotateAngle}, {"rotate", m.Rotate},
		{"max_crop_size", m.MaxCropSize}, {"min_crop_size", m.MinCropSize}, {"random_h", m.RandomH},
		{"random_s", m.RandomS}, {"random_l", m.RandomL}, {"pad", m.Pad},
	} {
		if p.v > cInt || p.v < -cInt {
			return &problem{p.name, p.v, "at most 2^31 in size (a C int, as MXNet's)"}
		}
	}
	switch {
	case c != 3:
		return &problem{"data_shape", m.DataShape, "3 channels: the kit decodes RGB"}
	case h < 1 || w < 1:
		return &problem{"data_shape", m.DataShape, "a positive height and width"}
	case !(m.InterMethod >= 0 && m.InterMethod <= 4) && m.InterMethod != 9 && m.InterMethod != 10:
		return &problem{"inter_method", m.InterMethod, "0, 1, 2, 3, 4, 9 or 10"}
	case m.StdR == 0 || m.StdG == 0 || m.StdB == 0:
		return &problem{"std_r, std_g, std_b", [3]float64{m.StdR, m.StdG, m.StdB}, "no zero"}
	case !(m.MinRandomScale > 0 && m.MinRandomScale <= m.MaxRandomScale):
		return &problem{"min_random_scale, max_random_scale", [2]float64{m.MinRandomScale, m.MaxRandomScale}, "0 < min <= max"}
	case !(m.MaxAspectRatio >= 0 && m.MaxAspectRatio < 1):
		return &problem{"max_aspect_ratio", m.MaxAspectRatio, "[0, 1)"}
	case !(m.MaxShearRatio >= 0):
		return &problem{"max_shear_ratio", m.MaxShearRatio, ">= 0"}
	case m.MaxRotateAngle < 0:
		return &problem{"max_rotate_angle", m.MaxRotateAngle, ">= 0"}
	case m.Pad < 0:
		return &problem{"pad", m.Pad, ">= 0"}
	case (m.MaxCropSize != -1 || m.MinCropSize != -1) && !(m.MinCropSize >= 1 && m.MinCropSize <= m.MaxCropSize):
		return &problem{"min_crop_size, max_crop_size", [2]int{m.MinCropSize, m.MaxCropSize}, "1 <= min <= max, or both -1"}
	case m.FillValue < 0 || m.FillValue > 255:
		return &problem{"fill_value", m.FillValue, "[0, 255]"}
	case m.RandomH < 0 || m.RandomS < 0 || m.RandomL < 0:
		return &problem{"random_h, random_s, random_l", [3]int{m.RandomH, m.RandomS, m.RandomL}, ">= 0"}
	case m.MeanImg != nil && len(m.MeanImg) != c*h*w:
		return &problem{"mean_img", fmt.Sprintf("of %d values", len(m.MeanImg)), fmt.Sprintf("%d, data_shape %v", c*h*w, m.DataShape)}
	case !(m.MaxImgSize >= 1 && m.MinImgSize >= 0 && m.MinImgSize <= m.MaxImgSize):
		return &problem{"min_img_size, max_img_size", [2]float64{m.MinImgSize, m.MaxImgSize}, "0 <= min <= max, max >= 1"}
	}
	for _, v := range []float64{m.MaxShearRatio, m.MaxRandomScale, m.MeanR, m.MeanG, m.MeanB, m.StdR, m.StdG, m.StdB,
		m.Scale, m.MaxRandomContrast, m.MaxRandomIllumination} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &problem{"max_shear_ratio, max_random_scale, mean_r, mean_g, mean_b, std_r, std_g, std_b, scale, max_random_contrast, max_random_illumination", v, "finite values"}
		}
	}
	return nil
}

// InterFilter returns the filter of MXNet's inter_method codes 0 to 4 (0
// nearest, 1 bilinear, 2 bicubic, 3 area, 4 lanczos4): OpenCV's kernels,
// augment.CVNearest to augment.CVLanczos4. The codes 9 (auto) and 10
// (random) choose per image, which [Augmenter] does. It returns false for
// any other code.
func InterFilter(code int) (augment.Filter, bool) {
	switch code {
	case 0:
		return augment.CVNearest, true
	case 1:
		return augment.CVBilinear, true
	case 2:
		return augment.CVBicubic, true
	case 3:
		return augment.CVArea, true
	case 4:
		return augment.CVLanczos4, true
	}
	return 0, false
}

// interFor is MXNet's GetInterMethod: the filter of a resampling from old to
// new sizes, drawing from rng for 10.
func (m *Augmenter) interFor(oldW, oldH, newW, newH float64, rng *rand.Rand) augment.Filter {
	code := m.InterMethod
	switch code {
	case 9:
		switch {
		case newW > oldW && newH > oldH:
			code = 2
		case newW < oldW && newH < oldH:
			code = 3
		default:
			code = 1
		}
	case 10:
		code = rng.IntN(5)
	}
	f, _ := InterFilter(code)
	return f
}

// affine is the mapping p -> A p + b of pixel centres (OpenCV's
// convention: pixel i's centre is at i), as a00, a01, b0, a10, a11, b1.
type affine [6]float64

// then returns the mapping that applies a, then n... as composition n∘a:
// p -> n(a(p)).
func (a affine) then(n affine) affine {
	return affine{
		n[0]*a[0] + n[1]*a[3], n[0]*a[1] + n[1]*a[4], n[0]*a[2] + n[1]*a[5] + n[2],
		n[3]*a[0] + n[4]*a[3], n[3]*a[1] + n[4]*a[4], n[3]*a[2] + n[4]*a[5] + n[5],
	}
}

// resizeMap is OpenCV's cv::resize mapping from the pixels of an image of
// size to (destination) to those of size from: x -> (x+0.5)*from/to - 0.5.
func resizeMap(from, to image.Point) affine {
	sx, sy := float64(from.X)/float64(to.X), float64(from.Y)/float64(to.Y)
	return affine{sx, 0, 0.5*sx - 0.5, 0, sy, 0.5*sy - 0.5}
}

// draw draws one image's augmentation: the geometry (the composed mapping
// from the output's pixels to the source's, and its filter), then the colour
// and normalization, in MXNet's order: the HLS shift (with the augmenter),
// then the mirror, the contrast and the illumination (with the iterator).
func (m Augmenter) draw(src image.Point, rng *rand.Rand, im *augment.AffineImage) error {
	// Each step maps its output's pixels to its input's; out2in accumulates
	// the mapping from the current image to the source.
	out2in := affine{1, 0, 0, 0, 1, 0}
	cur := src
	if m.Resize > 0 {
		var next image.Point
		if src.Y > src.X {
			next = image.Pt(m.Resize, m.Resize*src.Y/src.X)
		} else {
			next = image.Pt(m.Resize*src.X/src.Y, m.Resize)
		}
		out2in = resizeMap(cur, next).then(out2in)
		cur = next
	}
	minAR, maxAR := 1-m.MaxAspectRatio, 1+m.MaxAspectRatio
	warped := false
	if m.MaxRotateAngle > 0 || m.MaxShearRatio > 0 || m.Rotate > 0 ||
		m.MaxRandomScale != 1 || m.MinRandomScale != 1 || minAR != 1 || maxAR != 1 ||
		m.MaxImgSize != 1e10 || m.MinImgSize != 0 {
		s := float32(rng.Float64())*float32(m.MaxShearRatio)*2 - float32(m.MaxShearRatio)
		angle := -m.MaxRotateAngle + rng.IntN(2*m.MaxRotateAngle+1)
		if m.Rotate > 0 {
			angle = m.Rotate
		}
		a := float32(math.Cos(float64(angle) / 180 * math.Pi))
		b := float32(math.Sin(float64(angle) / 180 * math.Pi))
		scale := float32(rng.Float64())*float32(m.MaxRandomScale-m.MinRandomScale) + float32(m.MinRandomScale)
		ratio := float32(rng.Float64())*float32(maxAR-minAR) + float32(minAR)
		hs := 2 * scale / (1 + ratio)
		ws := ratio * hs
		newW := max(float32(m.MinImgSize), min(float32(m.MaxImgSize), scale*float32(cur.X)))
		newH := max(float32(m.MinImgSize), min(float32(m.MaxImgSize), scale*float32(cur.Y)))
		// MXNet's forward matrix, in float as MXNet computes it.
		M := [6]float32{hs*a - s*b*ws, hs*b + s*a*ws, 0, -b * ws, a * ws, 0}
		cw := M[0]*float32(cur.X) + M[1]*float32(cur.Y)
		ch := M[3]*float32(cur.X) + M[4]*float32(cur.Y)
		M[2], M[5] = (newW-cw)/2, (newH-ch)/2
		// warpAffine maps an output pixel p to the input pixel M^-1 (p - t).
		det := float64(M[0])*float64(M[4]) - float64(M[1])*float64(M[3])
		i00, i01 := float64(M[4])/det, -float64(M[1])/det
		i10, i11 := -float64(M[3])/det, float64(M[0])/det
		inv := affine{i00, i01, -(i00*float64(M[2]) + i01*float64(M[5])), i10, i11, -(i10*float64(M[2]) + i11*float64(M[5]))}
		out2in = inv.then(out2in)
		cur = image.Pt(int(newW), int(newH))
		warped = true
	}
	if m.Pad > 0 {
		out2in = affine{1, 0, float64(-m.Pad), 0, 1, float64(-m.Pad)}.then(out2in)
		cur = cur.Add(image.Pt(2*m.Pad, 2*m.Pad))
		warped = true // the padding is fill, as the warp's outside
	}
	out := image.Pt(m.DataShape[2], m.DataShape[1])
	// cropped is set when the last step resizes a crop: then, as MXNet
	// resizes the crop on its own, the taps stop at its edges; a plain crop
	// of a resized image reads around it.
	cropped := false
	if m.MaxCropSize != -1 || m.MinCropSize != -1 {
		if cur.X < m.MaxCropSize || cur.Y < m.MaxCropSize {
			return fmt.Errorf("%w: %dx%d after resize, warp and padding, max_crop_size %d", ErrTooSmall, cur.X, cur.Y, m.MaxCropSize)
		}
		size := m.MinCropSize + rng.IntN(m.MaxCropSize-m.MinCropSize+1)
		y, x := cur.Y-size, cur.X-size
		if m.RandCrop {
			y, x = rng.IntN(y+1), rng.IntN(x+1)
		} else {
			y, x = y/2, x/2
		}
		out2in = resizeMap(image.Pt(size, size), out).then(affine{1, 0, float64(x), 0, 1, float64(y)}).then(out2in)
		cropped = true
	} else {
		// Enlarge an image smaller than the output, then crop.
		if cur.Y < out.Y {
			next := image.Pt(int(float32(out.Y)/float32(cur.Y)*float32(cur.X)), out.Y)
			out2in = resizeMap(cur, next).then(out2in)
			cur = next
		}
		if cur.X < out.X {
			next := image.Pt(out.X, int(float32(out.X)/float32(cur.X)*float32(cur.Y)))
			out2in = resizeMap(cur, next).then(out2in)
			cur = next
		}
		y, x := max(0, cur.Y-out.Y), max(0, cur.X-out.X)
		if m.RandCrop {
			y, x = rng.IntN(y+1), rng.IntN(x+1)
		} else {
			y, x = y/2, x/2
		}
		if m.CropYStart >= 0 && cur.Y != out.Y {
			y = min(m.CropYStart, cur.Y-out.Y)
		}
		if m.CropXStart >= 0 && cur.X != out.X {
			x = min(m.CropXStart, cur.X-out.X)
		}
		out2in = affine{1, 0, float64(x), 0, 1, float64(y)}.then(out2in)
	}
	// One filter for the one resampling: for auto, by the scale of the whole
	// mapping (the source extent of one output pixel along each axis).
	im.Filter = m.interFor(math.Hypot(out2in[0], out2in[3]), math.Hypot(out2in[1], out2in[4]), 1, 1, rng)
	im.Map, im.Warp, im.Crop, im.Fill = out2in, warped, cropped, uint8(m.FillValue)

	if m.RandomH != 0 || m.RandomS != 0 || m.RandomL != 0 {
		// MXNet's "approximation of a gaussian": (u1 + 4*u2) / 5.
		draw := func(v int) int {
			r := float32(rng.Float64())
			r += 4 * float32(rng.Float64())
			r /= 5
			return int(r*float32(v)*2 - float32(v))
		}
		h, sat, l := draw(m.RandomH), draw(m.RandomS), draw(m.RandomL)
		im.ShiftHLS, im.HLS = true, [3]int{h, l, sat}
	}
	im.Flip = (m.RandMirror && rng.IntN(2) == 1) || m.Mirror
	contrast := (float32(rng.Float64())*float32(m.MaxRandomContrast)*2 - float32(m.MaxRandomContrast) + 1) * float32(m.Scale)
	illum := (float32(rng.Float64())*float32(m.MaxRandomIllumination)*2 - float32(m.MaxRandomIllumination)) * float32(m.Scale)
	mean := [3]float32{float32(m.MeanR), float32(m.MeanG), float32(m.MeanB)}
	std := [3]float32{float32(m.StdR), float32(m.StdG), float32(m.StdB)}
	for c := range 3 {
		im.Mul[c], im.Bias[c] = contrast/std[c], illum/std[c]
	}
	im.Mean, im.MeanImage = mean, m.MeanImg
	return nil
}
