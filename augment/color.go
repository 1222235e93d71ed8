package augment

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// ColorJitter is torchvision's ColorJitter with single-number arguments: per
// image, a brightness, contrast and saturation factor drawn uniformly in
// [max(0, 1-v), 1+v] and a hue shift drawn uniformly in [-Hue, Hue] (at most
// 0.5), applied in a random order, each as torchvision applies it to a PIL
// image (Pillow's ImageEnhance and an HSV round trip, with Pillow's 8-bit
// arithmetic). A zero field leaves its adjustment out.
type ColorJitter struct {
	Brightness, Contrast, Saturation, Hue float64
}

func (ColorJitter) isStep() {}

func (j ColorJitter) check() error {
	if j.Brightness < 0 || j.Contrast < 0 || j.Saturation < 0 || !(0 <= j.Hue && j.Hue <= 0.5) {
		return fmt.Errorf("%+v: brightness, contrast and saturation must be >= 0 and hue in [0, 0.5]", j)
	}
	return nil
}

// The colour adjustments a pipeline applies to the 8-bit image after its
// geometry.
type colorKind uint8

const (
	adjBrightness colorKind = iota
	adjContrast
	adjSaturation
	adjHue
	adjHLS // MXNet's random_h, random_s, random_l
)

type colorOp struct {
	kind colorKind
	f    float64 // the factor; the hue shift
	hls  [3]int  // MXNet's deltas of H, L and S
}

// draw appends the adjustments of one image, drawn from rng, to ops, as
// torchvision's get_params draws them: a random order of the four, then each
// factor of a non-zero argument (brightness, contrast and saturation uniform
// in [max(0, 1-v), 1+v], the hue shift in [-Hue, Hue]).
func (j ColorJitter) draw(ops []colorOp, rng *rand.Rand) []colorOp {
	order := [4]colorKind{adjBrightness, adjContrast, adjSaturation, adjHue}
	for i := len(order) - 1; i > 0; i-- {
		k := rng.IntN(i + 1)
		order[i], order[k] = order[k], order[i]
	}
	arg := [4]float64{adjBrightness: j.Brightness, adjContrast: j.Contrast, adjSaturation: j.Saturation, adjHue: j.Hue}
	var f [4]float64
	for k, v := range arg {
		switch {
		case v == 0:
		case colorKind(k) == adjHue:
			f[k] = uniform(rng, -v, v)
		default:
			f[k] = uniform(rng, max(0, 1-v), 1+v)
		}
	}
	for _, k := range order {
		if arg[k] != 0 {
			ops = append(ops, colorOp{kind: k, f: f[k]})
		}
	}
	return ops
}

// apply applies op to v in place.
func (op *colorOp) apply(v view) {
	switch op.kind {
	case adjBrightness:
		adjustBrightness(v, op.f)
	case adjContrast:
		adjustContrast(v, op.f)
	case adjSaturation:
		adjustSaturation(v, op.f)
	case adjHue:
		adjustHue(v, op.f)
	case adjHLS:
		shiftHLS(v, op.hls)
	}
}

// blend is Pillow's ImagingBlend of one row in place, with the degenerate
// image's bytes deg, or the constant d when deg is nil: each byte p becomes
// d + alpha*(p - d) in float32, truncated, and clipped to [0, 255] when alpha
// is outside [0, 1].
func blend(px []uint8, alpha float32, deg []uint8, d uint8) {
	if alpha == 1 {
		return
	}
	if deg != nil {
		deg = deg[:len(px)]
	}
	inside := alpha >= 0 && alpha <= 1
	for i, p := range px {
		if deg != nil {
			d = deg[i]
		}
		if alpha == 0 {
			px[i] = d
			continue
		}
		t := float32(d) + alpha*float32(int(p)-int(d))
		switch {
		case inside:
			px[i] = uint8(t)
		case t <= 0:
			px[i] = 0
		case t >= 255:
			px[i] = 255
		default:
			px[i] = uint8(t)
		}
	}
}

// luma is Pillow's RGB to L conversion (ITU-R 601-2 with 16-bit weights).
func luma(r, g, b uint8) uint8 {
	return uint8((uint32(r)*19595 + uint32(g)*38470 + uint32(b)*7471 + 0x8000) >> 16)
}

// adjustBrightness is torchvision's adjust_brightness on a PIL image:
// ImageEnhance.Brightness, a blend with black.
func adjustBrightness(v view, f float64) {
	for y := range v.h {
		blend(v.pix[y*v.stride:][:3*v.w], float32(f), nil, 0)
	}
}

// adjustContrast is torchvision's adjust_contrast on a PIL image:
// ImageEnhance.Contrast, a blend with the grey of the image's mean luma,
// rounded.
func adjustContrast(v view, f float64) {
	var sum uint64
	for y := range v.h {
		row := v.pix[y*v.stride:][:3*v.w]
		for x := 0; x < len(row); x += 3 {
			sum += uint64(luma(row[x], row[x+1], row[x+2]))
		}
	}
	mean := uint8(int(float64(sum)/float64(v.w*v.h) + 0.5))
	for y := range v.h {
		blend(v.pix[y*v.stride:][:3*v.w], float32(f), nil, mean)
	}
}

// adjustSaturation is torchvision's adjust_saturation on a PIL image:
// ImageEnhance.Color, a blend with the image's own luma.
func adjustSaturation(v view, f float64) {
	var gray [3 * 1024]uint8
	for y := range v.h {
		row := v.pix[y*v.stride:][:3*v.w]
		for len(row) > 0 {
			n := min(len(row), len(gray))
			seg := row[:n]
			for x := 0; x < n; x += 3 {
				l := luma(seg[x], seg[x+1], seg[x+2])
				gray[x], gray[x+1], gray[x+2] = l, l, l
			}
			blend(seg, float32(f), gray[:n], 0)
			row = row[n:]
		}
	}
}

// adjustHue is torchvision's adjust_hue on a PIL image: a round trip through
// Pillow's 8-bit HSV with the hue byte shifted by uint8(hue*255) (truncated,
// wrapping as NumPy's uint8 addition does). Even a zero shift changes pixels
// by the round trip's rounding, as in torchvision.
func adjustHue(v view, hue float64) {
	shift := uint8(int(hue * 255))
	for y := range v.h {
		row := v.pix[y*v.stride:][:3*v.w]
		for x := 0; x < len(row); x += 3 {
			h, s, val := rgbToHSV(row[x], row[x+1], row[x+2])
			row[x], row[x+1], row[x+2] = hsvToRGB(h+shift, s, val)
		}
	}
}

// rgbToHSV is Pillow's rgb2hsv, with its mix of float and double arithmetic.
func rgbToHSV(r, g, b uint8) (uint8, uint8, uint8) {
	maxc := max(r, g, b)
	minc := min(r, g, b)
	if minc == maxc {
		return 0, 0, maxc
	}
	cr := float32(maxc - minc)
	s := cr / float32(maxc)
	rc := float32(maxc-r) / cr
	gc := float32(maxc-g) / cr
	bc := float32(maxc-b) / cr
	var h float32
	switch maxc {
	case r:
		h = bc - gc
	case g:
		h = float32(2.0 + float64(rc) - float64(bc))
	default:
		h = float32(4.0 + float64(gc) - float64(rc))
	}
	h = float32(math.Mod(float64(h)/6.0+1.0, 1.0))
	return clipInt8(int(float64(h) * 255.0)), clipInt8(int(float64(s) * 255.0)), maxc
}

// hsvToRGB is Pillow's hsv2rgb.
func hsvToRGB(h, s, v uint8) (uint8, uint8, uint8) {
	if s == 0 {
		return v, v, v
	}
	h6 := float64(float32(h)) * 6.0 / 255.0
	i := int(math.Floor(h6))
	f := float32(h6 - float64(float32(i)))
	fs := float32(float64(float32(s)) / 255.0)
	fv := float64(float32(v))
	p := clipInt8(int(math.Round(fv * (1.0 - float64(fs)))))
	q := clipInt8(int(math.Round(fv * (1.0 - float64(fs*f)))))
	t := clipInt8(int(math.Round(fv * (1.0 - float64(fs)*(1.0-float64(f))))))
	switch i % 6 {
	case 0:
		return v, t, p
	case 1:
		return q, v, p
	case 2:
		return p, v, t
	case 3:
		return p, q, v
	case 4:
		return t, p, v
	default:
		return v, p, q
	}
}

func clipInt8(x int) uint8 {
	return uint8(max(0, min(255, x)))
}
