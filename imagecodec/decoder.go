package imagecodec

import (
	"errors"
	"fmt"
	"image"

	"github.com/obskit/obskit/fileio"
)

// A Decoder decodes images held in memory into [RGB] pixels. The decoders of
// the kit ([New], and imagecodec/turbo's New) are safe for concurrent use.
type Decoder interface {
	// Config returns the format, size and EXIF orientation of the image in
	// data, reading only its header: no pixel is decoded. name is what errors
	// call the data (a file name, a record key). A header claiming more
	// pixels than the decoder's limit ([Options.MaxPixels]) is refused with
	// an error wrapping [ErrTooLarge], as Decode refuses it, so that a caller
	// may size buffers by a Config returned without error.
	Config(name string, data []byte) (Config, error)

	// Decode decodes the part of the image in data that req asks for and
	// returns it with the scale it was decoded at. The pixels are written in
	// dst's memory when cap(dst.Pix) holds them (see [Reuse]), and in newly
	// allocated memory otherwise (dst may be nil); the result is dst itself
	// when it was reused.
	//
	// At full size scale is 1 and img.Rect is the crop (req.Crop clipped to
	// the image, the whole image when req.Crop is empty). A decoder may
	// decode at a smaller scale s (JPEG's DCT scaling gives s = n/8) when the
	// crop still measures at least req.Min at that scale: img.Rect is then
	// the crop in the coordinates of the image scaled by s, which covers the
	// region [crop.Min*s, crop.Max*s) of the scaled image, rounded outward to
	// whole pixels. Errors name name and wrap [ErrFormat], [ErrUnsupported]
	// or [ErrTooLarge].
	Decode(dst *RGB, name string, data []byte, req Request) (img *RGB, scale float64, err error)
}

// A Request says which part of an image to decode, and how small it may be.
// The zero Request asks for the whole image at full size, as stored (no
// EXIF orientation), which is what Pillow's Image.open(f).convert("RGB")
// gives.
type Request struct {
	// Crop is the part of the image wanted, in pixel coordinates of the
	// full-size image (oriented when Orient is set). It is clipped to the
	// image; an empty Crop asks for the whole image.
	Crop image.Rectangle
	// Min is the smallest width and height the caller will resize the crop
	// to. A decoder may decode at a reduced scale as long as the crop keeps
	// at least Min.X by Min.Y pixels; the zero Min asks for full size.
	Min image.Point
	// Orient applies the EXIF orientation (Config.Orientation), as Pillow's
	// ImageOps.exif_transpose does. Off by default, as in Pillow and
	// torchvision.
	Orient bool
}

// Config is what an image's header says.
type Config struct {
	Format Format
	// Width and Height are the size of the image as stored, before any
	// orientation.
	Width, Height int
	// Orientation is the EXIF orientation, 1 (as stored) to 8; 1 when the
	// image has none.
	Orientation Orientation
	// Progressive reports a progressive JPEG; Arithmetic an arithmetic-coded
	// one; Restart a JPEG with restart markers.
	Progressive, Arithmetic, Restart bool
	// Components is the number of color components: 1 gray, 3 YCbCr or RGB,
	// 4 CMYK or YCCK (JPEG only; 0 for other formats).
	Components int
}

// Size returns the size of the image as decoded: Width by Height, swapped
// when oriented is set and the orientation transposes the image (5 to 8).
func (c Config) Size(oriented bool) image.Point {
	if oriented && c.Orientation.Transposes() {
		return image.Point{c.Height, c.Width}
	}
	return image.Point{c.Width, c.Height}
}

// Bounds returns the rectangle of the image as decoded, at (0, 0), of
// [Config.Size].
func (c Config) Bounds(oriented bool) image.Rectangle {
	return image.Rectangle{Max: c.Size(oriented)}
}

// Format is an image format, found by the content of the data.
type Format uint8

// The formats the kit recognizes. JPEG, PNG, GIF and WebP are decoded; the
// others are recognized so that the error refusing them names them.
const (
	Unknown Format = iota
	JPEG
	PNG
	GIF
	WebP
	BMP
	TIFF
	JPEG2000
	JPEGXL
	HEIF
	AVIF
	ICO
	PNM
)

var formatNames = [...]string{"unknown", "JPEG", "PNG", "GIF", "WebP", "BMP", "TIFF", "JPEG 2000", "JPEG XL", "HEIF", "AVIF", "ICO", "PNM"}

// String returns the format's usual name, such as "JPEG".
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// Options set up a decoder.
type Options struct {
	// MaxPixels is the largest number of pixels (width times height) of an
	// image a decoder accepts; a larger one is refused with [ErrTooLarge]
	// from its header, before any pixel memory is allocated. 0 means
	// [DefaultMaxPixels]; a negative value, no limit.
	MaxPixels int
}

// DefaultMaxPixels is the pixel count above which Pillow refuses an image
// (its DecompressionBombError threshold, twice Image.MAX_IMAGE_PIXELS):
// 178,956,970 pixels, an image of 13,377 by 13,377.
const DefaultMaxPixels = 2 * 89478485

// Limit returns the pixel limit o sets: MaxPixels, DefaultMaxPixels for 0,
// and -1 (no limit) for a negative MaxPixels.
func (o Options) Limit() int {
	switch {
	case o.MaxPixels == 0:
		return DefaultMaxPixels
	case o.MaxPixels < 0:
		return -1
	}
	return o.MaxPixels
}

// ReadConfig returns the header of the image in data as the function
// [ReadConfig] does, and an error wrapping [ErrTooLarge] ([Options.CheckSize])
// when it claims more pixels than the limit o sets. It is the
// [Decoder.Config] of the kit's decoders, and the first thing their Decode
// does: the one place where the limit is checked, before anything sized by
// the header is allocated.
func (o Options) ReadConfig(name string, data []byte) (Config, error) {
	c, err := ReadConfig(name, data)
	if err != nil {
		return c, err
	}
	return c, o.CheckSize(name, c.Format, c.Width, c.Height)
}

// CheckSize returns an error wrapping [ErrTooLarge] when an image of w by h
// pixels is above the limit o sets, naming name, the size and the limit.
// [Options.ReadConfig] calls it with the size of the header.
func (o Options) CheckSize(name string, f Format, w, h int) error {
	lim := o.Limit()
	if lim < 0 || (w <= lim && h <= lim && (w == 0 || h <= lim/w)) {
		return nil
	}
	return format.Errorf(name, ErrTooLarge, "%s of %dx%d = %d pixels, more than the limit of %d (Options.MaxPixels)",
		f, w, h, int64(w)*int64(h), lim)
}

var (
	// ErrFormat is wrapped by the errors about data that is not a valid image
	// of its format: a truncated or corrupt file, an empty one, a header that
	// does not parse.
	ErrFormat = errors.New("malformed image")
	// ErrUnsupported is wrapped by the errors about valid images a decoder
	// does not read: a format it does not decode (named in the message), or
	// a JPEG the pure-Go decoder cannot read (progressive with restart
	// markers, arithmetic coding, lossless), which the libjpeg-turbo decoder
	// of imagecodec/turbo reads.
	ErrUnsupported = errors.New("unsupported image")
	// ErrTooLarge is wrapped by the error refusing an image whose header
	// claims more pixels than [Options.MaxPixels].
	ErrTooLarge = errors.New("image too large")
)

// format reports errors in this package's words: "imagecodec: x.jpg:
// malformed image: JPEG: truncated".
var format = fileio.Format{Pkg: "imagecodec", Malformed: ErrFormat}
