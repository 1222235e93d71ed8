package augment

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// MXNet is the augmentation of MXNet's ImageRecordIter, a [Pipeline] step of
// its own: the augmenter's geometry (resize, affine warp, padding, crops),
// its colour (random_h, random_s, random_l) and the iterator's normalization
// (mirror, mean, std, scale, contrast, illumination). Its fields are MXNet's
// parameters, named as Go names them (rand_crop is RandCrop), with MXNet's
// meanings; [NewMXNet] fills in MXNet's defaults, which are not all zero, and
// [MXNet.Set] sets a field by MXNet's name from a string, as MXNet's kwargs
// do.
//
// The steps and their random draws are MXNet's (src/io/image_aug_default.cc,
// iter_image_recordio_2.cc), with one difference of method: MXNet resamples
// up to three times (the resize, the warp, the resize of the crop), rounding
// to 8 bits each time; the kit composes the steps into one mapping of the
// source and resamples once, with the filter inter_method names (for 9, auto,
// chosen by the whole mapping's scale; for 10, random, drawn once), which is
// faster and sharper and puts every source pixel where MXNet puts it. Without
// rotation or shear the mapping is separable: only the part of the image the
// output reads is decoded, at a reduced scale when the crop is at least twice
// the output. With them, pixels are sampled through the inverse mapping with
// OpenCV's warpAffine kernels (area counts as bilinear, as there), fill_value
// outside the image.
type MXNet struct {
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
	// area, 4 lanczos4 (OpenCV's kernels, see [MXNetFilter]), 9 auto
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
	// [MXNet.Set] reads it from a .npy file of float32.
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

func (MXNet) isStep() {}

// NewMXNet returns MXNet's defaults for an output of channels by height by
// width: no augmentation, a centred crop, bilinear, mean 0, std 1, scale 1.
func NewMXNet(channels, height, width int) MXNet {
	return MXNet{
		DataShape: [3]int{channels, height, width},
		Resize:    -1, CropYStart: -1, CropXStart: -1, Rotate: -1,
		MaxCropSize: -1, MinCropSize: -1,
		MaxRandomScale: 1, MinRandomScale: 1,
		MaxImgSize: 1e10, MinImgSize: 0,
		FillValue: 255, InterMethod: 1,
		StdR: 1, StdG: 1, StdB: 1, Scale: 1,
	}
}

// Set sets the parameter name, spelled as MXNet spells it (rand_crop,
// max_rotate_angle, data_shape as "(3, 224, 224)" or "3,224,224", mean_img
// as the path of a .npy file of float32 of the data shape, booleans as
// True/False, true/false or 1/0), to value. It returns an error naming the
// parameter for an unknown name or a value that does not parse. mean_a and
// std_a are accepted and ignored: the output has three channels.
func (m *MXNet) Set(name, value string) error {
	bad := func(err error) error {
		return fmt.Errorf("augment.MXNet.Set: %s=%q: %v: %w", name, value, err, ErrConfig)
	}
	v := strings.TrimSpace(value)
	ints := map[string]*int{
		"resize": &m.Resize, "crop_y_start": &m.CropYStart, "crop_x_start": &m.CropXStart,
		"max_rotate_angle": &m.MaxRotateAngle, "rotate": &m.Rotate,
		"max_crop_size": &m.MaxCropSize, "min_crop_size": &m.MinCropSize,
		"random_h": &m.RandomH, "random_s": &m.RandomS, "random_l": &m.RandomL,
		"fill_value": &m.FillValue, "inter_method": &m.InterMethod, "pad": &m.Pad,
	}
	floats := map[string]*float64{
		"max_aspect_ratio": &m.MaxAspectRatio, "max_shear_ratio": &m.MaxShearRatio,
		"max_random_scale": &m.MaxRandomScale, "min_random_scale": &m.MinRandomScale,
		"max_img_size": &m.MaxImgSize, "min_img_size": &m.MinImgSize,
		"mean_r": &m.MeanR, "mean_g": &m.MeanG, "mean_b": &m.MeanB,
		"std_r": &m.StdR, "std_g": &m.StdG, "std_b": &m.StdB, "scale": &m.Scale,
		"max_random_contrast": &m.MaxRandomContrast, "max_random_illumination": &m.MaxRandomIllumination,
	}
	bools := map[string]*bool{"rand_crop": &m.RandCrop, "mirror": &m.Mirror, "rand_mirror": &m.RandMirror}
	switch {
	case ints[name] != nil:
		// MXNet's ints parse from floats too ("-1.0").
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
			return bad(fmt.Errorf("not an integer"))
		}
		*ints[name] = int(f)
	case floats[name] != nil:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return bad(err)
		}
		*floats[name] = f
	case bools[name] != nil:
		switch strings.ToLower(v) {
		case "true", "1":
			*bools[name] = true
		case "false", "0":
			*bools[name] = false
		default:
			return bad(fmt.Errorf("not a boolean"))
		}
	case name == "data_shape":
		parts := strings.Split(strings.Trim(v, "()[] "), ",")
		if len(parts) != 3 {
			return bad(fmt.Errorf("want three sizes"))
		}
		for i, p := range parts {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil {
				return bad(err)
			}
			m.DataShape[i] = n
		}
	case name == "mean_img":
		img, err := readMeanImage(v, m.DataShape)
		if err != nil {
			return bad(err)
		}
		m.MeanImg = img
	case name == "mean_a" || name == "std_a":
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return bad(err)
		}
	default:
		return fmt.Errorf("augment.MXNet.Set: unknown parameter %q: %w", name, ErrConfig)
	}
	return nil
}

func (m *MXNet) check() error {
	c, h, w := m.DataShape[0], m.DataShape[1], m.DataShape[2]
	switch {
	case c != 3:
		return fmt.Errorf("data_shape %v: the kit decodes RGB, so 3 channels", m.DataShape)
	case h < 1 || w < 1:
		return fmt.Errorf("data_shape %v: want a positive height and width", m.DataShape)
	case !(m.InterMethod >= 0 && m.InterMethod <= 4) && m.InterMethod != 9 && m.InterMethod != 10:
		return fmt.Errorf("inter_method %d: valid values are 0, 1, 2, 3, 4, 9, 10", m.InterMethod)
	case m.StdR == 0 || m.StdG == 0 || m.StdB == 0:
		return fmt.Errorf("std_r, std_g, std_b = %v, %v, %v: a zero", m.StdR, m.StdG, m.StdB)
	case m.MinRandomScale > m.MaxRandomScale || m.MinRandomScale <= 0:
		return fmt.Errorf("min_random_scale %v, max_random_scale %v: want 0 < min <= max", m.MinRandomScale, m.MaxRandomScale)
	case m.MaxAspectRatio < 0 || m.MaxAspectRatio >= 1:
		return fmt.Errorf("max_aspect_ratio %v: want [0, 1)", m.MaxAspectRatio)
	case m.MaxShearRatio < 0 || m.MaxRotateAngle < 0 || m.Pad < 0:
		return fmt.Errorf("max_shear_ratio %v, max_rotate_angle %d, pad %d: want >= 0", m.MaxShearRatio, m.MaxRotateAngle, m.Pad)
	case (m.MaxCropSize != -1 || m.MinCropSize != -1) && !(m.MinCropSize >= 1 && m.MinCropSize <= m.MaxCropSize):
		return fmt.Errorf("min_crop_size %d, max_crop_size %d: want 1 <= min <= max", m.MinCropSize, m.MaxCropSize)
	case m.FillValue < 0 || m.FillValue > 255:
		return fmt.Errorf("fill_value %d: want [0, 255]", m.FillValue)
	case m.RandomH < 0 || m.RandomS < 0 || m.RandomL < 0:
		return fmt.Errorf("random_h, random_s, random_l = %d, %d, %d: want >= 0", m.RandomH, m.RandomS, m.RandomL)
	case m.MeanImg != nil && len(m.MeanImg) != c*h*w:
		return fmt.Errorf("mean_img holds %d values, data_shape %v wants %d", len(m.MeanImg), m.DataShape, c*h*w)
	case m.MaxImgSize < 1 || m.MinImgSize < 0 || m.MinImgSize > m.MaxImgSize:
		return fmt.Errorf("min_img_size %v, max_img_size %v: want 0 <= min <= max, max >= 1", m.MinImgSize, m.MaxImgSize)
	}
	return nil
}

func (m MXNet) outSize() image.Point { return image.Pt(m.DataShape[2], m.DataShape[1]) }

// affine is the mapping p -> A p + b of pixel centres (OpenCV's
// convention: pixel i's centre is at i), as a00, a01, b0, a10, a11, b1.
type affine [6]float64

func (a affine) apply(x, y float64) (float64, float64) {
	return a[0]*x + a[1]*y + a[2], a[3]*x + a[4]*y + a[5]
}

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

// interFor is MXNet's GetInterMethod: the filter of a resampling from old to
// new sizes, drawing from rng for 10.
func (m *MXNet) interFor(oldW, oldH, newW, newH float64, rng *rand.Rand) Filter {
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
	f, _ := MXNetFilter(code)
	return f
}

// draw draws one image's augmentation: the geometry (the composed mapping
// from the output's pixels to the source's, and its filter), then the colour
// and normalization, in MXNet's order: the HLS shift (with the augmenter),
// then the mirror, the contrast and the illumination (with the iterator).
func (m MXNet) draw(src image.Point, rng *rand.Rand, im *AffineImage) error {
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
	out := m.outSize()
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
