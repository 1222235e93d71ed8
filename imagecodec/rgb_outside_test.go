package imagecodec_test

import (
	"bytes"
	"image"
	"image/color"
	"testing"

	"github.com/obskit/obskit/imagecodec"
)

// TestRGBSetOutside checks that Set outside the rectangle does nothing, as
// image.RGBA's does: one pixel right of a row is the next row's first pixel
// in memory, one left of a row the previous row's last, and neither may
// change; the pixels just inside do.
func TestRGBSetOutside(t *testing.T) {
	m := imagecodec.NewRGB(image.Rect(2, 3, 5, 6))
	for i := range m.Pix {
		m.Pix[i] = uint8(i)
	}
	before := bytes.Clone(m.Pix)
	red := color.RGBA{255, 0, 0, 255}
	for _, p := range []image.Point{{5, 3}, {1, 4}, {5, 4}, {1, 5}, {2, 2}, {4, 6}} {
		m.Set(p.X, p.Y, red)
		if !bytes.Equal(m.Pix, before) {
			t.Fatalf("Set(%d, %d) outside %v changed the pixels: %v, want %v", p.X, p.Y, m.Rect, m.Pix, before)
		}
	}
	for _, p := range []image.Point{{2, 3}, {4, 5}} {
		m.Set(p.X, p.Y, red)
		if got := m.RGBAAt(p.X, p.Y); got != red {
			t.Errorf("Set(%d, %d) inside: RGBAAt = %v, want %v", p.X, p.Y, got, red)
		}
	}
}
