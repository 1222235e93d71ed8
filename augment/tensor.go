package augment

import (
	"fmt"
	"image"

	"github.com/obskit/obskit/internal/pixel"
)

// A Layout is the order of a float32 image's axes in the batch.
type Layout uint8

const (
	// CHW is channels first, the layout of PyTorch's and MXNet's image
	// tensors: the red plane, then the green, then the blue, each row-major.
	CHW Layout = iota
	// HWC is channels last (TensorFlow's, JAX's): row-major pixels of three
	// floats.
	HWC
)

// String returns "CHW" or "HWC".
func (l Layout) String() string {
	switch l {
	case CHW:
		return "CHW"
	case HWC:
		return "HWC"
	}
	return fmt.Sprintf("Layout(%d)", uint8(l))
}

// A tensorSink writes RGB rows into a float32 image of w by h pixels (or,
// with dst8, into an 8-bit image, the values as they are: rowAt8), each
// 8-bit value v of channel c becoming lut[c][v], or, with a mean image,
// (v - mean[c][y][x])*mul[c] + bias[c] at the row's own position. The rows of
// a window land at offset at; flip mirrors the image left to right (a mean
// image is read where the pixel was before the flip, as MXNet does).
type tensorSink struct {
	dst    []float32
	dst8   []uint8 // the 8-bit output instead of dst, when set: no lut, no mean
	w, h   int
	at     image.Point
	layout Layout
	flip   bool
	lut    *[3][256]float32
	mean   []float32 // CHW, w*h per channel; nil when the lut applies
	mul    [3]float32
	bias   [3]float32
}

func (s *tensorSink) row(y int, px []uint8) { s.rowAt(y+s.at.Y, s.at.X, px) }

// rowAt writes the pixels px at row y from column x0.
func (s *tensorSink) rowAt(y, x0 int, px []uint8) {
	n := len(px) / 3
	w := s.w
	if s.dst8 != nil {
		s.rowAt8(y, x0, px)
		return
	}
	if s.mean != nil {
		s.rowMean(y, x0, px)
		return
	}
	l0, l1, l2 := &s.lut[0], &s.lut[1], &s.lut[2]
	px = px[:3*n]
	switch s.layout {
	case CHW:
		plane := w * s.h
		r := s.dst[y*w:][:w]
		g := s.dst[plane+y*w:][:w]
		b := s.dst[2*plane+y*w:][:w]
		if s.flip {
			// Pixel x lands at w-1-(x0+x): the mirrored span, backwards.
			lo := w - x0 - n
			pixel.LUTCHW(r[lo:lo+n], g[lo:lo+n], b[lo:lo+n], px, s.lut, true)
			return
		}
		pixel.LUTCHW(r[x0:x0+n], g[x0:x0+n], b[x0:x0+n], px, s.lut, false)
	case HWC:
		row := s.dst[3*y*w:][:3*w]
		if s.flip {
			lo := w - x0 - n
			row = row[3*lo : 3*(lo+n)]
			for x := range n {
				p := px[3*x : 3*x+3 : 3*x+3]
				o := 3 * (n - 1 - x)
				q := row[o : o+3 : o+3]
				q[0], q[1], q[2] = l0[p[0]], l1[p[1]], l2[p[2]]
			}
			return
		}
		row = row[3*x0 : 3*(x0+n)]
		for i := 0; i+2 < len(px) && i+2 < len(row); i += 3 {
			row[i], row[i+1], row[i+2] = l0[px[i]], l1[px[i+1]], l2[px[i+2]]
		}
	}
}

// rowMean is rowAt with a mean image.
func (s *tensorSink) rowMean(y, x0 int, px []uint8) {
	w, plane := s.w, s.w*s.h
	for x := range len(px) / 3 {
		sx := x0 + x // where the pixel is before the flip
		ox := sx
		if s.flip {
			ox = w - 1 - sx
		}
		for c := range 3 {
			v := (float32(px[3*x+c]) - s.mean[c*plane+y*w+sx]) * s.mul[c]
			v += s.bias[c]
			if s.layout == CHW {
				s.dst[c*plane+y*w+ox] = v
			} else {
				s.dst[3*(y*w+ox)+c] = v
			}
		}
	}
}

// torchLUT returns the values of torchvision's ToTensor followed by
// Normalize(mean, std), computed as PyTorch does in float32: v/255, then
// (x - mean)/std. With no mean and std it is ToTensor alone.
func torchLUT(lut *[3][256]float32, mean, std *[3]float32) {
	for c := range 3 {
		for v := range 256 {
			x := float32(v) / 255
			if mean != nil {
				x = (x - mean[c]) / std[c]
			}
			lut[c][v] = x
		}
	}
}
