package turbo

import (
	"fmt"
	"image"
	"io"

	"github.com/obskit/obskit/fileio"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/internal/header"
	"github.com/obskit/obskit/internal/freelist"
)

// New returns the best decoder this build and this machine have: the
// libjpeg-turbo decoder when [Available] says so ([Status.Turbo]), and the
// pure-Go decoder of [imagecodec.New] otherwise. Either reads every format;
// only JPEGs go to libjpeg-turbo.
func New(opts imagecodec.Options) imagecodec.Decoder {
	if !Available().Turbo() {
		return imagecodec.New(opts)
	}
	return &decoder{opts: opts, pure: imagecodec.New(opts)}
}

// decoder decodes JPEGs with libjpeg-turbo and the rest with the pure-Go
// decoder.
type decoder struct {
	opts imagecodec.Options
	pure imagecodec.Decoder
	// free holds the stored crops of oriented decodes before they are
	// turned, one per decode that ever ran at once; they go with the decoder.
	free freelist.List[imagecodec.RGB]
}

// format reports errors in this package's words.
var format = fileio.Format{Pkg: "turbo", Malformed: imagecodec.ErrFormat}

// Config implements [imagecodec.Decoder]: the header is read in Go, the
// same for both decoders, and refused over the pixel limit
// (imagecodec.Options.ReadConfig).
func (d *decoder) Config(name string, data []byte) (imagecodec.Config, error) {
	return d.opts.ReadConfig(name, data)
}

// plan is the decode of a crop at a scale: the image scaled by num/8 is
// size, and rect is the part of it decoded, both as stored (not oriented).
type plan struct {
	num  int
	size image.Point
	rect image.Rectangle
}

// scales are the numerators n of the scales n/8 the decoder uses, smallest
// first: 1/8, 1/4, 3/8, 1/2. libjpeg-turbo also scales by 5/8, 6/8 and 7/8,
// but with inverse DCTs that have no SIMD code: BenchmarkScales measured
// them at a third to a half of the speed of the full-size decode, so a crop
// that cannot be decoded at 1/2 is decoded at full size.
var scales = []int{1, 2, 3, 4}

// newPlan returns the plan of the crop stored (in the stored image of
// size full) for a caller who will resize it to at least min (oriented as
// stored): the largest reduction n/8 of scales that keeps the crop at
// least min in both dimensions, and the crop's rectangle in the scaled
// image, rounded outward as libjpeg-turbo rounds the image's size. A zero
// min asks for full size.
func newPlan(full image.Point, stored image.Rectangle, min image.Point) plan {
	p := plan{num: 8}
	if min != (image.Point{}) {
		for _, n := range scales {
			if stored.Dx()*n >= 8*min.X && stored.Dy()*n >= 8*min.Y {
				p.num = n
				break
			}
		}
	}
	n := p.num
	down := func(v int) int { return v * n / 8 }
	up := func(v int) int { return (v*n + 7) / 8 }
	p.size = image.Pt(up(full.X), up(full.Y))
	p.rect = image.Rect(down(stored.Min.X), down(stored.Min.Y), up(stored.Max.X), up(stored.Max.Y))
	return p
}

// Decode implements [imagecodec.Decoder]. A JPEG is decoded by libjpeg-turbo
// at the largest reduction 1/2, 3/8, 1/4 or 1/8 of its DCT scaling that
// keeps the crop at least req.Min (scale 0.5, 0.375, 0.25 or 0.125; 1 when
// none does), over the crop's rows
// and columns only (jpeg_skip_scanlines and jpeg_crop_scanline), straight
// into dst's memory; other formats go to the pure-Go decoder. A decode
// allocates nothing in Go when dst has room and the request does not
// orient (an oriented one uses a scratch image the decoder keeps); libjpeg-turbo
// allocates its decompressor's memory with malloc and frees it before
// Decode returns.
func (d *decoder) Decode(dst *imagecodec.RGB, name string, data []byte, req imagecodec.Request) (*imagecodec.RGB, float64, error) {
	c, err := d.opts.ReadConfig(name, data)
	if err != nil {
		return nil, 0, err
	}
	if c.Format != imagecodec.JPEG {
		return d.pure.Decode(dst, name, data, req)
	}
	if j, _ := header.ScanJPEG(data); !header.HasEnd(data, j.ScanOffset) {
		return nil, 0, fmt.Errorf("%s: %s: %w: JPEG: truncated: no end-of-image marker after the first scan at offset %d: %w",
			format.Pkg, name, imagecodec.ErrFormat, j.ScanOffset, io.ErrUnexpectedEOF)
	}
	_, stored, o := c.Region(req)
	min := req.Min
	if o.Transposes() {
		min = image.Pt(min.Y, min.X)
	}
	p := newPlan(image.Pt(c.Width, c.Height), stored, min)
	out := o.Rect(p.rect, p.size)
	var tmp *imagecodec.RGB
	if o == 1 {
		dst = imagecodec.Reuse(dst, out)
		tmp = dst
	} else {
		tmp = imagecodec.Reuse(d.free.Get(), p.rect)
		defer d.free.Put(tmp)
	}
	if code, msg := decodeJPEG(data, p, tmp.Pix, tmp.Stride); code != 0 {
		return nil, 0, cError(name, code, msg)
	}
	if o != 1 {
		dst = o.Apply(imagecodec.Reuse(dst, out), tmp)
	}
	return dst, float64(p.num) / 8, nil
}

// The error codes of turbo.h.
const (
	errFormat      = 1
	errTruncated   = 2
	errUnsupported = 3
)

// cError words an error of the C side.
func cError(name string, code int, msg string) error {
	switch code {
	case errUnsupported:
		return format.Errorf(name, imagecodec.ErrUnsupported, "JPEG: libjpeg-turbo: %s", msg)
	case errTruncated:
		return fmt.Errorf("%s: %s: %w: JPEG: truncated: libjpeg-turbo: %s: %w", format.Pkg, name, imagecodec.ErrFormat, msg, io.ErrUnexpectedEOF)
	}
	return format.Errorf(name, imagecodec.ErrFormat, "JPEG: libjpeg-turbo: %s", msg)
}
