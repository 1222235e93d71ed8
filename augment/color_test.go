package augment

import "testing"

// TestAdjustPillow checks torchvision's colour adjustments of PIL images,
// bit-exact: brightness, contrast and saturation (blends with Pillow's float
// arithmetic, inside and outside [0, 1]) and hue (Pillow's HSV round trip).
func TestAdjustPillow(t *testing.T) {
	fns := map[string]func(view, float64){
		"brightness": adjustBrightness, "contrast": adjustContrast,
		"saturation": adjustSaturation, "hue": adjustHue,
	}
	for _, c := range testCases(t).Color {
		t.Run(c.Name, func(t *testing.T) {
			v := loadPNG(t, c.Src)
			fns[c.Fn](v, c.Factor)
			want := expected[uint8](t, c.Name).Data()
			if maxd, mean := levelDiff(v.pixels(), want); maxd != 0 {
				t.Errorf("differs from torchvision by max %d levels, mean %.4f", maxd, mean)
			}
		})
	}
}

// TestHLSOpenCV checks MXNet's random_h, random_s and random_l against
// OpenCV's 8-bit HLS conversions, bit-exact, with deltas that clamp.
func TestHLSOpenCV(t *testing.T) {
	for _, c := range testCases(t).HLS {
		t.Run(c.Name, func(t *testing.T) {
			v := loadPNG(t, c.Src)
			shiftHLS(v, c.Delta)
			want := expected[uint8](t, c.Name).Data()
			if maxd, mean := levelDiff(v.pixels(), want); maxd != 0 {
				t.Errorf("differs from OpenCV by max %d levels, mean %.4f", maxd, mean)
			}
		})
	}
}
