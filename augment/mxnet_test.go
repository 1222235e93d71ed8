package augment

import (
	"errors"
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMXNetOpenCV checks MXNet's augmenter, with parameters that draw
// nothing, against MXNet's steps done with OpenCV (testdata/make_expected.py):
// a centred crop exactly, the resizes, the crop size, the enlarging of a small
// image, a rotation and the padding within 3 levels and a mean of 0.4 (OpenCV
// resamples in its own fixed point, and warpAffine moves pixels by 1/32).
func TestMXNetOpenCV(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range testCases(t).MXNet {
		t.Run(c.Name, func(t *testing.T) {
			src := loadPNG(t, c.Src)
			if c.SrcCrop != nil {
				src = src.sub(image.Rect(c.SrcCrop[0], c.SrcCrop[1], c.SrcCrop[2], c.SrcCrop[3]))
			}
			m := NewMXNet(3, c.Shape[0], c.Shape[1])
			set := func(p *int, f *int) {
				if p != nil {
					*f = *p
				}
			}
			set(c.Resize, &m.Resize)
			set(c.Rotate, &m.Rotate)
			set(c.Pad, &m.Pad)
			set(c.Fill, &m.FillValue)
			set(c.Inter, &m.InterMethod)
			if c.Crop != nil {
				m.MinCropSize, m.MaxCropSize = *c.Crop, *c.Crop
			}
			p, err := New(HWC, m)
			if err != nil {
				t.Fatal(err)
			}
			out := make([]float32, p.Len())
			if err := p.ApplyRGB(out, rgbOf(src), rng); err != nil {
				t.Fatal(err)
			}
			got := make([]uint8, len(out))
			for i, v := range out {
				if v != float32(math.Round(float64(v))) || v < 0 || v > 255 {
					t.Fatalf("value %d is %v: with mean 0, std 1 and scale 1 the output is the 8-bit pixels", i, v)
				}
				got[i] = uint8(v)
			}
			want := expected[uint8](t, c.Name).Data()
			maxd, mean := levelDiff(got, want)
			tol, tolMean := 3, 0.4
			switch c.Name {
			case "mxnet-crop":
				tol, tolMean = 0, 0
			}
			t.Logf("max %d levels, mean %.3f", maxd, mean)
			if maxd > tol || mean > tolMean {
				t.Errorf("differs from MXNet's steps with OpenCV by max %d levels (want <= %d), mean %.3f (want <= %v)", maxd, tol, mean, tolMean)
			}
		})
	}
}

// TestMXNetNormalize checks the iterator's normalization: the output is
// ((v - mean)*contrast + illumination)*scale/std with a mean per channel or a
// mean image, contrast and illumination drawn in their ranges, and a mirror.
func TestMXNetNormalize(t *testing.T) {
	src := rgbOf(loadPNG(t, "chelsea.png"))
	plain := NewMXNet(3, 20, 30)
	base, err := New(CHW, plain)
	if err != nil {
		t.Fatal(err)
	}
	raw := make([]float32, base.Len())
	rng := rand.New(rand.NewPCG(5, 6))
	if err := base.ApplyRGB(raw, src, rng); err != nil {
		t.Fatal(err)
	}
	m := plain
	m.MeanR, m.MeanG, m.MeanB = 123.68, 116.28, 103.53
	m.StdR, m.StdG, m.StdB = 58.395, 57.12, 57.375
	m.Scale = 0.5
	m.MaxRandomContrast, m.MaxRandomIllumination = 0.3, 20
	p, err := New(CHW, m)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]float32, p.Len())
	mean := [3]float64{m.MeanR, m.MeanG, m.MeanB}
	std := [3]float64{m.StdR, m.StdG, m.StdB}
	for seed := range uint64(20) {
		if err := p.ApplyRGB(got, src, rand.New(rand.NewPCG(seed, 0))); err != nil {
			t.Fatal(err)
		}
		// Recover contrast and illumination from two pixels of channel 0,
		// then check every value with them.
		i, j := 0, 1
		for raw[j] == raw[i] {
			j++
		}
		a := (float64(got[i]) - float64(got[j])) * std[0] / m.Scale / (float64(raw[i]) - float64(raw[j]))
		b := float64(got[i])*std[0]/m.Scale - (float64(raw[i])-mean[0])*a
		if a < 0.7-1e-4 || a > 1.3+1e-4 || b < -20-1e-3 || b > 20+1e-3 {
			t.Fatalf("seed %d: contrast %v, illumination %v outside [0.7, 1.3], [-20, 20]", seed, a, b)
		}
		for k, v := range got {
			c := k / (20 * 30)
			want := ((float64(raw[k])-mean[c])*a + b) * m.Scale / std[c]
			if math.Abs(float64(v)-want) > 1e-3 {
				t.Fatalf("seed %d: value %d is %v, want %v", seed, k, v, want)
			}
		}
	}
	// A mean image is subtracted where the pixel was before the mirror.
	m = plain
	m.Mirror = true
	m.MeanImg = make([]float32, len(raw))
	for k := range m.MeanImg {
		m.MeanImg[k] = float32(k % 7)
	}
	p, err = New(CHW, m)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.ApplyRGB(got, src, rng); err != nil {
		t.Fatal(err)
	}
	want := make([]float32, len(raw))
	for k, v := range raw {
		want[k] = v - m.MeanImg[k]
	}
	if diff := cmp.Diff(mirror(want, CHW, 30, 20), got); diff != "" {
		t.Errorf("mean image and mirror (-want +got):\n%s", diff)
	}
}

// TestMXNetRandom checks the random parameters' draws: crop sizes and
// positions within their ranges and every value reached, the mirror of
// rand_mirror about half the time, the HLS shifts within their ranges.
func TestMXNetRandom(t *testing.T) {
	m := NewMXNet(3, 32, 32)
	m.RandCrop, m.MinCropSize, m.MaxCropSize = true, 40, 60
	m.MaxRotateAngle, m.MaxShearRatio, m.MaxAspectRatio = 0, 0, 0
	rng := rand.New(rand.NewPCG(8, 9))
	sizes, xs := map[int]bool{}, map[int]bool{}
	var g geomPlan
	for range 3000 {
		if err := (Affine{Size: m.outSize(), Draw: m.draw}).plan(image.Pt(100, 80), rng, &g); err != nil {
			t.Fatal(err)
		}
		if g.warp {
			t.Fatal("a crop without rotation or shear must resample separably")
		}
		size := g.rs.box[2] - g.rs.box[0]
		if size != math.Round(size) || size < 40 || size > 60 || g.rs.box[3]-g.rs.box[1] != size {
			t.Fatalf("crop box %v: want a square of a whole side in [40, 60]", g.rs.box)
		}
		x := g.rs.region.Min.X + int(g.rs.box[0])
		if x < 0 || x+int(size) > 100 {
			t.Fatalf("crop box %v in region %v is outside the image", g.rs.box, g.rs.region)
		}
		sizes[int(size)], xs[x] = true, true
	}
	if len(sizes) != 21 || len(xs) != 61 {
		t.Errorf("%d crop sizes of 21, %d x positions of 61 reached", len(sizes), len(xs))
	}
	m = NewMXNet(3, 8, 8)
	m.RandMirror, m.RandomH, m.RandomS, m.RandomL = true, 10, 20, 30
	p, err := New(CHW, m)
	if err != nil {
		t.Fatal(err)
	}
	flips := 0
	for range 2000 {
		im := identity
		if err := m.draw(image.Pt(8, 8), rng, &im); err != nil {
			t.Fatal(err)
		}
		if im.Flip {
			flips++
		}
		d := im.HLS
		if d[0] < -10 || d[0] > 10 || d[2] < -20 || d[2] > 20 || d[1] < -30 || d[1] > 30 {
			t.Fatalf("HLS shift %v outside +-(10, 30, 20)", d)
		}
	}
	if flips < 1000-90 || flips > 1000+90 {
		t.Errorf("%d of 2000 images mirrored by rand_mirror", flips)
	}
	// An image smaller than max_crop_size is an error, as MXNet refuses it.
	m = NewMXNet(3, 8, 8)
	m.MinCropSize, m.MaxCropSize = 10, 200
	p, err = New(CHW, m)
	if err != nil {
		t.Fatal(err)
	}
	err = p.ApplyRGB(make([]float32, p.Len()), rgbOf(loadPNG(t, "small.png")), rng)
	if !errors.Is(err, ErrTooSmall) {
		t.Errorf("ApplyRGB of a 40x30 image with max_crop_size 200 = %v, want ErrTooSmall", err)
	}
}

// TestMXNetSet checks the parameters by MXNet's names.
func TestMXNetSet(t *testing.T) {
	m := NewMXNet(3, 1, 1)
	for _, kv := range [][2]string{
		{"data_shape", "(3, 224, 200)"}, {"resize", "256"}, {"rand_crop", "True"}, {"max_rotate_angle", "10"},
		{"max_aspect_ratio", "0.25"}, {"max_shear_ratio", "0.1"}, {"min_crop_size", "150"}, {"max_crop_size", "224"},
		{"min_random_scale", "0.5"}, {"max_random_scale", "1.5"}, {"random_h", "36"}, {"random_s", "50"},
		{"random_l", "50"}, {"fill_value", "127"}, {"inter_method", "10"}, {"rand_mirror", "1"},
		{"mean_r", "123.68"}, {"std_b", "57.375"}, {"scale", "0.0078125"}, {"max_random_contrast", "0.2"},
		{"max_random_illumination", "10"}, {"crop_y_start", "-1.0"}, {"mean_a", "0"},
	} {
		if err := m.Set(kv[0], kv[1]); err != nil {
			t.Fatalf("Set(%q, %q): %v", kv[0], kv[1], err)
		}
	}
	want := NewMXNet(3, 224, 200)
	want.Resize, want.RandCrop, want.MaxRotateAngle, want.MaxAspectRatio, want.MaxShearRatio = 256, true, 10, 0.25, 0.1
	want.MinCropSize, want.MaxCropSize, want.MinRandomScale, want.MaxRandomScale = 150, 224, 0.5, 1.5
	want.RandomH, want.RandomS, want.RandomL, want.FillValue, want.InterMethod, want.RandMirror = 36, 50, 50, 127, 10, true
	want.MeanR, want.StdB, want.Scale, want.MaxRandomContrast, want.MaxRandomIllumination = 123.68, 57.375, 0.0078125, 0.2, 10
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("Set mismatch (-want +got):\n%s", diff)
	}
	if _, err := New(CHW, m); err != nil {
		t.Errorf("New with every parameter set: %v", err)
	}
	for _, kv := range [][2]string{{"no_such", "1"}, {"resize", "1.5"}, {"rand_crop", "maybe"}, {"data_shape", "3,224"}, {"mean_img", "testdata/none.npy"}} {
		if err := m.Set(kv[0], kv[1]); !errors.Is(err, ErrConfig) {
			t.Errorf("Set(%q, %q) = %v, want an error wrapping ErrConfig", kv[0], kv[1], err)
		}
	}
	bad := NewMXNet(3, 8, 8)
	bad.InterMethod = 5
	if _, err := New(CHW, bad); !errors.Is(err, ErrConfig) {
		t.Errorf("New with inter_method 5 = %v, want ErrConfig", err)
	}
}
