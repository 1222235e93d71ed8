package imagecodec

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"

	"golang.org/x/image/webp"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/fileio"
	"github.com/obskit/obskit/imagecodec/internal/header"
)

// New returns the pure-Go decoder: the standard library's image/jpeg,
// image/png and image/gif and golang.org/x/image/webp, with the conversions
// of Pillow's convert("RGB") and libjpeg-turbo's chroma upsampling and
// color conversion. It decodes every image at full size (scale 1) and then
// keeps the crop. It refuses the JPEGs image/jpeg cannot read (arithmetic
// coding, lossless, and progressive ones with restart markers when
// image/jpeg fails on them) with an error wrapping [ErrUnsupported] that
// says so; imagecodec/turbo's New reads them with libjpeg-turbo.
//
// A decode allocates the standard decoder's whole image (image/jpeg's,
// image/png's...), the conversion's row buffers, and a scratch image when
// the request orients; the result is written in dst when it has room.
func New(opts Options) Decoder { return &goDecoder{opts: opts} }

type goDecoder struct{ opts Options }

// Config implements [Decoder]: [Options.ReadConfig].
func (d *goDecoder) Config(name string, data []byte) (Config, error) {
	return d.opts.ReadConfig(name, data)
}

// ReadConfig returns the header of the image in data, whatever its size:
// [Options.ReadConfig], the [Decoder.Config] of every decoder of the kit, is
// ReadConfig and the pixel limit. It reads the format from the first bytes
// ([Sniff]) and refuses formats it does not decode with an error wrapping
// [ErrUnsupported] that names the format.
func ReadConfig(name string, data []byte) (Config, error) {
	f := Sniff(data)
	c := Config{Format: f, Orientation: 1}
	var err error
	switch f {
	case JPEG:
		var j header.JPEG
		j, err = header.ScanJPEG(data)
		if err == nil {
			c.Width, c.Height, c.Components = j.Width, j.Height, j.Components
			c.Orientation = Orientation(j.Orient)
			c.Progressive, c.Arithmetic, c.Restart = j.Progressive(), j.Arithmetic(), j.Restart
		}
	case PNG, GIF, WebP:
		var ic image.Config
		switch f {
		case PNG:
			ic, err = png.DecodeConfig(bytes.NewReader(data))
			c.Orientation = Orientation(header.PNGOrientation(data))
		case GIF:
			ic, err = gif.DecodeConfig(bytes.NewReader(data))
		case WebP:
			ic, err = webp.DecodeConfig(bytes.NewReader(data))
			c.Orientation = Orientation(header.WebPOrientation(data))
			if w, h, ok := header.WebPFrame(data); err == nil && (!ok || w != ic.Width || h != ic.Height) {
				return c, format.Errorf(name, ErrFormat, "WebP: image data of %dx%d in a canvas of %dx%d", w, h, ic.Width, ic.Height)
			}
		}
		c.Width, c.Height = ic.Width, ic.Height
	case Unknown:
		if len(data) == 0 {
			return c, format.Errorf(name, ErrFormat, "empty")
		}
		return c, format.Errorf(name, ErrFormat, "not an image: its first bytes %q start no format imagecodec knows (it decodes JPEG, PNG, GIF and WebP)", head(data))
	default:
		return c, format.Errorf(name, ErrUnsupported, "%s: imagecodec decodes JPEG, PNG, GIF and WebP", f)
	}
	if err != nil {
		return c, stdError(name, f, err)
	}
	return c, nil
}

func head(b []byte) []byte { return b[:min(len(b), 8)] }

// stdError words an error of a decoder of the standard library (or
// x/image) for the image name of format f.
func stdError(name string, f Format, err error) error {
	var fe *fileio.FormatError
	switch {
	case errors.As(err, &fe):
		return format.Errorf(name, ErrFormat, "%s", fe.Error())
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return fmt.Errorf("%s: %s: %w: %s: truncated: %w", format.Pkg, name, ErrFormat, f, io.ErrUnexpectedEOF)
	}
	var ju jpeg.UnsupportedError
	var pu png.UnsupportedError
	if errors.As(err, &ju) || errors.As(err, &pu) {
		return format.Errorf(name, ErrUnsupported, "%s: %v", f, err)
	}
	return format.Errorf(name, ErrFormat, "%s: %v", f, err)
}

// Region returns the part of the image c describes that req asks for: crop,
// in the coordinates of the image as decoded (oriented when req.Orient), and
// the rectangle of the stored image that holds it, with the orientation that
// turns the stored rectangle into the crop (1 when req.Orient is false). It
// panics with a [*container.ArgError] when a non-empty req.Crop does not
// overlap the image.
func (c Config) Region(req Request) (crop, stored image.Rectangle, o Orientation) {
	o = 1
	if req.Orient {
		o = c.Orientation.valid()
	}
	b := c.Bounds(req.Orient)
	crop = b
	if !req.Crop.Empty() {
		crop = req.Crop.Intersect(b)
		if crop.Empty() {
			panic(&container.ArgError{Op: "imagecodec.Decoder.Decode", Arg: "Request.Crop", Value: req.Crop, Want: "a rectangle that overlaps the image " + b.String()})
		}
	}
	return crop, o.Inverse().Rect(crop, b.Size()), o
}

// Decode implements [Decoder]; scale is always 1.
func (d *goDecoder) Decode(dst *RGB, name string, data []byte, req Request) (*RGB, float64, error) {
	c, err := d.opts.ReadConfig(name, data)
	if err != nil {
		return nil, 0, err
	}
	crop, stored, o := c.Region(req)
	var img image.Image
	r := bytes.NewReader(data)
	switch c.Format {
	case JPEG:
		if err := goCanRead(name, data, c); err != nil {
			return nil, 0, err
		}
		img, err = jpeg.Decode(r)
		if err != nil && c.Progressive && header.HasRestart(data) {
			return nil, 0, format.Errorf(name, ErrUnsupported, "JPEG: progressive with restart markers: the pure-Go decoder (image/jpeg) cannot read it (%v); imagecodec/turbo's libjpeg-turbo decoder can", err)
		}
	case PNG:
		img, err = png.Decode(r)
	case GIF:
		img, err = gif.Decode(r)
	case WebP:
		img, err = webp.Decode(r)
	}
	if err != nil {
		return nil, 0, stdError(name, c.Format, err)
	}
	if img.Bounds().Max != image.Pt(c.Width, c.Height) && c.Format != GIF {
		return nil, 0, format.Errorf(name, ErrFormat, "%s: decoded %v, the header says %dx%d", c.Format, img.Bounds(), c.Width, c.Height)
	}
	if o == 1 {
		dst = Reuse(dst, crop)
		toRGB(dst, img, stored, c.Format == WebP)
		return dst, 1, nil
	}
	tmp := NewRGB(stored)
	toRGB(tmp, img, stored, c.Format == WebP)
	dst = Reuse(dst, crop)
	return o.Apply(dst, tmp), 1, nil
}

// goCanRead refuses, before decoding, the JPEGs image/jpeg does not read and
// the truncated ones.
func goCanRead(name string, data []byte, c Config) error {
	j, _ := header.ScanJPEG(data) // ReadConfig has read it
	switch {
	case j.Lossless():
		return format.Errorf(name, ErrUnsupported, "JPEG: lossless or hierarchical (frame marker 0x%02x): neither the pure-Go decoder nor libjpeg-turbo 2.1 reads it", j.SOF)
	case c.Arithmetic:
		return format.Errorf(name, ErrUnsupported, "JPEG: arithmetic-coded: the pure-Go decoder (image/jpeg) cannot read it; imagecodec/turbo's libjpeg-turbo decoder can")
	case !header.HasEnd(data, j.ScanOffset):
		return truncatedJPEG(name, j.ScanOffset)
	}
	return nil
}

// truncatedJPEG returns the error of a JPEG that has no end-of-image marker
// after its first scan (at offset scan): truncated, as Pillow says of it.
// libjpeg-turbo would decode such a file with gray rows in place of what is
// missing, and a crop that ends above the missing rows would not notice; both
// decoders check the marker first.
func truncatedJPEG(name string, scan int) error {
	return fmt.Errorf("%s: %s: %w: JPEG: truncated: no end-of-image marker after the first scan at offset %d: %w",
		format.Pkg, name, ErrFormat, scan, io.ErrUnexpectedEOF)
}
