package augment

import (
	"errors"
	"image"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
)

// warpStep is an Affine step that draws a rotation of up to 20 degrees and a
// shear about the source's centre, scaled to the output, a flip half the
// time and an HLS shift: each image warped.
func warpStep(size image.Point) Affine {
	return Affine{Size: size, Draw: func(src image.Point, rng *rand.Rand, im *AffineImage) error {
		angle := (rng.Float64()*40 - 20) * math.Pi / 180
		shear := rng.Float64()*0.2 - 0.1
		s := math.Min(float64(src.X)/float64(size.X), float64(src.Y)/float64(size.Y))
		c, n := math.Cos(angle)*s, math.Sin(angle)*s
		cx, cy := float64(size.X-1)/2, float64(size.Y-1)/2
		sx, sy := float64(src.X-1)/2, float64(src.Y-1)/2
		a00, a01, a10, a11 := c, -n+shear*s, n, c
		im.Map = [6]float64{a00, a01, sx - a00*cx - a01*cy, a10, a11, sy - a10*cx - a11*cy}
		im.Filter, im.Warp, im.Fill = CVBicubic, true, 17
		im.Flip = rng.IntN(2) == 1
		im.ShiftHLS, im.HLS = true, [3]int{rng.IntN(21) - 10, 5, -5}
		return nil
	}}
}

// cropStep is an Affine step that draws a square crop of a side in [lo, hi]
// at a random place, resized to size on its own (Crop) with a random CV
// filter: each image resampled separably.
func cropStep(size image.Point, lo, hi int) Affine {
	return Affine{Size: size, Draw: func(src image.Point, rng *rand.Rand, im *AffineImage) error {
		side := lo + rng.IntN(hi-lo+1)
		if side > src.X || side > src.Y {
			return errTestSmall
		}
		x, y := rng.IntN(src.X-side+1), rng.IntN(src.Y-side+1)
		sx, sy := float64(side)/float64(size.X), float64(side)/float64(size.Y)
		im.Map = [6]float64{sx, 0, 0.5*sx - 0.5 + float64(x), 0, sy, 0.5*sy - 0.5 + float64(y)}
		im.Filter, im.Crop = []Filter{CVNearest, CVBilinear, CVBicubic, CVArea, CVLanczos4}[rng.IntN(5)], true
		return nil
	}}
}

var errTestSmall = errors.New("too small for the test's crop")

// fixed is an Affine step that gives every image im, whatever its size.
func fixed(size image.Point, im AffineImage) Affine {
	return Affine{Size: size, Draw: func(_ image.Point, _ *rand.Rand, out *AffineImage) error {
		*out = im
		return nil
	}}
}

// TestAffine checks the Affine step's resampling and values against what
// each field means: a whole-pixel shift is the crop exactly, warped or not;
// Crop resizes the crop on its own, as Filter.Resize of the cropped image;
// Warp samples as warpAffine does (a bilinear 2x shrink is the mean of four
// pixels, not Pillow's wider kernel) and fills what is outside the image; Mean, Mul and Bias, and MeanImage
// under a Flip, map the values; ShiftHLS with no shift is OpenCV's round
// trip alone.
func TestAffine(t *testing.T) {
	src := rgbOf(loadPNG(t, "chelsea.png")) // 160x120
	size := image.Pt(30, 20)
	rng := rand.New(rand.NewPCG(1, 2))
	run := func(im AffineImage, layout Layout) []float32 {
		t.Helper()
		p := New(layout, fixed(size, im))
		out := make([]float32, p.Len())
		if err := p.ApplyRGB(out, src, rng); err != nil {
			t.Fatal(err)
		}
		return out
	}
	bytes := func(r image.Rectangle) []float32 {
		out := make([]float32, 0, 3*r.Dx()*r.Dy())
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				for c := range 3 {
					out = append(out, float32(src.Pix[y*src.Stride+3*x+c]))
				}
			}
		}
		return out
	}
	shift := identity
	shift.Map[2], shift.Map[5] = 41, 7
	want := bytes(image.Rect(41, 7, 71, 27))
	for _, warp := range []bool{false, true} {
		im := shift
		im.Warp = warp
		if diff := cmp.Diff(want, run(im, HWC)); diff != "" {
			t.Errorf("a shift by (41, 7), warp %v: not the crop (-want +got):\n%s", warp, diff)
		}
	}

	// Crop: the box (10, 5)-(70, 45) resized to 30x20 on its own, as
	// Filter.Resize of the cropped image; without Crop the taps read
	// around the box.
	crop := image.Rect(10, 5, 70, 45)
	resized := Bilinear.Resize(nil, rgbOf(view{pix: src.Pix, stride: src.Stride, w: 160, h: 120}.sub(crop)), size)
	var wantCrop []float32
	for _, v := range resized.Pix {
		wantCrop = append(wantCrop, float32(v))
	}
	im := identity
	im.Map = [6]float64{2, 0, 0.5 + 10, 0, 2, 0.5 + 5}
	im.Crop = true
	if diff := cmp.Diff(wantCrop, run(im, HWC)); diff != "" {
		t.Errorf("Crop: not Bilinear.Resize of the crop (-want +got):\n%s", diff)
	}
	im.Crop = false
	if cmp.Equal(wantCrop, run(im, HWC)) {
		t.Errorf("without Crop the taps at the box's edges read around it: want another output than the crop's resize")
	}
	// Warp samples the same mapping as warpAffine does: output pixel (x, y)
	// at source (2x+10.5, 2y+5.5), the kernel not widened, so the mean of
	// the four pixels around it, rounded half to even.
	im.Warp = true
	var wantWarp []float32
	for y := range 20 {
		for x := range 30 {
			for c := range 3 {
				sum := 0
				for _, d := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
					sum += int(src.Pix[(2*y+5+d[1])*src.Stride+3*(2*x+10+d[0])+c])
				}
				wantWarp = append(wantWarp, float32(math.RoundToEven(float64(sum)/4)))
			}
		}
	}
	if diff := cmp.Diff(wantWarp, run(im, HWC)); diff != "" {
		t.Errorf("Warp: not warpAffine's bilinear sampling (-want +got):\n%s", diff)
	}

	// Warp: a shift half out of the image fills the rest with Fill.
	im = identity
	im.Map[2], im.Map[5], im.Warp, im.Fill = 145, -10, true, 33
	got := run(im, HWC)
	for y := range 20 {
		for x := range 30 {
			for c := range 3 {
				v := got[3*(y*30+x)+c]
				if sx, sy := 145+x, y-10; sx >= 160 || sy < 0 {
					if v != 33 {
						t.Fatalf("pixel (%d, %d) outside the image is %v, want the fill 33", x, y, v)
					}
				} else if w := float32(src.Pix[sy*src.Stride+3*sx+c]); v != w {
					t.Fatalf("pixel (%d, %d) inside the image is %v, want %v", x, y, v, w)
				}
			}
		}
	}

	// Values: (v - Mean)*Mul + Bias, in float32; a MeanImage is read where
	// the pixel was before the Flip.
	plain := run(shift, CHW)
	im = shift
	im.Mean, im.Mul, im.Bias = [3]float32{100, 50, 10}, [3]float32{0.5, 2, -1}, [3]float32{3, 0, 0.25}
	got = run(im, CHW)
	for k, v := range plain {
		c := k / (30 * 20)
		if w := (v-im.Mean[c])*im.Mul[c] + im.Bias[c]; got[k] != w {
			t.Fatalf("value %d: %v, want (%v - %v)*%v + %v = %v", k, got[k], v, im.Mean[c], im.Mul[c], im.Bias[c], w)
		}
	}
	im = shift
	im.Flip, im.Mul, im.Bias = true, [3]float32{2, 2, 2}, [3]float32{1, 1, 1}
	im.MeanImage = make([]float32, len(plain))
	for k := range im.MeanImage {
		im.MeanImage[k] = float32(k % 11)
	}
	wantMean := make([]float32, len(plain))
	for k, v := range plain {
		wantMean[k] = (v-im.MeanImage[k])*2 + 1
	}
	if diff := cmp.Diff(mirror(wantMean, CHW, 30, 20), run(im, CHW)); diff != "" {
		t.Errorf("MeanImage under Flip (-want +got):\n%s", diff)
	}

	// ShiftHLS with no shift: OpenCV's round trip through HLS alone.
	im = shift
	im.ShiftHLS = true
	trip := rgbOf(view{pix: src.Pix, stride: src.Stride, w: 160, h: 120}.sub(image.Rect(41, 7, 71, 27)))
	shiftHLS(view{pix: trip.Pix, stride: trip.Stride, w: 30, h: 20}, [3]int{})
	var wantTrip []float32
	for _, v := range trip.Pix {
		wantTrip = append(wantTrip, float32(v))
	}
	if diff := cmp.Diff(wantTrip, run(im, HWC)); diff != "" {
		t.Errorf("ShiftHLS with a zero shift (-want +got):\n%s", diff)
	}
	if cmp.Equal(wantTrip, want) {
		t.Errorf("the test photo's HLS round trip changes nothing: the case tests nothing")
	}
}

// TestAffineErrors: a Draw's error is Apply's, naming the image; a Draw that
// gives a mapping that is not finite, a filter not of the package or a mean
// image of the wrong size panics with a *container.ArgError; New panics with
// one for an Affine step with another geometry, with no Draw or of no size.
func TestAffineErrors(t *testing.T) {
	src := rgbOf(loadPNG(t, "small.png")) // 40x30
	p := New(CHW, cropStep(image.Pt(8, 8), 50, 60))
	rng := rand.New(rand.NewPCG(1, 2))
	if err := p.ApplyRGB(make([]float32, p.Len()), src, rng); !errors.Is(err, errTestSmall) {
		t.Errorf("ApplyRGB: %v, want the Draw's error", err)
	}
	dec := newMemDecoder(loadPNG(t, "small.png"), 1)
	if err := p.Apply(make([]float32, p.Len()), dec, "small.png", nil, rng); !errors.Is(err, errTestSmall) || !strings.Contains(err.Error(), "small.png") {
		t.Errorf("Apply: %v, want the Draw's error naming the image", err)
	}
	for name, im := range map[string]AffineImage{
		"Map":            {Map: [6]float64{1, 0, math.NaN(), 0, 1, 0}},
		"Filter":         {Map: identity.Map, Filter: numFilters},
		"len(MeanImage)": {Map: identity.Map, MeanImage: make([]float32, 5)},
		"Map (infinite)": {Map: [6]float64{math.Inf(1), 0, 0, 0, 1, 0}},
	} {
		p := New(CHW, fixed(image.Pt(4, 4), im))
		v := recovered(func() { _ = p.ApplyRGB(make([]float32, p.Len()), src, rng) })
		ae, ok := v.(*container.ArgError)
		if !ok || ae.Op != "augment.Affine.Draw" || !strings.HasPrefix(name, ae.Arg) {
			t.Errorf("%s: ApplyRGB panicked with %v, want a *container.ArgError of augment.Affine.Draw naming %s", name, v, name)
		}
	}
	step := warpStep(image.Pt(8, 8))
	for name, steps := range map[string][]Step{
		"after a geometry": {CenterCrop{Size: image.Pt(8, 8)}, step},
		"before a flip":    {step, RandomHorizontalFlip{}},
		"no Draw":          {Affine{Size: image.Pt(8, 8)}},
		"no size":          {Affine{Draw: step.Draw}},
	} {
		v := recovered(func() { New(CHW, steps...) })
		if ae, ok := v.(*container.ArgError); !ok || ae.Op != "augment.New" {
			t.Errorf("%s: New panicked with %v, want a *container.ArgError of augment.New", name, v)
		}
	}
	if v := recovered(func() { New(CHW, ExifTranspose{}, step) }); v != nil {
		t.Errorf("ExifTranspose, Affine: New panicked with %v", v)
	}
}

// recovered returns the value f panics with, or nil.
func recovered(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}
