package turbo_test

import (
	"image"
	"testing"

	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/internal/codectest"
)

// TestScaledCropOrigins: a crop decoded at a reduced scale n/8 is the region
// [crop.Min*n/8, crop.Max*n/8) of the stored image scaled, rounded outward
// (the Decoder contract), oriented when asked, for crops whose corners fall
// on every eighth of a pixel at every scale the decoder uses, with the pixels
// of the whole image decoded at that scale at the same coordinates. A crop
// origin rounded up instead of down (a crop starting one scaled pixel late)
// passed the other tests, which compare a crop with the whole at whatever
// rectangle it returned.
func TestScaledCropOrigins(t *testing.T) {
	d := need(t)
	floor := func(v, n int) int { return v * n / 8 }
	ceil := func(v, n int) int { return (v*n + 7) / 8 }
	for _, name := range []string{"cj_420.jpg", "cj_411.jpg", "cj_gray.jpg", "exif_2.jpg", "exif_6.jpg", "exif_7.jpg"} {
		data := read(t, name)
		cfg, err := d.Config(name, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, orient := range []bool{false, true} {
			o := imagecodec.Orientation(1)
			if orient {
				if cfg.Orientation == 1 {
					continue
				}
				o = cfg.Orientation
			}
			size := cfg.Size(orient)
			for n := 1; n <= 4; n++ {
				scale := float64(n) / 8
				ssize := image.Pt(ceil(cfg.Width, n), ceil(cfg.Height, n)) // stored, scaled
				whole, s, err := d.Decode(nil, name, data, imagecodec.Request{Min: image.Pt(floor(size.X, n), floor(size.Y, n)), Orient: orient})
				if err != nil {
					t.Fatal(err)
				}
				if s != scale || whole.Rect != o.Rect(image.Rectangle{Max: ssize}, ssize) {
					t.Fatalf("%s whole at %d/8 (orient %v): %v at scale %v", name, n, orient, whole.Rect, s)
				}
				for k := range 8 {
					// 64x48 (so that Min asks for scale n exactly), at x = k
					// and y = 5k modulo 8.
					crop := image.Rect(9*k+8, 5*k%8+8*(k%3), 0, 0)
					crop.Max = crop.Min.Add(image.Pt(64, 48))
					stored := o.Inverse().Rect(crop, size)
					want := o.Rect(image.Rect(floor(stored.Min.X, n), floor(stored.Min.Y, n), ceil(stored.Max.X, n), ceil(stored.Max.Y, n)), ssize)
					got, s, err := d.Decode(nil, name, data, imagecodec.Request{Crop: crop, Min: image.Pt(8*n, 6*n), Orient: orient})
					if err != nil {
						t.Fatal(err)
					}
					if s != scale || got.Rect != want {
						t.Fatalf("%s crop %v at %d/8 (orient %v): %v at scale %v, want %v", name, crop, n, orient, got.Rect, s, want)
					}
					if diff := codectest.Compare(t, codectest.Crop(got, got.Rect), codectest.Crop(whole, got.Rect)); diff.Max != 0 {
						t.Fatalf("%s crop %v at %d/8 (orient %v): off the whole decoded at that scale by %d levels", name, crop, n, orient, diff.Max)
					}
				}
			}
		}
	}
}
