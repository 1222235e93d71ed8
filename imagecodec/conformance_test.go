package imagecodec_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/internal/codectest"
)

// The tolerances of the pure-Go decoder against Pillow (issue 16): JPEGs
// within a PSNR of 40 dB and a mean absolute difference of 1.5; PNG, GIF and
// lossless WebP exactly. Lossy WebP (x/image/webp's planes, converted with
// libwebp's formulas but upsampled as libjpeg-turbo does, which libwebp does
// with its own rounding) is held to the JPEG tolerances.
const (
	jpegPSNR = 40
	jpegMean = 1.5
)

// sentinels maps the error kinds of cases.json to the package's errors.
var sentinels = map[string]error{
	"format":      imagecodec.ErrFormat,
	"unsupported": imagecodec.ErrUnsupported,
	"too large":   imagecodec.ErrTooLarge,
}

// CheckError fails when err is not an error of kind wrapping the sentinel
// and naming the file.
func checkError(t *testing.T, err error, name, kind string) {
	t.Helper()
	switch {
	case err == nil:
		t.Fatalf("Decode(%s): no error, want one wrapping %v", name, sentinels[kind])
	case !errors.Is(err, sentinels[kind]):
		t.Fatalf("Decode(%s) = %v, want an error wrapping %v", name, err, sentinels[kind])
	case !strings.Contains(err.Error(), name):
		t.Fatalf("Decode(%s) = %v: the message does not name the file", name, err)
	}
}

func TestConformance(t *testing.T) {
	d := imagecodec.New(imagecodec.Options{})
	for _, c := range codectest.Cases(t, "testdata") {
		t.Run(c.Name, func(t *testing.T) {
			data := c.Data(t)
			got, scale, err := d.Decode(nil, c.Name, data, imagecodec.Request{})
			switch {
			case c.Error != "":
				checkError(t, err, c.Name, c.Error)
				return
			case c.PureGo != "":
				checkError(t, err, c.Name, c.PureGo)
				if !strings.Contains(err.Error(), "imagecodec/turbo") {
					t.Errorf("Decode(%s) = %v: does not say which decoder reads it", c.Name, err)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			cfg, err := d.Config(c.Name, data)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.EqualFold(cfg.Format.String(), c.Format) || cfg.Width != c.Width || cfg.Height != c.Height || int(cfg.Orientation) != c.Orientation {
				t.Errorf("Config = %+v, Pillow: %s %dx%d orientation %d", cfg, c.Format, c.Width, c.Height, c.Orientation)
			}
			if scale != 1 || got.Rect != cfg.Bounds(false) {
				t.Fatalf("Decode: %v at scale %v, want %v at 1", got.Rect, scale, cfg.Bounds(false))
			}
			want := c.Want(t, got)
			diff := codectest.Compare(t, got, want)
			t.Logf("%s %dx%d: max %d, mean %.3f, PSNR %.1f dB", c.Format, c.Width, c.Height, diff.Max, diff.Mean, diff.PSNR)
			switch {
			case c.Format == "JPEG" || strings.Contains(c.How, "lossy"):
				if diff.PSNR < jpegPSNR || diff.Mean > jpegMean {
					t.Errorf("%s off Pillow by PSNR %.1f dB (want >= %d), mean %.3f (want <= %v)", c.Format, diff.PSNR, jpegPSNR, diff.Mean, jpegMean)
				}
			case diff.Max != 0:
				t.Errorf("%s off Pillow by up to %d levels, want exact", c.Format, diff.Max)
			}
			if c.OrientedSHA256 != "" {
				// The reference agrees with Pillow's exif_transpose ...
				if h := codectest.Hash(codectest.Orient(want, c.Orientation)); h != c.OrientedSHA256 {
					t.Fatalf("codectest.Orient(%d) of Pillow's pixels: hash %s, Pillow's exif_transpose %s", c.Orientation, h, c.OrientedSHA256)
				}
				// ... and the decoder agrees with the reference.
				o, _, err := d.Decode(nil, c.Name, data, imagecodec.Request{Orient: true})
				if err != nil {
					t.Fatal(err)
				}
				if diff := codectest.Compare(t, o, codectest.Orient(got, c.Orientation)); diff.Max != 0 {
					t.Errorf("oriented decode off the oriented full decode by %d levels", diff.Max)
				}
			}
		})
	}
}
