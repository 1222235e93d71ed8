package augment

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/augment/internal/codec"
)

// memDecoder decodes from pixels it holds, as a cropping decoder does: only
// the crop asked for is copied out, into dst's memory. With half set it
// decodes at scale 1/2 whenever the crop keeps Min, from a half-size copy of
// the image (Pillow's box filter, as a JPEG's DCT scaling averages), rounding
// the crop outward as the contract says.
type memDecoder struct {
	full, half view
	halve      bool
	scales     map[float64]int
}

func newMemDecoder(full view, halve bool) *memDecoder {
	d := &memDecoder{full: full, halve: halve, scales: map[float64]int{}}
	hw, hh := (full.w+1)/2, (full.h+1)/2
	var r resampler
	d.half = resampleView(&r, full, &resampling{
		filter: Box, region: image.Rect(0, 0, full.w, full.h),
		box: [4]float64{0, 0, float64(2 * hw), float64(2 * hh)},
		out: image.Pt(hw, hh), win: image.Rect(0, 0, hw, hh),
	})
	return d
}

func (d *memDecoder) Config(name string, data []byte) (codec.Config, error) {
	return codec.Config{Width: d.full.w, Height: d.full.h}, nil
}

func (d *memDecoder) Decode(dst *codec.RGB, name string, data []byte, req codec.Request) (*codec.RGB, float64, error) {
	crop := req.Crop.Intersect(image.Rect(0, 0, d.full.w, d.full.h))
	src, scale := d.full, 1.0
	if d.halve && req.Min != (image.Point{}) && crop.Dx() >= 2*req.Min.X && crop.Dy() >= 2*req.Min.Y {
		src, scale = d.half, 0.5
		crop = image.Rect(crop.Min.X/2, crop.Min.Y/2, (crop.Max.X+1)/2, (crop.Max.Y+1)/2)
	}
	d.scales[scale]++
	dst = codec.Reuse(dst, crop)
	for y := crop.Min.Y; y < crop.Max.Y; y++ {
		copy(dst.Pix[(y-crop.Min.Y)*dst.Stride:][:3*crop.Dx()], src.pix[y*src.stride+3*crop.Min.X:])
	}
	return dst, scale, nil
}

// TestCropDecode checks that decoding only the crop changes nothing: Apply
// with a decoder that hands out only what is asked gives what ApplyRGB gives
// with the whole image, for the training pipeline, the evaluation one and
// MXNet's (rotated and sheared, or resized and cropped).
func TestCropDecode(t *testing.T) {
	full := loadPNG(t, "chelsea.png")
	whole := rgbOf(full)
	dec := newMemDecoder(full, false)
	eval, err := New(CHW, Resize{Size: 50}, CenterCrop{Size: image.Pt(40, 30)}, ImageNet)
	if err != nil {
		t.Fatal(err)
	}
	rot := NewMXNet(3, 40, 50)
	rot.MaxRotateAngle, rot.MaxShearRatio, rot.RandCrop, rot.RandMirror, rot.RandomH = 20, 0.1, true, true, 10
	mx := NewMXNet(3, 40, 50)
	mx.Resize, mx.MinCropSize, mx.MaxCropSize, mx.RandCrop, mx.InterMethod = 100, 60, 90, true, 10
	var ps []*Pipeline
	for _, m := range []MXNet{rot, mx} {
		p, err := New(HWC, m)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	for _, p := range append(ps, trainPipeline(t, CHW, 0.5, ColorJitter{Contrast: 0.5}), eval) {
		a, b := make([]float32, p.Len()), make([]float32, p.Len())
		for seed := range uint64(50) {
			if err := p.ApplyRGB(a, whole, rand.New(rand.NewPCG(seed, 9))); err != nil {
				t.Fatal(err)
			}
			if err := p.Apply(b, dec, "chelsea", nil, rand.New(rand.NewPCG(seed, 9))); err != nil {
				t.Fatal(err)
			}
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("seed %d: float %d is %v decoding the crop, %v from the whole image", seed, i, b[i], a[i])
				}
			}
		}
	}
}

// TestScaledDecode checks the resampling of a crop decoded at a reduced
// scale: the crop's fractional box in the scaled pixels is the box of the
// full-size crop, so the output stays within a few levels of the full-size
// path (the difference is the half-size image's own averaging).
func TestScaledDecode(t *testing.T) {
	full := loadPNG(t, "chelsea.png")
	whole := rgbOf(full)
	dec := newMemDecoder(full, true)
	p, err := New(HWC, RandomResizedCrop{Size: image.Pt(24, 20), Scale: [2]float64{0.3, 1}})
	if err != nil {
		t.Fatal(err)
	}
	a, b := make([]float32, p.Len()), make([]float32, p.Len())
	worst := 0.0
	for seed := range uint64(100) {
		p.ApplyRGB(a, whole, rand.New(rand.NewPCG(seed, 5)))
		if err := p.Apply(b, dec, "chelsea", nil, rand.New(rand.NewPCG(seed, 5))); err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for i := range a {
			sum += math.Abs(float64(a[i] - b[i]))
		}
		worst = max(worst, 255*sum/float64(len(a)))
	}
	if dec.scales[0.5] < 50 {
		t.Fatalf("decoded at half size %d times of 100, want most", dec.scales[0.5])
	}
	if worst > 3 {
		t.Errorf("half-size decoding differs from full size by a mean of up to %.2f levels, want <= 3", worst)
	}
	t.Logf("scales %v; worst mean difference %.2f levels", dec.scales, worst)
}

// TestApplyAllocs pins the pipeline at zero allocations per image once its
// buffers have grown, with and without colour steps, decoding or not.
func TestApplyAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop the scratch at random")
	}
	full := loadPNG(t, "chelsea.png")
	whole := rgbOf(full)
	dec := newMemDecoder(full, true)
	for name, p := range map[string]*Pipeline{
		"train":  trainPipeline(t, CHW, 0.5),
		"jitter": trainPipeline(t, HWC, 0.5, ColorJitter{Brightness: 0.4, Contrast: 0.4, Saturation: 0.4, Hue: 0.1}),
	} {
		dst := make([]float32, p.Len())
		pcg := rand.NewPCG(1, 2)
		rng := rand.New(pcg)
		// Grow the buffers with the largest crop first.
		p.ApplyRGB(dst, whole, rng)
		if a := testing.AllocsPerRun(200, func() { p.ApplyRGB(dst, whole, rng) }); a != 0 {
			t.Errorf("%s: ApplyRGB allocates %v times per image", name, a)
		}
		if a := testing.AllocsPerRun(200, func() { _ = p.Apply(dst, dec, "chelsea", nil, rng) }); a != 0 {
			t.Errorf("%s: Apply allocates %v times per image", name, a)
		}
	}
}
