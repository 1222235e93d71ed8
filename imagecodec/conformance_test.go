package imagecodec_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/internal/codectest"
)

// A tolerance bounds how far the pure-Go decoder's pixels may be from
// Pillow's: the PSNR in dB at least, the mean and the largest absolute
// difference of a sample at most.
type tolerance struct {
	PSNR, Mean float64
	Max        int
}

// The tolerances of the pure-Go decoder against Pillow, just below what it
// reaches (issue 27; issue 16 had 40 dB and a mean of 1.5, which let a wrong
// YCbCr coefficient drift blue by 6 levels). Its JPEGs differ from
// libjpeg-turbo's in image/jpeg's IDCT alone: the YCbCr, gray and CMYK ones
// reach 60.7 to 70.5 dB, a mean of 0.043 at most and 3 levels. The YCCK JPEG
// is converted to CMYK by image/jpeg in its own rounding: 54.0 dB, a mean of
// 0.248, 3 levels. Lossy WebP (x/image/webp's planes, converted with
// libwebp's formulas but upsampled as libjpeg-turbo does, which libwebp does
// with its own rounding): 59.7 dB, a mean of 0.041, 3 levels. PNG, GIF and
// lossless WebP are exact. A blue coefficient of 1.770 instead of 1.772 takes
// the JPEGs to 59.6 dB and a mean of 0.061.
var (
	jpegTolerance  = tolerance{PSNR: 60, Mean: 0.05, Max: 3}
	ycckTolerance  = tolerance{PSNR: 53, Mean: 0.26, Max: 3}
	lossyTolerance = tolerance{PSNR: 58.5, Mean: 0.05, Max: 3}
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
			tol := tolerance{PSNR: math.Inf(1)} // exact
			switch {
			case strings.Contains(c.How, "YCCK"):
				tol = ycckTolerance
			case c.Format == "JPEG":
				tol = jpegTolerance
			case strings.Contains(c.How, "lossy"):
				tol = lossyTolerance
			}
			if diff.PSNR < tol.PSNR || diff.Mean > tol.Mean || diff.Max > tol.Max {
				t.Errorf("%s off Pillow by PSNR %.1f dB, mean %.3f, up to %d levels; want at least %v dB, at most %v and %d levels", c.Format, diff.PSNR, diff.Mean, diff.Max, tol.PSNR, tol.Mean, tol.Max)
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
