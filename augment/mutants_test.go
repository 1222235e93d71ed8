package augment

import (
	"image"
	"math/rand/v2"
	"testing"
)

// TestHueWraps checks that hue 255, a whole turn, converts to RGB as hue 0
// does, as in Pillow's hsv2rgb (the sector i % 6): for every saturation and
// value, including full saturation, where the two differ if the last sector
// is taken for the sixth.
func TestHueWraps(t *testing.T) {
	for s := 0; s < 256; s += 5 {
		for v := 0; v < 256; v += 5 {
			r0, g0, b0 := hsvToRGB(0, uint8(s), uint8(v))
			r, g, b := hsvToRGB(255, uint8(s), uint8(v))
			if r != r0 || g != g0 || b != b0 {
				t.Fatalf("hsvToRGB(255, %d, %d) = %d, %d, %d; hue 0 gives %d, %d, %d", s, v, r, g, b, r0, g0, b0)
			}
		}
	}
}

// TestOnePixelOutput checks that an output of one pixel is taken:
// RandomResizedCrop and CenterCrop to 1x1 make a pipeline of three values,
// each the image's pixel where the crop is of one pixel.
func TestOnePixelOutput(t *testing.T) {
	src := rgbOf(loadPNG(t, "small.png"))
	for _, step := range []Step{RandomResizedCrop{Size: image.Pt(1, 1)}, CenterCrop{Size: image.Pt(1, 1)}} {
		p := New(HWC, step)
		if p.Len() != 3 {
			t.Fatalf("%T to 1x1: Len() = %d, want 3", step, p.Len())
		}
		out := make([]uint8, 3)
		if err := p.ApplyRGBUint8(out, src, rand.New(rand.NewPCG(1, 2))); err != nil {
			t.Fatalf("%T to 1x1: %v", step, err)
		}
		if _, ok := step.(CenterCrop); ok {
			// 40x30: the pixel at int(round(39/2)), int(round(29/2)) = 20, 14.
			want := src.RGBAAt(20, 14)
			if out[0] != want.R || out[1] != want.G || out[2] != want.B {
				t.Errorf("CenterCrop to 1x1 = %v, want the pixel (20, 14), %v", out, want)
			}
		}
	}
}

// TestAreaDownNearAligned checks OpenCV's rule for INTER_AREA's cells
// (computeResizeAreaTab): a cell that starts within 1e-3 of a sample's edge
// starts at that sample, without a sliver of the sample before. Shrinking
// 3999 samples to 2000, output 1 covers [1.9995, 3.999): it starts at sample
// 2, where a cell starting 1.5e-3 before the edge (3997 to 2000: [1.9985,
// 3.997)) takes a part of sample 1.
func TestAreaDownNearAligned(t *testing.T) {
	for _, c := range []struct {
		in, out int
		start   int32
	}{{3999, 2000, 2}, {3997, 2000, 1}} {
		var a axis
		a.areaDown(c.in, 0, float64(c.in)/float64(c.out), 0, c.out, 0)
		if a.Start[1] != c.start {
			t.Errorf("%d to %d samples: output 1 starts at sample %d, want %d", c.in, c.out, a.Start[1], c.start)
		}
	}
}
