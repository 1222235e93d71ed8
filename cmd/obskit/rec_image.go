package main

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/draw"

	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
)

// decoder decodes the images obskit rec pack encodes again: libjpeg-turbo for
// JPEGs when the build has it, the pure-Go decoders otherwise (and for other
// formats). It is safe for concurrent use. Its pixel limit, the default,
// bounds the resized images too.
var (
	decodeOptions = imagecodec.Options{}
	decoder       = turbo.New(decodeOptions)
)

// A reencoder decodes an image and encodes it again as im2rec does with
// OpenCV (imread, the center crop, resize, imencode), reusing its memory
// image after image. It is not safe for concurrent use: each worker of obskit
// rec pack has its own.
type reencoder struct {
	rgb  *imagecodec.RGB
	rgba *image.RGBA
	gray *image.Gray
	out  bytes.Buffer
}

// encode returns data decoded and encoded again as o asks, valid until the
// next call: the EXIF orientation applied (as cv2.imread does), the square
// center cropped with --center-crop, the shorter side resized to --resize
// (the longer to long*resize/short, rounded down), converted to gray with
// --color 0, and encoded as JPEG at --quality or PNG at compression
// min(--quality, 9).
//
// The pixels differ from im2rec's, which decodes and encodes with OpenCV:
// the decoders differ slightly, the resize is antialiased bilinear
// (golang.org/x/image/draw.BiLinear, where OpenCV's INTER_LINEAR does not
// antialias), gray is ITU-R 601 luma of the RGB pixels, and Go's encoders
// (image/jpeg with 4:2:0 chroma, image/png) write other bytes than libjpeg's
// and libpng's. Sizes and the header are im2rec's.
func (r *reencoder) encode(data []byte, name string, o packOptions) ([]byte, error) {
	img, _, err := decoder.Decode(r.rgb, name, data, imagecodec.Request{Orient: true})
	if err != nil {
		return nil, err
	}
	r.rgb = img
	src := img.Rect
	w, h := src.Dx(), src.Dy()
	if o.centerCrop {
		if h > w {
			m := (h - w) / 2
			src = image.Rect(src.Min.X, src.Min.Y+m, src.Max.X, src.Min.Y+m+w)
		} else {
			m := (w - h) / 2
			src = image.Rect(src.Min.X+m, src.Min.Y, src.Min.X+m+h, src.Max.Y)
		}
		w, h = src.Dx(), src.Dy()
	}
	if o.resize > 0 {
		if err := checkResize(name, w, h, o.resize, decodeOptions.Limit()); err != nil {
			return nil, err
		}
		if h > w {
			w, h = o.resize, h*o.resize/w
		} else {
			w, h = w*o.resize/h, o.resize
		}
	}
	dst := image.Rect(0, 0, w, h)
	var out image.Image
	if o.color == 0 {
		if r.gray == nil || cap(r.gray.Pix) < w*h {
			r.gray = image.NewGray(dst)
		}
		r.gray.Pix, r.gray.Stride, r.gray.Rect = r.gray.Pix[:w*h], w, dst
		scale(r.gray, img, src)
		out = r.gray
	} else {
		if r.rgba == nil || cap(r.rgba.Pix) < 4*w*h {
			r.rgba = image.NewRGBA(dst)
		}
		r.rgba.Pix, r.rgba.Stride, r.rgba.Rect = r.rgba.Pix[:4*w*h], 4*w, dst
		scale(r.rgba, img, src)
		out = r.rgba
	}
	r.out.Reset()
	if o.encoding == ".png" {
		level := png.BestCompression
		switch q := min(o.quality, 9); {
		case q == 0:
			level = png.NoCompression
		case q <= 3:
			level = png.BestSpeed
		case q <= 6:
			level = png.DefaultCompression
		}
		err = (&png.Encoder{CompressionLevel: level}).Encode(&r.out, out)
	} else {
		err = jpeg.Encode(&r.out, out, &jpeg.Options{Quality: o.quality})
	}
	return r.out.Bytes(), err
}

// checkResize returns an error wrapping imagecodec.ErrTooLarge when resizing
// an image of w by h pixels to a shorter side of resize makes more pixels
// than lim (none when lim < 0), as the decoder refuses a header claiming as
// many: an image of extreme aspect ratio within the limit, a PNG of 100000 by
// 1 pixels, would be resized to 22400000 by 224, 20 GB of RGBA.
func checkResize(name string, w, h, resize, lim int) error {
	short, long := int64(min(w, h)), int64(max(w, h))
	r, l := int64(resize), int64(lim)
	// r <= l first, so that the products cannot overflow: long and r are
	// below 2^31.
	if l < 0 || (r <= l && long*r/short <= l/r) {
		return nil
	}
	return fmt.Errorf("%s: %w: --resize %d would make the %dx%d image %.0fx%d pixels, more than the limit of %d",
		name, imagecodec.ErrTooLarge, resize, w, h, float64(long)*float64(r)/float64(short), resize, lim)
}

// scale draws the part src of img over all of dst: a copy when the sizes
// agree, an antialiased bilinear resize otherwise.
func scale(dst draw.Image, img *imagecodec.RGB, src image.Rectangle) {
	if dst.Bounds().Size() == src.Size() {
		draw.Draw(dst, dst.Bounds(), img, src.Min, draw.Src)
		return
	}
	draw.BiLinear.Scale(dst, dst.Bounds(), img, src, draw.Src, nil)
}
