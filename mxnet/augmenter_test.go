package mxnet

import (
	"errors"
	"image"
	"io/fs"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

// TestAugmenterOpenCV checks MXNet's augmenter, with parameters that draw
// nothing, against MXNet's steps done with OpenCV (testdata/make_expected.py):
// a centred crop exactly, the resizes, the crop size, the enlarging of a small
// image, a rotation and the padding within 3 levels and a mean of 0.4 (OpenCV
// resamples in its own fixed point, and warpAffine moves pixels by 1/32).
func TestAugmenterOpenCV(t *testing.T) {
	cases, err := loadCases()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 7 {
		t.Fatalf("%d cases in testdata/cases.json, want 7", len(cases))
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			src := loadPNG(t, c.Src)
			if c.SrcCrop != nil {
				src = sub(src, image.Rect(c.SrcCrop[0], c.SrcCrop[1], c.SrcCrop[2], c.SrcCrop[3]))
			}
			m := NewAugmenter(3, c.Shape[0], c.Shape[1])
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
			out := apply(t, m, augment.HWC, src, rng)
			got := make([]uint8, len(out))
			for i, v := range out {
				if v != float32(math.Round(float64(v))) || v < 0 || v > 255 {
					t.Fatalf("value %d is %v: with mean 0, std 1 and scale 1 the output is the 8-bit pixels", i, v)
				}
				got[i] = uint8(v)
			}
			want := expected(t, c.Name).Data()
			maxd, mean := levelDiff(got, want)
			tol, tolMean := 3, 0.4
			if c.Name == "mxnet-crop" {
				tol, tolMean = 0, 0
			}
			t.Logf("max %d levels, mean %.3f", maxd, mean)
			if maxd > tol || mean > tolMean {
				t.Errorf("differs from MXNet's steps with OpenCV by max %d levels (want <= %d), mean %.3f (want <= %v)", maxd, tol, mean, tolMean)
			}
		})
	}
}

// TestAugmenterNormalize checks the iterator's normalization: the output is
// ((v - mean)*contrast + illumination)*scale/std with a mean per channel or a
// mean image, contrast and illumination drawn in their ranges, and a mirror.
func TestAugmenterNormalize(t *testing.T) {
	src := loadPNG(t, "chelsea.png")
	plain := NewAugmenter(3, 20, 30)
	raw := apply(t, plain, augment.CHW, src, rand.New(rand.NewPCG(5, 6)))
	m := plain
	m.MeanR, m.MeanG, m.MeanB = 123.68, 116.28, 103.53
	m.StdR, m.StdG, m.StdB = 58.395, 57.12, 57.375
	m.Scale = 0.5
	m.MaxRandomContrast, m.MaxRandomIllumination = 0.3, 20
	mean := [3]float64{m.MeanR, m.MeanG, m.MeanB}
	std := [3]float64{m.StdR, m.StdG, m.StdB}
	for seed := range uint64(20) {
		got := apply(t, m, augment.CHW, src, rand.New(rand.NewPCG(seed, 0)))
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
	got := apply(t, m, augment.CHW, src, rand.New(rand.NewPCG(1, 2)))
	want := make([]float32, len(raw))
	for k, v := range raw {
		want[k] = v - m.MeanImg[k]
	}
	if diff := cmp.Diff(mirrorCHW(want, 30, 20), got); diff != "" {
		t.Errorf("mean image and mirror (-want +got):\n%s", diff)
	}
}

// outBox returns the part of the source an output of size out covers under
// im's mapping without rotation or shear, in edge coordinates: x0, y0, x1, y1.
func outBox(im *augment.AffineImage, out image.Point) [4]float64 {
	ax, ay := im.Map[0], im.Map[4]
	x0, y0 := im.Map[2]+0.5-0.5*ax, im.Map[5]+0.5-0.5*ay
	return [4]float64{x0, y0, x0 + ax*float64(out.X), y0 + ay*float64(out.Y)}
}

// drawn draws one image of m for a source of size src.
func drawn(t *testing.T, m Augmenter, src image.Point, rng *rand.Rand) augment.AffineImage {
	t.Helper()
	im := augment.AffineImage{Map: [6]float64{1, 0, 0, 0, 1, 0}, Mul: [3]float32{1, 1, 1}}
	if err := m.draw(src, rng, &im); err != nil {
		t.Fatal(err)
	}
	return im
}

// TestAugmenterRandom checks the random parameters' draws: crop sizes and
// positions within their ranges and every value reached, the mirror of
// rand_mirror about half the time, the HLS shifts within their ranges.
func TestAugmenterRandom(t *testing.T) {
	m := NewAugmenter(3, 32, 32)
	m.RandCrop, m.MinCropSize, m.MaxCropSize = true, 40, 60
	rng := rand.New(rand.NewPCG(8, 9))
	sizes, xs := map[int]bool{}, map[int]bool{}
	for range 3000 {
		im := drawn(t, m, image.Pt(100, 80), rng)
		if im.Warp || im.Map[1] != 0 || im.Map[3] != 0 || !im.Crop {
			t.Fatalf("%+v: a crop without rotation or shear must resample a crop separably", im)
		}
		box := outBox(&im, image.Pt(32, 32))
		size := box[2] - box[0]
		if size != math.Round(size) || size < 40 || size > 60 || box[3]-box[1] != size {
			t.Fatalf("crop box %v: want a square of a whole side in [40, 60]", box)
		}
		if box[0] < 0 || box[2] > 100 || box[1] < 0 || box[3] > 80 {
			t.Fatalf("crop box %v is outside the 100x80 image", box)
		}
		sizes[int(size)], xs[int(box[0])] = true, true
	}
	if len(sizes) != 21 || len(xs) != 61 {
		t.Errorf("%d crop sizes of 21, %d x positions of 61 reached", len(sizes), len(xs))
	}
	m = NewAugmenter(3, 8, 8)
	m.RandMirror, m.RandomH, m.RandomS, m.RandomL = true, 10, 20, 30
	flips := 0
	for range 2000 {
		im := drawn(t, m, image.Pt(8, 8), rng)
		if im.Flip {
			flips++
		}
		d := im.HLS
		if !im.ShiftHLS || d[0] < -10 || d[0] > 10 || d[2] < -20 || d[2] > 20 || d[1] < -30 || d[1] > 30 {
			t.Fatalf("HLS shift %v (%v) outside +-(10, 30, 20)", d, im.ShiftHLS)
		}
	}
	if flips < 1000-90 || flips > 1000+90 {
		t.Errorf("%d of 2000 images mirrored by rand_mirror", flips)
	}
	// An image smaller than max_crop_size is an error, as MXNet refuses it.
	m = NewAugmenter(3, 8, 8)
	m.MinCropSize, m.MaxCropSize = 10, 200
	p := augment.New(augment.CHW, m.Step())
	err := p.ApplyRGB(make([]float32, p.Len()), loadPNG(t, "small.png"), rng)
	if !errors.Is(err, ErrTooSmall) {
		t.Errorf("ApplyRGB of a 40x30 image with max_crop_size 200 = %v, want ErrTooSmall", err)
	}
}

// TestAugmenterCrops checks that every crop mode keeps its crop inside the
// image, whatever the image's size, and reaches every position it may take:
// the centred crop, rand_crop, the fixed crop_x_start and crop_y_start
// (capped by the image), with a resize first or an image smaller than the
// output enlarged, and the crop sizes centred or at random. Each draw's box
// (the part of the image the output covers) must lie in the image and have
// the size the mode gives it.
func TestAugmenterCrops(t *testing.T) {
	out := image.Pt(24, 16)
	for _, c := range []struct {
		name string
		set  func(m *Augmenter)
		// pos returns the box's possible x0 and y0 for an image of size
		// cur after the resize and enlarging; whole are the crop's sides.
		pos func(cur image.Point) (xs, ys []int)
	}{
		{"centre", func(m *Augmenter) {}, func(cur image.Point) ([]int, []int) {
			return []int{(cur.X - out.X) / 2}, []int{(cur.Y - out.Y) / 2}
		}},
		{"rand_crop", func(m *Augmenter) { m.RandCrop = true }, func(cur image.Point) ([]int, []int) {
			return upTo(cur.X - out.X), upTo(cur.Y - out.Y)
		}},
		{"crop_x_start", func(m *Augmenter) { m.CropXStart, m.CropYStart = 5, 50 }, func(cur image.Point) ([]int, []int) {
			return []int{min(5, cur.X-out.X)}, []int{min(50, cur.Y-out.Y)}
		}},
		{"resize", func(m *Augmenter) { m.Resize, m.RandCrop = 30, true }, func(cur image.Point) ([]int, []int) {
			return upTo(cur.X - out.X), upTo(cur.Y - out.Y)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := NewAugmenter(3, out.Y, out.X)
			c.set(&m)
			rng := rand.New(rand.NewPCG(3, 4))
			for _, src := range []image.Point{{24, 16}, {25, 17}, {40, 30}, {31, 90}, {10, 8}, {300, 17}, {23, 200}} {
				// The image after the resize and the enlarging, as MXNet
				// computes them.
				cur := src
				if m.Resize > 0 {
					if src.Y > src.X {
						cur = image.Pt(m.Resize, m.Resize*src.Y/src.X)
					} else {
						cur = image.Pt(m.Resize*src.X/src.Y, m.Resize)
					}
				}
				if cur.Y < out.Y {
					cur = image.Pt(int(float32(out.Y)/float32(cur.Y)*float32(cur.X)), out.Y)
				}
				if cur.X < out.X {
					cur = image.Pt(out.X, int(float32(out.X)/float32(cur.X)*float32(cur.Y)))
				}
				xs, ys := c.pos(cur)
				seenX, seenY := map[int]bool{}, map[int]bool{}
				for range 40 * (len(xs) + len(ys)) {
					im := drawn(t, m, src, rng)
					box := outBox(&im, out)
					// In cur's pixels: the box over the scale of cur to src.
					sx, sy := float64(src.X)/float64(cur.X), float64(src.Y)/float64(cur.Y)
					x0, y0 := box[0]/sx, box[1]/sy
					w, h := (box[2]-box[0])/sx, (box[3]-box[1])/sy
					if math.Abs(w-float64(out.X)) > 1e-6 || math.Abs(h-float64(out.Y)) > 1e-6 {
						t.Fatalf("%v (%v after resizing): box %v is %vx%v of the resized image, want the output's %v", src, cur, box, w, h, out)
					}
					if box[0] < -1e-9 || box[1] < -1e-9 || box[2] > float64(src.X)+1e-9 || box[3] > float64(src.Y)+1e-9 {
						t.Fatalf("%v: box %v is outside the image", src, box)
					}
					x, y := int(math.Round(x0)), int(math.Round(y0))
					if math.Abs(x0-float64(x)) > 1e-6 || math.Abs(y0-float64(y)) > 1e-6 {
						t.Fatalf("%v: box %v starts at %v, %v of the resized image, not a whole pixel", src, box, x0, y0)
					}
					seenX[x], seenY[y] = true, true
				}
				if diff := cmp.Diff(setOf(xs), seenX); diff != "" {
					t.Errorf("%v: x positions (-want +got):\n%s", src, diff)
				}
				if diff := cmp.Diff(setOf(ys), seenY); diff != "" {
					t.Errorf("%v: y positions (-want +got):\n%s", src, diff)
				}
			}
		})
	}
	// The crop sizes: centred, or at random, in an image larger than
	// max_crop_size.
	for _, rand_crop := range []bool{false, true} {
		m := NewAugmenter(3, out.Y, out.X)
		m.MinCropSize, m.MaxCropSize, m.RandCrop = 20, 23, rand_crop
		rng := rand.New(rand.NewPCG(5, 6))
		src := image.Pt(26, 40)
		seen := map[[3]int]bool{}
		for range 4000 {
			im := drawn(t, m, src, rng)
			box := outBox(&im, out)
			if box[0] < -1e-9 || box[1] < -1e-9 || box[2] > float64(src.X)+1e-9 || box[3] > float64(src.Y)+1e-9 {
				t.Fatalf("rand_crop %v: crop box %v is outside the %v image", rand_crop, box, src)
			}
			size := int(math.Round(box[2] - box[0]))
			seen[[3]int{size, int(math.Round(box[0])), int(math.Round(box[1]))}] = true
		}
		want := map[[3]int]bool{}
		for size := 20; size <= 23; size++ {
			if !rand_crop {
				want[[3]int{size, (src.X - size) / 2, (src.Y - size) / 2}] = true
				continue
			}
			for x := range src.X - size + 1 {
				for y := range src.Y - size + 1 {
					want[[3]int{size, x, y}] = true
				}
			}
		}
		if diff := cmp.Diff(want, seen); diff != "" {
			t.Errorf("rand_crop %v: crops (size, x, y) reached (-want +got):\n%s", rand_crop, diff)
		}
	}
}

// upTo returns 0, 1, ..., n.
func upTo(n int) []int {
	out := make([]int, n+1)
	for i := range out {
		out[i] = i
	}
	return out
}

func setOf(v []int) map[int]bool {
	s := map[int]bool{}
	for _, x := range v {
		s[x] = true
	}
	return s
}

// TestAugmenterSet checks the parameters by MXNet's names.
func TestAugmenterSet(t *testing.T) {
	m := NewAugmenter(3, 1, 1)
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
	want := NewAugmenter(3, 224, 200)
	want.Resize, want.RandCrop, want.MaxRotateAngle, want.MaxAspectRatio, want.MaxShearRatio = 256, true, 10, 0.25, 0.1
	want.MinCropSize, want.MaxCropSize, want.MinRandomScale, want.MaxRandomScale = 150, 224, 0.5, 1.5
	want.RandomH, want.RandomS, want.RandomL, want.FillValue, want.InterMethod, want.RandMirror = 36, 50, 50, 127, 10, true
	want.MeanR, want.StdB, want.Scale, want.MaxRandomContrast, want.MaxRandomIllumination = 123.68, 57.375, 0.0078125, 0.2, 10
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("Set mismatch (-want +got):\n%s", diff)
	}
	if err := m.Check(); err != nil {
		t.Errorf("Check with every parameter set: %v", err)
	}
	for _, kv := range [][2]string{
		{"no_such", "1"}, {"resize", "1.5"}, {"resize", "3e9"}, {"rand_crop", "maybe"}, {"data_shape", "3,224"},
		{"data_shape", "3,a,4"}, {"scale", "half"}, {"mean_a", "x"}, {"mean_img", "testdata/none.npy"},
	} {
		err := m.Set(kv[0], kv[1])
		if !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), kv[0]) {
			t.Errorf("Set(%q, %q) = %v, want an error wrapping ErrParam naming it", kv[0], kv[1], err)
		}
	}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("after refused values: (-want +got):\n%s", diff)
	}
}

// TestAugmenterCheck: each value out of range, or values that do not fit
// together, is an error of Check wrapping ErrParam that names the parameter,
// and Step's panic with a *container.ArgError naming it; MXNet's defaults
// pass.
func TestAugmenterCheck(t *testing.T) {
	def := NewAugmenter(3, 8, 8)
	if err := def.Check(); err != nil {
		t.Fatalf("MXNet's defaults: %v", err)
	}
	for _, c := range []struct {
		param string
		set   func(m *Augmenter)
	}{
		{"data_shape", func(m *Augmenter) { m.DataShape[0] = 1 }},
		{"data_shape", func(m *Augmenter) { m.DataShape[2] = 0 }},
		{"data_shape height", func(m *Augmenter) { m.DataShape[1] = 1 << 40 }},
		{"inter_method", func(m *Augmenter) { m.InterMethod = 5 }},
		{"std_r", func(m *Augmenter) { m.StdG = 0 }},
		{"min_random_scale", func(m *Augmenter) { m.MinRandomScale = 2 }},
		{"min_random_scale", func(m *Augmenter) { m.MinRandomScale, m.MaxRandomScale = 0, 0 }},
		{"max_aspect_ratio", func(m *Augmenter) { m.MaxAspectRatio = 1 }},
		{"max_shear_ratio", func(m *Augmenter) { m.MaxShearRatio = -0.1 }},
		{"max_rotate_angle", func(m *Augmenter) { m.MaxRotateAngle = -1 }},
		{"pad", func(m *Augmenter) { m.Pad = -1 }},
		{"resize", func(m *Augmenter) { m.Resize = 1 << 40 }},
		{"min_crop_size", func(m *Augmenter) { m.MinCropSize, m.MaxCropSize = 30, 20 }},
		{"min_crop_size", func(m *Augmenter) { m.MaxCropSize = 20 }},
		{"fill_value", func(m *Augmenter) { m.FillValue = 256 }},
		{"random_h", func(m *Augmenter) { m.RandomS = -1 }},
		{"mean_img", func(m *Augmenter) { m.MeanImg = make([]float32, 10) }},
		{"max_img_size", func(m *Augmenter) { m.MinImgSize = 2e10 }},
		{"scale", func(m *Augmenter) { m.Scale = math.NaN() }},
	} {
		m := def
		c.set(&m)
		err := m.Check()
		if !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), c.param) {
			t.Errorf("%s: Check() = %v, want an error wrapping ErrParam naming it", c.param, err)
		}
		var ae *container.ArgError
		if v := recovered(func() { m.Step() }); !isArgError(v, &ae) || !strings.Contains(ae.Arg, c.param) || ae.Op != "mxnet.Augmenter.Step" {
			t.Errorf("%s: Step() panicked with %v, want a *container.ArgError of mxnet.Augmenter.Step naming it", c.param, v)
		}
	}
}

func isArgError(v any, ae **container.ArgError) bool {
	e, ok := v.(*container.ArgError)
	*ae = e
	return ok
}

// TestReadMeanImg reads a mean image of the data shape, and refuses one of
// another shape, of another type or missing, naming the file; Set reads
// mean_img with it.
func TestReadMeanImg(t *testing.T) {
	dir := t.TempDir()
	vals := make([]float32, 3*4*5)
	for i := range vals {
		vals[i] = float32(i) / 2
	}
	save := func(name string, a any) string {
		t.Helper()
		path := filepath.Join(dir, name)
		var err error
		switch a := a.(type) {
		case *arraycontainer.Array[float32]:
			err = npy.Save(path, a)
		case *arraycontainer.Array[float64]:
			err = npy.Save(path, a)
		}
		if err != nil {
			t.Fatal(err)
		}
		return path
	}
	arr := func(shape ...int) *arraycontainer.Array[float32] {
		a, err := arraycontainer.New(vals, shape, obsdim.First)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	good := save("mean.npy", arr(3, 4, 5))
	got, err := ReadMeanImg(good, [3]int{3, 4, 5})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(vals, got); diff != "" {
		t.Errorf("ReadMeanImg mismatch (-want +got):\n%s", diff)
	}
	if _, err := ReadMeanImg(good, [3]int{3, 5, 4}); err == nil || !strings.Contains(err.Error(), "[3 4 5]") || !strings.Contains(err.Error(), "[3 5 4]") || !strings.Contains(err.Error(), good) {
		t.Errorf("another shape: %v, want an error naming the file and both shapes", err)
	}
	f64, err := arraycontainer.New(make([]float64, 60), []int{3, 4, 5}, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	double := save("double.npy", f64)
	if _, err := ReadMeanImg(double, [3]int{3, 4, 5}); !errors.Is(err, npy.ErrType) || !strings.Contains(err.Error(), double) {
		t.Errorf("float64 values: %v, want npy.ErrType naming the file", err)
	}
	missing := filepath.Join(dir, "missing.npy")
	if _, err := ReadMeanImg(missing, [3]int{3, 4, 5}); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist naming it", err)
	}

	m := NewAugmenter(3, 4, 5)
	if err := m.Set("mean_img", good); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(vals, m.MeanImg); diff != "" {
		t.Errorf("Set(mean_img) mismatch (-want +got):\n%s", diff)
	}
	if err := m.Set("mean_img", missing); !errors.Is(err, ErrParam) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Set(mean_img) of a missing file: %v, want ErrParam and fs.ErrNotExist", err)
	}
	// A mean image that no longer fits the data shape is Check's error.
	if err := m.Set("data_shape", "3,8,8"); err != nil {
		t.Fatal(err)
	}
	if err := m.Check(); !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), "mean_img") {
		t.Errorf("mean_img of another shape than data_shape: Check() = %v, want ErrParam naming mean_img", err)
	}
}
