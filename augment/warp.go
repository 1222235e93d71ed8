package augment

import (
	"image"
	"math"
)

// warpRows samples src through the affine mapping a from output pixels to
// source pixels (pixel centres at integers), as OpenCV's warpAffine does with
// BORDER_CONSTANT: each output pixel weighs the source pixels around a(p) with
// the filter's kernel, not widened (nearest takes the closest, area counts as
// bilinear), taps outside the source counting as fill. It hands the rows of
// a w by h output to sink, using line (3*w bytes) for each.
func warpRows(src view, a affine, f Filter, fill uint8, w, h int, line []uint8, sink rowSink) {
	var kern kernel
	radius := 0
	switch f {
	case Nearest, CVNearest:
	case Box, CVArea, Bilinear, CVBilinear, Hamming:
		kern, radius = kernelOf(CVBilinear), 1
	case Bicubic, CVBicubic:
		kern, radius = kernelOf(CVBicubic), 2
	default:
		kern, radius = kernelOf(CVLanczos4), 4
	}
	var wx, wy [8]float64
	line = line[:3*w]
	for y := range h {
		for x := range w {
			u, v := a.apply(float64(x), float64(y))
			px := line[3*x : 3*x+3]
			if radius == 0 {
				sx, sy := int(math.RoundToEven(u)), int(math.RoundToEven(v))
				if sx < 0 || sy < 0 || sx >= src.w || sy >= src.h {
					px[0], px[1], px[2] = fill, fill, fill
				} else {
					copy(px, src.pix[sy*src.stride+3*sx:][:3])
				}
				continue
			}
			// Taps x0 .. x0+2*radius-1 around u, and the same for v.
			fx, fy := math.Floor(u), math.Floor(v)
			x0, y0 := int(fx)-radius+1, int(fy)-radius+1
			n := 2 * radius
			var sumx, sumy float64
			for k := range n {
				wx[k] = kern.fn(u - fx - float64(k-radius+1))
				wy[k] = kern.fn(v - fy - float64(k-radius+1))
				sumx += wx[k]
				sumy += wy[k]
			}
			var acc [3]float64
			for j := range n {
				sy := y0 + j
				for k := range n {
					sx := x0 + k
					wgt := wx[k] / sumx * wy[j] / sumy
					if sx < 0 || sy < 0 || sx >= src.w || sy >= src.h {
						acc[0] += wgt * float64(fill)
						acc[1] += wgt * float64(fill)
						acc[2] += wgt * float64(fill)
						continue
					}
					p := src.pix[sy*src.stride+3*sx:][:3]
					acc[0] += wgt * float64(p[0])
					acc[1] += wgt * float64(p[1])
					acc[2] += wgt * float64(p[2])
				}
			}
			for c := range 3 {
				px[c] = uint8(max(0, min(255, math.RoundToEven(acc[c]))))
			}
		}
		sink.row(y, line)
	}
}

// warpRegion returns the part of a source of size src that a w by h output
// mapped by a reads, with the kernel's radius around it.
func warpRegion(a affine, w, h int, radius int, src image.Point) image.Rectangle {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, c := range [4][2]float64{{0, 0}, {float64(w - 1), 0}, {0, float64(h - 1)}, {float64(w - 1), float64(h - 1)}} {
		u, v := a.apply(c[0], c[1])
		minX, maxX = min(minX, u), max(maxX, u)
		minY, maxY = min(minY, v), max(maxY, v)
	}
	r := float64(radius + 1)
	return image.Rect(int(math.Floor(minX-r)), int(math.Floor(minY-r)),
		int(math.Ceil(maxX+r))+1, int(math.Ceil(maxY+r))+1).Intersect(image.Rectangle{Max: src})
}
