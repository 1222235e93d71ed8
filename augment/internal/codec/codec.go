// Package codec is augment's stand-in for package imagecodec (branch img)
// until that lands on main: the decode contract's types, as img has drafted
// them, and a decoder on the standard library's image/jpeg and image/png that
// decodes whole images and converts only the crop asked for. It is deleted
// when augment switches to imagecodec.
package codec

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	_ "image/jpeg" // registers JPEG with image.Decode
	_ "image/png"  // registers PNG with image.Decode
)

// RGB is 8-bit RGB pixels, 3 bytes a pixel; the pixel at (x, y) starts at
// Pix[(y-Rect.Min.Y)*Stride + (x-Rect.Min.X)*3].
type RGB struct {
	Pix    []uint8
	Stride int
	Rect   image.Rectangle
}

// PixOffset returns the index of the pixel at (x, y) in p.Pix.
func (p *RGB) PixOffset(x, y int) int {
	return (y-p.Rect.Min.Y)*p.Stride + (x-p.Rect.Min.X)*3
}

// Reuse returns an RGB image of bounds r in dst's memory when it holds it.
func Reuse(dst *RGB, r image.Rectangle) *RGB {
	n := 3 * r.Dx() * r.Dy()
	if dst == nil || cap(dst.Pix) < n {
		return &RGB{Pix: make([]uint8, n), Stride: 3 * r.Dx(), Rect: r}
	}
	dst.Pix, dst.Stride, dst.Rect = dst.Pix[:n], 3*r.Dx(), r
	return dst
}

// Request says which part of an image to decode and how small it may be.
type Request struct {
	Crop   image.Rectangle
	Min    image.Point
	Orient bool
}

// Config is what an image's header says.
type Config struct {
	Width, Height int
}

// Size returns the size of the image as decoded.
func (c Config) Size(oriented bool) image.Point { return image.Pt(c.Width, c.Height) }

// A Decoder decodes images held in memory.
type Decoder interface {
	Config(name string, data []byte) (Config, error)
	Decode(dst *RGB, name string, data []byte, req Request) (img *RGB, scale float64, err error)
}

// ErrFormat is wrapped by the errors of undecodable data.
var ErrFormat = errors.New("malformed image")

// Std decodes with the standard library, always at full size.
type Std struct{}

// Config returns the size of the image in data.
func (Std) Config(name string, data []byte) (Config, error) {
	c, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Config{}, fmt.Errorf("codec: %s: %w: %v", name, ErrFormat, err)
	}
	return Config{Width: c.Width, Height: c.Height}, nil
}

// Decode decodes the whole image and converts the crop to RGB.
func (Std) Decode(dst *RGB, name string, data []byte, req Request) (*RGB, float64, error) {
	m, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, 0, fmt.Errorf("codec: %s: %w: %v", name, ErrFormat, err)
	}
	b := m.Bounds()
	r := image.Rect(0, 0, b.Dx(), b.Dy())
	if !req.Crop.Empty() {
		r = req.Crop.Intersect(r)
	}
	dst = Reuse(dst, r)
	switch m := m.(type) {
	case *image.YCbCr:
		for y := r.Min.Y; y < r.Max.Y; y++ {
			row := dst.Pix[(y-r.Min.Y)*dst.Stride:]
			for x := r.Min.X; x < r.Max.X; x++ {
				c := m.YCbCrAt(x+b.Min.X, y+b.Min.Y)
				i := 3 * (x - r.Min.X)
				row[i], row[i+1], row[i+2] = color.YCbCrToRGB(c.Y, c.Cb, c.Cr)
			}
		}
	default:
		rgba := image.NewNRGBA(r)
		draw.Draw(rgba, r, m, b.Min.Add(r.Min), draw.Src)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			row := dst.Pix[(y-r.Min.Y)*dst.Stride:]
			src := rgba.Pix[(y-r.Min.Y)*rgba.Stride:]
			for x := range r.Dx() {
				row[3*x], row[3*x+1], row[3*x+2] = src[4*x], src[4*x+1], src[4*x+2]
			}
		}
	}
	return dst, 1, nil
}
