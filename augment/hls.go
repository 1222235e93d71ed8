package augment

import "math"

// shiftHLS is MXNet's random_h, random_s and random_l adjustment: the image
// goes to OpenCV's 8-bit HLS (hue in [0, 180), lightness and saturation in
// [0, 255]), d[0] is added to the hue, d[1] to the lightness and d[2] to the
// saturation, each clamped to its range (the hue to [0, 180], not wrapped, as
// MXNet clamps it), and the image comes back to RGB.
func shiftHLS(v view, d [3]int) {
	for y := range v.h {
		row := v.pix[y*v.stride:][:3*v.w]
		for x := 0; x < len(row); x += 3 {
			h, l, s := rgbToHLS(row[x], row[x+1], row[x+2])
			h = max(0, min(180, h+d[0]))
			l = max(0, min(255, l+d[1]))
			s = max(0, min(255, s+d[2]))
			row[x], row[x+1], row[x+2] = hlsToRGB(h, l, s)
		}
	}
}

// rgbToHLS is OpenCV's 8-bit RGB to HLS conversion (cvtColor with
// COLOR_RGB2HLS): computed in float32 from values in [0, 1], the hue in
// degrees halved, every result rounded.
func rgbToHLS(r8, g8, b8 uint8) (h, l, s int) {
	const inv = float32(1.0 / 255) // OpenCV multiplies by the reciprocal
	r, g, b := float32(r8)*inv, float32(g8)*inv, float32(b8)*inv
	vmax := max(r, g, b)
	vmin := min(r, g, b)
	diff := vmax - vmin
	lf := (vmax + vmin) * 0.5
	var hf, sf float32
	if diff > 1.1920929e-07 { // FLT_EPSILON
		if lf < 0.5 {
			sf = diff / (vmax + vmin)
		} else {
			sf = diff / (2 - (vmax + vmin))
		}
		k := 60 / diff
		switch vmax {
		case r:
			hf = (g - b) * k
		case g:
			hf = (b-r)*k + 120
		default:
			hf = (r-g)*k + 240
		}
		if hf < 0 {
			hf += 360
		}
	}
	return roundSat(hf * 0.5), roundSat(lf * 255), roundSat(sf * 255)
}

// hlsToRGB is OpenCV's 8-bit HLS to RGB conversion (COLOR_HLS2RGB).
func hlsToRGB(h8, l8, s8 int) (uint8, uint8, uint8) {
	const inv = float32(1.0 / 255)
	l, s := float32(l8)*inv, float32(s8)*inv
	if s == 0 {
		c := uint8(roundSat(l * 255))
		return c, c, c
	}
	var p2 float32
	if l <= 0.5 {
		p2 = l * (1 + s)
	} else {
		p2 = l + s - l*s
	}
	p1 := 2*l - p2
	hf := float32(h8) * 2 / 60 // the 8-bit hue is in degrees halved
	for hf < 0 {
		hf += 6
	}
	for hf >= 6 {
		hf -= 6
	}
	sector := int(hf)
	hf -= float32(sector)
	tab := [4]float32{p2, p1, p1 + (p2-p1)*(1-hf), p1 + (p2-p1)*hf}
	// Which of tab each of r, g and b takes, sector by sector.
	sectors := [6][3]uint8{{0, 3, 1}, {2, 0, 1}, {1, 0, 3}, {1, 2, 0}, {3, 1, 0}, {0, 1, 2}}
	k := sectors[sector]
	return uint8(roundSat(tab[k[0]] * 255)), uint8(roundSat(tab[k[1]] * 255)), uint8(roundSat(tab[k[2]] * 255))
}

// roundSat rounds x half to even, as OpenCV's cvRound does, into [0, 255].
func roundSat(x float32) int {
	return max(0, min(255, int(math.RoundToEven(float64(x)))))
}
