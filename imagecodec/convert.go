package imagecodec

import (
	"image"
	"image/color"
)

// toRGB writes the part r of src (in src's coordinates) into dst, whose size
// is r's, as Pillow's convert("RGB") gives it: alpha dropped (the stored,
// un-premultiplied color kept), gray replicated, palette colors looked up,
// 16-bit samples reduced to their high byte, CMYK converted with Pillow's
// formula. vp8 marks the YCbCr planes of a lossy WebP (see yccToRGB).
func toRGB(dst *RGB, src image.Image, r image.Rectangle, vp8 bool) {
	w := r.Dx()
	rows := func(f func(out []uint8, y int)) {
		for j := range r.Dy() {
			f(dst.Pix[j*dst.Stride:j*dst.Stride+3*w], r.Min.Y+j)
		}
	}
	if !r.In(src.Bounds()) {
		// A GIF whose first frame does not cover its logical screen: the
		// rest reads as the palette's first color (image.Paletted.At), as
		// Pillow fills the screen with index 0 before the frame.
		src = &outside{src}
	}
	switch m := src.(type) {
	case *image.YCbCr:
		yccToRGB(dst, m, r, vp8)
	case *image.NYCbCrA: // a lossy WebP with alpha
		yccToRGB(dst, &m.YCbCr, r, vp8)
	case *image.Gray:
		rows(func(out []uint8, y int) {
			in := m.Pix[m.PixOffset(r.Min.X, y):]
			for i := range w {
				v := in[i]
				out[3*i], out[3*i+1], out[3*i+2] = v, v, v
			}
		})
	case *image.Gray16:
		rows(func(out []uint8, y int) {
			in := m.Pix[m.PixOffset(r.Min.X, y):]
			for i := range w {
				v := in[2*i]
				out[3*i], out[3*i+1], out[3*i+2] = v, v, v
			}
		})
	case *image.RGBA: // opaque when a decoder made it
		rows(func(out []uint8, y int) { pick(out, m.Pix[m.PixOffset(r.Min.X, y):], w, 4) })
	case *image.NRGBA:
		rows(func(out []uint8, y int) { pick(out, m.Pix[m.PixOffset(r.Min.X, y):], w, 4) })
	case *image.RGBA64:
		rows(func(out []uint8, y int) { pick(out, m.Pix[m.PixOffset(r.Min.X, y):], w, 8) })
	case *image.NRGBA64:
		rows(func(out []uint8, y int) { pick(out, m.Pix[m.PixOffset(r.Min.X, y):], w, 8) })
	case *image.Paletted:
		var pal [256][3]uint8
		for i, c := range m.Palette {
			pal[i] = stored(c)
		}
		rows(func(out []uint8, y int) {
			in := m.Pix[m.PixOffset(r.Min.X, y):]
			for i := range w {
				p := &pal[in[i]]
				out[3*i], out[3*i+1], out[3*i+2] = p[0], p[1], p[2]
			}
		})
	case *image.CMYK:
		// Pillow's cmyk2rgb on its "CMYK;I" reading of Adobe JPEGs, whose
		// samples are the ones image/jpeg gives: nk = 255-k, each channel
		// nk - nk*c/255 rounded as Pillow's MULDIV255.
		rows(func(out []uint8, y int) {
			in := m.Pix[m.PixOffset(r.Min.X, y):]
			for i := range w {
				p := in[4*i : 4*i+4 : 4*i+4]
				nk := 255 - int32(p[3])
				for k := range 3 {
					t := int32(p[k])*nk + 128
					out[3*i+k] = clamp8(nk - ((t>>8)+t)>>8)
				}
			}
		})
	default:
		rows(func(out []uint8, y int) {
			for i := range w {
				c := stored(m.At(r.Min.X+i, y))
				out[3*i], out[3*i+1], out[3*i+2] = c[0], c[1], c[2]
			}
		})
	}
}

// pick copies the first three samples of each size-byte pixel of in to out,
// the high byte of each for 16-bit samples (size 8).
func pick(out, in []uint8, w, size int) {
	step := size / 4 // 1 for 8-bit samples, 2 for 16-bit ones (high byte first)
	for i := range w {
		p := in[size*i:]
		out[3*i], out[3*i+1], out[3*i+2] = p[0], p[step], p[2*step]
	}
}

// stored returns the 8-bit color c stores, not premultiplied by its alpha.
func stored(c color.Color) [3]uint8 {
	switch c := c.(type) {
	case color.NRGBA:
		return [3]uint8{c.R, c.G, c.B}
	case color.RGBA:
		if c.A == 0xff || c.A == 0 {
			return [3]uint8{c.R, c.G, c.B}
		}
	case color.Gray:
		return [3]uint8{c.Y, c.Y, c.Y}
	}
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	return [3]uint8{n.R, n.G, n.B}
}

// outside hides the type of an image whose bounds do not hold the rectangle
// converted, so that toRGB reads it pixel by pixel with At, defined
// everywhere.
type outside struct{ image.Image }
