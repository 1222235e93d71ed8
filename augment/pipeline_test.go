package augment

import (
	"errors"
	"image"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
)

// rgbOf returns v as a decoded image.
func rgbOf(v view) *imagecodec.RGB {
	return &imagecodec.RGB{Pix: v.pixels(), Stride: 3 * v.w, Rect: image.Rect(0, 0, v.w, v.h)}
}

func evalSteps(resize int, crop image.Point, norm *Normalize) []Step {
	steps := []Step{Resize{Size: resize}, CenterCrop{Size: crop}}
	if norm != nil {
		steps = append(steps, *norm)
	}
	return steps
}

// TestEvalTorchvision checks the evaluation transform, Resize, CenterCrop,
// ToTensor and Normalize, against torchvision on the pixels Pillow decodes:
// the floats must be equal to the last bit, including a centre crop larger
// than the image (padded).
func TestEvalTorchvision(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range testCases(t).Eval {
		t.Run(c.Name, func(t *testing.T) {
			var norm *Normalize
			if c.Mean != nil {
				norm = &Normalize{Mean: *c.Mean, Std: *c.Std}
			}
			p := New(CHW, evalSteps(c.Resize, image.Pt(c.Crop[1], c.Crop[0]), norm)...)
			got := make([]float32, p.Len())
			if err := p.ApplyRGB(got, rgbOf(loadPNG(t, c.Src)), rng); err != nil {
				t.Fatal(err)
			}
			want := expected[float32](t, c.Name)
			if diff := cmp.Diff(want.Data(), got); diff != "" {
				t.Errorf("mismatch with torchvision (-want +got):\n%s", diff)
			}
			if s := p.Shape(); s != [3]int{3, c.Crop[0], c.Crop[1]} {
				t.Errorf("Shape() = %v, want %v", s, [3]int{3, c.Crop[0], c.Crop[1]})
			}
		})
	}
}

// TestEvalJPEG runs the evaluation transform on whole JPEGs through the
// decoders and compares it with torchvision's (Pillow decoding with
// libjpeg-turbo): within 2 levels of 255, and exactly with libjpeg-turbo,
// which decodes Pillow's pixels.
func TestEvalJPEG(t *testing.T) {
	decoders := map[string]imagecodec.Decoder{"pure Go": imagecodec.New(imagecodec.Options{})}
	if err := turbo.Available().Err; err == nil {
		decoders["libjpeg-turbo"] = turbo.New(imagecodec.Options{})
	} else {
		t.Logf("libjpeg-turbo is not tested: %v", err)
	}
	for name, dec := range decoders {
		t.Run(name, func(t *testing.T) { testEvalJPEG(t, dec, name == "libjpeg-turbo") })
	}
}

func testEvalJPEG(t *testing.T, dec imagecodec.Decoder, exact bool) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range testCases(t).JPEG {
		t.Run(c.Name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", c.Src))
			if err != nil {
				t.Fatal(err)
			}
			p := New(HWC, evalSteps(c.Resize, image.Pt(c.Crop[1], c.Crop[0]), nil)...)
			got := make([]float32, p.Len())
			if err := p.Apply(got, dec, c.Src, data, rng); err != nil {
				t.Fatal(err)
			}
			want := expected[uint8](t, c.Name).Data()
			levels := make([]uint8, len(got))
			for i, v := range got {
				levels[i] = uint8(math.Round(float64(v) * 255))
			}
			maxd, mean := levelDiff(levels, want)
			over := 0
			for i := range levels {
				if d := int(levels[i]) - int(want[i]); d > 2 || d < -2 {
					over++
				}
			}
			t.Logf("max %d levels, mean %.3f, %d of %d values more than 2 levels off", maxd, mean, over, len(want))
			if exact && maxd > 0 {
				t.Errorf("max %d levels, want 0: libjpeg-turbo decodes Pillow's pixels", maxd)
			}
			if mean > 1 || float64(over) > 0.002*float64(len(want)) {
				t.Errorf("max %d levels, mean %.3f (want <= 1), %d of %d values more than 2 levels off (want <= 0.2%%)", maxd, mean, over, len(want))
			}
		})
	}
}

// TestNewErrors checks that New panics with a *container.ArgError for what is
// not a pipeline, naming the step.
func TestNewErrors(t *testing.T) {
	rrc := RandomResizedCrop{Size: image.Pt(8, 8)}
	for _, tc := range []struct {
		name  string
		steps []Step
	}{
		{"none", nil},
		{"resize alone", []Step{Resize{Size: 8}}},
		{"two geometries", []Step{rrc, CenterCrop{Size: image.Pt(4, 4)}}},
		{"flip first", []Step{RandomHorizontalFlip{}, rrc}},
		{"after normalize", []Step{rrc, ImageNet, RandomHorizontalFlip{}}},
		{"exif later", []Step{rrc, ExifTranspose{}}},
		{"bad scale", []Step{RandomResizedCrop{Size: image.Pt(8, 8), Scale: [2]float64{0.5, 0.1}}}},
		{"zero size", []Step{CenterCrop{}}},
		{"zero std", []Step{rrc, Normalize{}}},
		{"bad hue", []Step{rrc, ColorJitter{Hue: 0.7}}},
		{"bad flip", []Step{rrc, RandomHorizontalFlip{P: 2}}},
		{"two flips", []Step{rrc, RandomHorizontalFlip{}, RandomHorizontalFlip{}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := recovered(func() { New(CHW, tc.steps...) })
			ae, ok := v.(*container.ArgError)
			if !ok || ae.Op != "augment.New" {
				t.Fatalf("New() panicked with %v; want a *container.ArgError of augment.New", v)
			}
			t.Log(ae)
		})
	}
}

// TestApplyPanics checks the programmer errors of Apply: a dst of the wrong
// length and a nil generator panic with a *container.ArgError at the call.
func TestApplyPanics(t *testing.T) {
	p := trainPipeline(t, CHW, 0.5)
	img := rgbOf(loadPNG(t, "small.png"))
	for name, f := range map[string]func(){
		"short dst": func() { _ = p.ApplyRGB(make([]float32, p.Len()-1), img, rand.New(rand.NewPCG(1, 1))) },
		"nil rng":   func() { _ = p.ApplyRGB(make([]float32, p.Len()), img, nil) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				var ae *container.ArgError
				if err, ok := recover().(error); !ok || !errors.As(err, &ae) {
					t.Errorf("panic %v, want a *container.ArgError", err)
				}
			}()
			f()
		})
	}
}
