package imagecodec

import (
	"image"
	"image/color"

	"github.com/obskit/obskit/container"
)

var _ image.Image = (*RGB)(nil)

// RGB is an in-memory image of 8-bit red, green and blue samples, 3 bytes a
// pixel, as [image.RGBA] is with 4. The pixel at (x, y) starts at
// Pix[(y-Rect.Min.Y)*Stride + (x-Rect.Min.X)*3]. A decoded image is its rows
// one after the other (Stride = 3*Dx); a [RGB.SubImage] shares the memory of
// its parent and keeps its Stride. Its bytes in row-major order, Stride =
// 3*Dx, are the HWC uint8 layout of NumPy and PyTorch.
type RGB struct {
	Pix    []uint8
	Stride int
	Rect   image.Rectangle
}

// NewRGB returns a new RGB image of bounds r, every pixel black.
// It panics with a [*container.ArgError] when r has a negative size.
func NewRGB(r image.Rectangle) *RGB {
	w, h := r.Dx(), r.Dy()
	container.CheckArg(w >= 0 && h >= 0, "imagecodec.NewRGB", "r", r, "a rectangle with Min <= Max")
	return &RGB{Pix: make([]uint8, 3*w*h), Stride: 3 * w, Rect: r}
}

// Reuse returns an RGB image of bounds r, its rows one after the other
// (Stride = 3*r.Dx()), in dst's memory when cap(dst.Pix) holds it, and newly
// allocated otherwise (dst nil included). When it reuses dst it sets dst's
// fields and returns dst; the pixels are left as they were, for the caller to
// overwrite. Decoders use it on their dst argument; a batch loop uses it to
// keep one image across iterations:
//
//	buf = imagecodec.Reuse(buf, r)
//
// It panics with a [*container.ArgError] when r has a negative size.
func Reuse(dst *RGB, r image.Rectangle) *RGB {
	w, h := r.Dx(), r.Dy()
	container.CheckArg(w >= 0 && h >= 0, "imagecodec.Reuse", "r", r, "a rectangle with Min <= Max")
	n := 3 * w * h
	if dst == nil || cap(dst.Pix) < n {
		return &RGB{Pix: make([]uint8, n), Stride: 3 * w, Rect: r}
	}
	dst.Pix, dst.Stride, dst.Rect = dst.Pix[:n], 3*w, r
	return dst
}

// ColorModel returns [color.RGBAModel]: every pixel is opaque.
func (p *RGB) ColorModel() color.Model { return color.RGBAModel }

// Bounds returns p.Rect.
func (p *RGB) Bounds() image.Rectangle { return p.Rect }

// At returns the color of the pixel at (x, y), opaque, and transparent black
// outside p.Rect, as the image package's types do.
func (p *RGB) At(x, y int) color.Color { return p.RGBAAt(x, y) }

// RGBAAt returns the color of the pixel at (x, y) as [image.RGBA.RGBAAt] does.
func (p *RGB) RGBAAt(x, y int) color.RGBA {
	if !(image.Point{x, y}.In(p.Rect)) {
		return color.RGBA{}
	}
	i := p.PixOffset(x, y)
	s := p.Pix[i : i+3 : i+3]
	return color.RGBA{s[0], s[1], s[2], 0xff}
}

// Set sets the pixel at (x, y) to c, its alpha dropped (the color's
// components are read un-premultiplied, as Pillow's convert("RGB") does);
// outside p.Rect it does nothing.
func (p *RGB) Set(x, y int, c color.Color) {
	if !(image.Point{x, y}.In(p.Rect)) {
		return
	}
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	i := p.PixOffset(x, y)
	s := p.Pix[i : i+3 : i+3]
	s[0], s[1], s[2] = n.R, n.G, n.B
}

// PixOffset returns the index of the first byte of the pixel at (x, y) in
// p.Pix.
func (p *RGB) PixOffset(x, y int) int {
	return (y-p.Rect.Min.Y)*p.Stride + (x-p.Rect.Min.X)*3
}

// SubImage returns the part of p inside r, which shares p's memory, as
// [image.RGBA.SubImage] does; an r that does not overlap p gives an empty
// image.
func (p *RGB) SubImage(r image.Rectangle) image.Image {
	r = r.Intersect(p.Rect)
	if r.Empty() {
		return &RGB{}
	}
	i := p.PixOffset(r.Min.X, r.Min.Y)
	return &RGB{Pix: p.Pix[i:], Stride: p.Stride, Rect: r}
}
