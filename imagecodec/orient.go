package imagecodec

import (
	"image"

	"github.com/obskit/obskit/container"
)

// Orientation is an EXIF orientation (tag 0x0112): how the stored pixels are
// to be turned for display. 1 is as stored; 2 to 8 are, as Pillow's
// ImageOps.exif_transpose applies them: 2 mirror left-right, 3 rotate 180°,
// 4 mirror top-bottom, 5 transpose (mirror along the main diagonal), 6
// rotate 90° clockwise, 7 transverse (mirror along the other diagonal), 8
// rotate 90° counter-clockwise. Values outside 1..8 are read as 1.
type Orientation uint8

// Transposes reports whether o swaps width and height (5 to 8).
func (o Orientation) Transposes() bool { return o >= 5 && o <= 8 }

func (o Orientation) valid() Orientation {
	if o < 1 || o > 8 {
		return 1
	}
	return o
}

// Inverse returns the orientation that undoes o: 6 and 8 undo each other,
// every other orientation undoes itself.
func (o Orientation) Inverse() Orientation {
	switch o.valid() {
	case 6:
		return 8
	case 8:
		return 6
	}
	return o.valid()
}

// Rect returns where the rectangle r of an image of size size (as stored)
// lies once the image is oriented by o.
func (o Orientation) Rect(r image.Rectangle, size image.Point) image.Rectangle {
	w, h := size.X, size.Y
	x0, x1, y0, y1 := r.Min.X, r.Max.X, r.Min.Y, r.Max.Y
	var out image.Rectangle
	switch o.valid() {
	case 1:
		out = r
	case 2:
		out = image.Rect(w-x1, y0, w-x0, y1)
	case 3:
		out = image.Rect(w-x1, h-y1, w-x0, h-y0)
	case 4:
		out = image.Rect(x0, h-y1, x1, h-y0)
	case 5:
		out = image.Rect(y0, x0, y1, x1)
	case 6:
		out = image.Rect(h-y1, x0, h-y0, x1)
	case 7:
		out = image.Rect(h-y1, w-x1, h-y0, w-x0)
	case 8:
		out = image.Rect(y0, w-x1, y1, w-x0)
	}
	return out
}

// Apply writes src oriented by o into dst, which must have src's size, or
// the transposed size when o transposes, and returns dst. It panics with a
// [*container.ArgError] when the sizes do not match. dst and src must not
// overlap.
func (o Orientation) Apply(dst, src *RGB) *RGB {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	want := image.Point{sw, sh}
	if o.Transposes() {
		want = image.Point{sh, sw}
	}
	container.CheckArg(dst.Rect.Size() == want, "imagecodec.Orientation.Apply", "dst size", dst.Rect.Size(), "the oriented size of src")
	if sw == 0 || sh == 0 {
		return dst
	}
	S, last := src.Stride, 3*(sw-1)
	// The source of dst's pixel (i, j) is src.Pix[base(j) + i*step].
	var base func(j int) int
	var step int
	switch o.valid() {
	case 1:
		base, step = func(j int) int { return j * S }, 3
	case 2:
		base, step = func(j int) int { return j*S + last }, -3
	case 3:
		base, step = func(j int) int { return (sh-1-j)*S + last }, -3
	case 4:
		base, step = func(j int) int { return (sh - 1 - j) * S }, 3
	case 5:
		base, step = func(j int) int { return 3 * j }, S
	case 6:
		base, step = func(j int) int { return (sh-1)*S + 3*j }, -S
	case 7:
		base, step = func(j int) int { return (sh-1)*S + last - 3*j }, -S
	case 8:
		base, step = func(j int) int { return last - 3*j }, S
	}
	dw, dh := dst.Rect.Dx(), dst.Rect.Dy()
	for j := range dh {
		row := dst.Pix[j*dst.Stride : j*dst.Stride+3*dw]
		if step == 3 {
			b := base(j)
			copy(row, src.Pix[b:b+3*dw])
			continue
		}
		s := base(j)
		for i := 0; i < len(row); i += 3 {
			p := src.Pix[s : s+3 : s+3]
			row[i], row[i+1], row[i+2] = p[0], p[1], p[2]
			s += step
		}
	}
	return dst
}
