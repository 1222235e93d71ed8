package augment

import (
	"image"
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/imagecodec"
)

// TestUint8MatchesFloat: ApplyUint8 and ApplyRGBUint8 write the pixels whose
// floats Apply and ApplyRGB write, for the same generator: every float is
// (float32(v)/255 - mean)/std of the byte v at the same place, bit for bit,
// over random crops, flips (always, never, half), colour steps, padding, both
// layouts, a decoder that decodes a crop at a reduced scale, and many draws;
// and both consume the generator alike.
func TestUint8MatchesFloat(t *testing.T) {
	full := loadPNG(t, "chelsea.png")
	whole := rgbOf(full)
	dec := newMemDecoder(full, 8)
	jitter := ColorJitter{Brightness: 0.4, Contrast: 0.4, Saturation: 0.4, Hue: 0.1}
	norm := Normalize{Mean: [3]float32{0.485, 0.456, 0.406}, Std: [3]float32{0.229, 0.224, 0.225}}
	cases := map[string][]Step{
		"crop flip":          {RandomResizedCrop{Size: image.Pt(32, 24)}, RandomHorizontalFlip{}, norm},
		"crop always flip":   {RandomResizedCrop{Size: image.Pt(17, 9)}, RandomHorizontalFlip{P: 1}},
		"crop jitter flip":   {RandomResizedCrop{Size: image.Pt(32, 24)}, jitter, RandomHorizontalFlip{}, norm},
		"resize centre crop": {Resize{Size: 40}, CenterCrop{Size: image.Pt(30, 30)}, norm},
		"padded centre crop": {CenterCrop{Size: image.Pt(600, 300)}, RandomHorizontalFlip{}},
	}
	for name, steps := range cases {
		for _, layout := range []Layout{CHW, HWC} {
			p := New(layout, steps...)
			mean, std := [3]float32{}, [3]float32{1, 1, 1}
			if n, ok := steps[len(steps)-1].(Normalize); ok {
				mean, std = n.Mean, n.Std
			}
			f := make([]float32, p.Len())
			b := make([]uint8, p.Len())
			for seed := range uint64(20) {
				for _, decode := range []bool{false, true} {
					rf, rb := rand.New(rand.NewPCG(seed, 7)), rand.New(rand.NewPCG(seed, 7))
					var errF, errB error
					if decode {
						errF = p.Apply(f, dec, "chelsea", nil, rf)
						errB = p.ApplyUint8(b, dec, "chelsea", nil, rb)
					} else {
						errF = p.ApplyRGB(f, whole, rf)
						errB = p.ApplyRGBUint8(b, whole, rb)
					}
					if errF != nil || errB != nil {
						t.Fatalf("%s %v: %v, %v", name, layout, errF, errB)
					}
					for i, v := range b {
						c := i % 3
						if layout == CHW {
							c = i / (p.Len() / 3)
						}
						if want := (float32(v)/255 - mean[c]) / std[c]; f[i] != want {
							t.Fatalf("%s %v seed %d decode %v: value %d is %v, the byte %d gives %v", name, layout, seed, decode, i, f[i], v, want)
						}
					}
					if rf.Uint64() != rb.Uint64() {
						t.Fatalf("%s %v seed %d: the uint8 output drew from the generator otherwise", name, layout, seed)
					}
				}
			}
		}
	}
}

// TestUint8Errors: 8-bit output from an Affine pipeline, and a slot of the
// wrong length, panic with a *container.ArgError naming the method.
func TestUint8Errors(t *testing.T) {
	p := New(CHW, warpStep(image.Pt(16, 16)))
	img := rgbOf(loadPNG(t, "small.png"))
	rng := rand.New(rand.NewPCG(1, 2))
	tp := trainPipeline(t, CHW, 0.5)
	for name, c := range map[string]struct {
		op string
		f  func()
	}{
		"ApplyRGBUint8 of an Affine pipeline": {"augment.Pipeline.ApplyRGBUint8", func() { _ = p.ApplyRGBUint8(make([]uint8, p.Len()), img, rng) }},
		"ApplyUint8 of an Affine pipeline": {"augment.Pipeline.ApplyUint8", func() {
			_ = p.ApplyUint8(make([]uint8, p.Len()), imagecodec.New(imagecodec.Options{}), "x", nil, rng)
		}},
		"ApplyRGBUint8 with a short slot": {"augment.Pipeline.ApplyRGBUint8", func() { _ = tp.ApplyRGBUint8(make([]uint8, tp.Len()-1), img, rng) }},
	} {
		v := recovered(c.f)
		if ae, ok := v.(*container.ArgError); !ok || ae.Op != c.op {
			t.Errorf("%s: panicked with %v, want a *container.ArgError of %s", name, v, c.op)
		}
	}
}

// TestUint8Allocs pins ApplyUint8 at zero allocations per image once the
// buffers have grown, as Apply is.
func TestUint8Allocs(t *testing.T) {
	full := loadPNG(t, "chelsea.png")
	whole := rgbOf(full)
	dec := newMemDecoder(full, 8)
	for name, p := range map[string]*Pipeline{
		"train":  trainPipeline(t, CHW, 0.5),
		"jitter": trainPipeline(t, HWC, 0.5, ColorJitter{Brightness: 0.4, Contrast: 0.4, Saturation: 0.4, Hue: 0.1}),
	} {
		dst := make([]uint8, p.Len())
		rng := rand.New(rand.NewPCG(1, 2))
		_ = p.ApplyRGBUint8(dst, whole, rng)
		if a := testing.AllocsPerRun(200, func() { _ = p.ApplyRGBUint8(dst, whole, rng) }); a != 0 {
			t.Errorf("%s: ApplyRGBUint8 allocates %v times per image", name, a)
		}
		if a := testing.AllocsPerRun(200, func() { _ = p.ApplyUint8(dst, dec, "chelsea", nil, rng) }); a != 0 {
			t.Errorf("%s: ApplyUint8 allocates %v times per image", name, a)
		}
	}
}
