package turbo_test

import (
	"errors"
	"fmt"
	"image"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/internal/codectest"
	"github.com/obskit/obskit/imagecodec/turbo"
)

// need skips a test when libjpeg-turbo cannot be used, unless
// OBSKIT_REQUIRE_TURBO is set (make test sets it, having installed the
// library), when it fails.
func need(t testing.TB) imagecodec.Decoder {
	t.Helper()
	if err := turbo.Available().Err; err != nil {
		if os.Getenv("OBSKIT_REQUIRE_TURBO") != "" {
			t.Fatalf("OBSKIT_REQUIRE_TURBO is set: %v", err)
		}
		t.Skipf("%v", err)
	}
	return turbo.New(imagecodec.Options{})
}

var sentinels = map[string]error{
	"format":      imagecodec.ErrFormat,
	"unsupported": imagecodec.ErrUnsupported,
	"too large":   imagecodec.ErrTooLarge,
}

// TestConformance: every JPEG exactly as Pillow decodes it (it is Pillow's
// own libjpeg-turbo, 2.1.5 here; issue 16 allowed 1 level), the pure-Go
// decoder's pixels exactly for the other formats, and the bad files refused
// with their names.
func TestConformance(t *testing.T) {
	d := need(t)
	pure := imagecodec.New(imagecodec.Options{})
	for _, c := range codectest.Cases(t, "../testdata") {
		t.Run(c.Name, func(t *testing.T) {
			data := c.Data(t)
			got, scale, err := d.Decode(nil, c.Name, data, imagecodec.Request{})
			if c.Error != "" {
				if !errors.Is(err, sentinels[c.Error]) || !strings.Contains(err.Error(), c.Name) {
					t.Fatalf("Decode(%s) = %v, want an error wrapping %v naming the file", c.Name, err, sentinels[c.Error])
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if scale != 1 || got.Rect != image.Rect(0, 0, c.Width, c.Height) {
				t.Fatalf("Decode = %v at scale %v, want %dx%d at 1", got.Rect, scale, c.Width, c.Height)
			}
			want := c.Want(t, got)
			if c.Format == "JPEG" {
				if diff := codectest.Compare(t, got, want); diff.Max != 0 {
					t.Errorf("off Pillow by up to %d levels (mean %.4f), want exact", diff.Max, diff.Mean)
				}
			} else {
				p, _, err := pure.Decode(nil, c.Name, data, imagecodec.Request{})
				if err != nil {
					t.Fatal(err)
				}
				if diff := codectest.Compare(t, got, p); diff.Max != 0 {
					t.Errorf("off the pure-Go decoder by up to %d levels, want its pixels", diff.Max)
				}
			}
			if c.OrientedSHA256 != "" {
				o, _, err := d.Decode(nil, c.Name, data, imagecodec.Request{Orient: true})
				if err != nil {
					t.Fatal(err)
				}
				ref := codectest.Orient(got, c.Orientation)
				if diff := codectest.Compare(t, o, ref); diff.Max != 0 {
					t.Errorf("oriented decode off the oriented full decode by %d levels", diff.Max)
				}
				if c.Format == "JPEG" && codectest.Hash(o) != c.OrientedSHA256 {
					t.Errorf("oriented decode: hash %s, Pillow's exif_transpose %s", codectest.Hash(o), c.OrientedSHA256)
				}
			}
		})
	}
}

// jpegs are the cases that cover every kind of JPEG for the crop and scale
// tests: each chroma subsampling, gray, CMYK, YCCK, progressive, restart
// markers, arithmetic coding, and a photograph of the shared set.
var jpegs = []string{"cj_444.jpg", "cj_422.jpg", "cj_420.jpg", "cj_440.jpg", "cj_411.jpg", "cj_410.jpg", "cj_gray.jpg",
	"pil_cmyk.jpg", "im_ycck.jpg", "cj_progressive_restart.jpg", "cj_arithmetic.jpg", "cj_restart.jpg", "coffee_q85_422.jpg"}

func read(t testing.TB, name string) []byte {
	b, err := os.ReadFile("../testdata/images/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// randomCrop returns a crop of b, at least 1 by 1.
func randomCrop(r *rand.Rand, b image.Rectangle) image.Rectangle {
	x0, y0 := r.IntN(b.Dx()), r.IntN(b.Dy())
	return image.Rect(x0, y0, x0+1+r.IntN(b.Dx()-x0), y0+1+r.IntN(b.Dy()-y0))
}

// TestCrop: a crop decoded at full size is the crop of the full decode,
// exactly, oriented or not, into a reused buffer.
func TestCrop(t *testing.T) {
	d := need(t)
	r := rand.New(rand.NewPCG(16, 2))
	for _, name := range append(jpegs, "exif_6.jpg", "exif_7.jpg", "exif_4.jpg") {
		data := read(t, name)
		full, _, err := d.Decode(nil, name, data, imagecodec.Request{})
		if err != nil {
			t.Fatal(err)
		}
		cfg, _ := d.Config(name, data)
		var dst *imagecodec.RGB
		for i := range 30 {
			orient := i%2 == 1 && cfg.Orientation != 1
			ref := full
			if orient {
				ref = codectest.Orient(full, int(cfg.Orientation))
			}
			crop := randomCrop(r, ref.Rect)
			got, scale, err := d.Decode(dst, name, data, imagecodec.Request{Crop: crop, Orient: orient})
			if err != nil {
				t.Fatal(err)
			}
			if got.Rect != crop || scale != 1 {
				t.Fatalf("%s: crop %v: got %v at scale %v", name, crop, got.Rect, scale)
			}
			if diff := codectest.Compare(t, codectest.Crop(got, crop), codectest.Crop(ref, crop)); diff.Max != 0 {
				t.Fatalf("%s: crop %v (orient %v) off the full decode by up to %d levels (mean %.3f)", name, crop, orient, diff.Max, diff.Mean)
			}
			dst = got
		}
	}
}

// boxDown returns m reduced by d: each pixel the rounded mean of a d by d
// block (the blocks of the right and bottom edges cut short).
func boxDown(m *imagecodec.RGB, d int) *imagecodec.RGB {
	w, h := (m.Rect.Dx()+d-1)/d, (m.Rect.Dy()+d-1)/d
	out := imagecodec.NewRGB(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			var sum [3]int
			n := 0
			for yy := y * d; yy < min(y*d+d, m.Rect.Dy()); yy++ {
				for xx := x * d; xx < min(x*d+d, m.Rect.Dx()); xx++ {
					p := m.Pix[m.PixOffset(xx, yy):]
					sum[0], sum[1], sum[2] = sum[0]+int(p[0]), sum[1]+int(p[1]), sum[2]+int(p[2])
					n++
				}
			}
			o := out.Pix[out.PixOffset(x, y):]
			for k := range 3 {
				o[k] = uint8((sum[k] + n/2) / n)
			}
		}
	}
	return out
}

// The tolerances of a decode at scale 1/d against the box reduction of the
// full decode. libjpeg-turbo's scaled inverse DCT keeps the low frequencies
// of each block, a smoothing close to a box filter but not one, and
// subsampled chroma is reduced less than luma. Measured on the JPEGs of the
// test, the worst PSNR and mean absolute difference were 43.2 dB and 0.90
// at 1/2, 39.4 dB and 1.43 at 1/4, 36.0 dB and 2.21 at 1/8 (all 4:1:1, the
// coarsest chroma; 4:2:0 stays above 48 dB), and single samples differ by
// up to 40 levels at sharp edges.
var scaleTolerance = map[int]struct{ psnr, mean float64 }{
	2: {42, 1}, 4: {38, 1.6}, 8: {35, 2.5},
}

// TestScale: a decode of the whole image with a Min that allows a reduction
// comes at the largest one that keeps it at least Min, close to the
// box-filtered full decode (scaleTolerance).
func TestScale(t *testing.T) {
	d := need(t)
	for _, name := range jpegs {
		data := read(t, name)
		cfg, _ := d.Config(name, data)
		full, _, err := d.Decode(nil, name, data, imagecodec.Request{})
		if err != nil {
			t.Fatal(err)
		}
		for _, denom := range []int{2, 4, 8} {
			// The whole image at 1/denom: Min is its size at that scale.
			min := image.Pt(cfg.Width/denom, cfg.Height/denom)
			whole, scale, err := d.Decode(nil, name, data, imagecodec.Request{Min: min})
			if err != nil {
				t.Fatal(err)
			}
			if scale != 1/float64(denom) {
				t.Fatalf("%s: Min %v of %dx%d: scale %v, want 1/%d", name, min, cfg.Width, cfg.Height, scale, denom)
			}
			want := boxDown(full, denom)
			if whole.Rect != want.Rect {
				t.Fatalf("%s at 1/%d: %v, want %v", name, denom, whole.Rect, want.Rect)
			}
			diff := codectest.Compare(t, whole, want)
			tol := scaleTolerance[denom]
			t.Logf("%s at 1/%d against the box filter: max %d, mean %.2f, PSNR %.1f dB", name, denom, diff.Max, diff.Mean, diff.PSNR)
			if diff.PSNR < tol.psnr || diff.Mean > tol.mean {
				t.Errorf("%s at 1/%d: PSNR %.1f dB, mean %.2f against the box filter, want >= %v, <= %v", name, denom, diff.PSNR, diff.Mean, tol.psnr, tol.mean)
			}
		}
	}
}

// TestAllocs pins the Go allocations of a decode into a reused buffer at
// zero (libjpeg-turbo's own malloc is not Go's).
func TestAllocs(t *testing.T) {
	d := need(t)
	data := read(t, "cj_420.jpg")
	exif := read(t, "exif_6.jpg")
	for _, tc := range []struct {
		name string
		data []byte
		req  imagecodec.Request
	}{
		{"full", data, imagecodec.Request{}},
		{"crop", data, imagecodec.Request{Crop: image.Rect(30, 20, 150, 100)}},
		{"scaled crop", data, imagecodec.Request{Crop: image.Rect(30, 20, 150, 100), Min: image.Pt(30, 20)}},
		{"oriented", exif, imagecodec.Request{Orient: true, Min: image.Pt(40, 40)}},
	} {
		dst, _, err := d.Decode(nil, "x", tc.data, tc.req)
		if err != nil {
			t.Fatal(err)
		}
		n := testing.AllocsPerRun(50, func() {
			if _, _, err := d.Decode(dst, "x", tc.data, tc.req); err != nil {
				t.Fatal(err)
			}
		})
		if n != 0 {
			t.Errorf("%s: %v allocations a decode, want 0", tc.name, n)
		}
		// Nor after garbage collections, which empty a sync.Pool: the
		// decoder keeps its scratch images. (The runtime may allocate on
		// its own now and then, a thread when ReadMemStats restarts the
		// world: one decode of three without allocations passes.)
		var counts []uint64
		for range 3 {
			runtime.GC()
			runtime.GC()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			if _, _, err := d.Decode(dst, "x", tc.data, tc.req); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&m1)
			if counts = append(counts, m1.Mallocs-m0.Mallocs); counts[len(counts)-1] == 0 {
				break
			}
		}
		if !slices.Contains(counts, 0) {
			t.Errorf("%s: %v allocations a decode after garbage collections, want 0", tc.name, counts)
		}
	}
}

// TestNew: New's decoder reads what the pure-Go decoder refuses when
// libjpeg-turbo is there, and is the pure-Go decoder when it is not (as
// make test checks once more with CGO_ENABLED=0).
func TestNew(t *testing.T) {
	data := read(t, "cj_arithmetic.jpg")
	_, _, err := turbo.New(imagecodec.Options{}).Decode(nil, "a.jpg", data, imagecodec.Request{})
	if avail := turbo.Available(); !avail.Turbo() {
		if avail.Err == nil || !strings.HasPrefix(avail.Err.Error(), "turbo: libjpeg-turbo unavailable: ") {
			t.Errorf("Available() = %#v", avail)
		}
		if !errors.Is(err, imagecodec.ErrUnsupported) || !strings.Contains(err.Error(), "pure-Go decoder") {
			t.Errorf("without libjpeg-turbo (%v), an arithmetic-coded JPEG: %v, want the pure-Go decoder's refusal", avail, err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := imagecodec.New(imagecodec.Options{}).Decode(nil, "a.jpg", data, imagecodec.Request{}); !errors.Is(err, imagecodec.ErrUnsupported) {
		t.Fatalf("pure Go: %v", err)
	}
}

func TestErrors(t *testing.T) {
	d := need(t)
	data := read(t, "cj_420.jpg")
	// Corrupt the entropy-coded data's header: a Huffman table that
	// libjpeg-turbo refuses.
	bad := append([]byte(nil), data...)
	if i := strings.Index(string(bad), "\xff\xc4"); i > 0 {
		for k := i + 4; k < i+21; k++ {
			bad[k] = 0xff
		}
	}
	_, _, err := d.Decode(nil, "bad.jpg", bad, imagecodec.Request{})
	if !errors.Is(err, imagecodec.ErrFormat) || !strings.HasPrefix(err.Error(), "turbo: bad.jpg: ") {
		t.Errorf("corrupt Huffman table: %v", err)
	}
	if _, _, err := turbo.New(imagecodec.Options{MaxPixels: 100}).Decode(nil, "big.jpg", data, imagecodec.Request{}); !errors.Is(err, imagecodec.ErrTooLarge) {
		t.Errorf("MaxPixels 100: %v", err)
	}
}

// TestBombs: the libjpeg-turbo decoder refuses the bombs of bombtest (its
// JPEG of 65535x65535 in its own code, the PNG, GIF and WebP ones through
// the pure-Go decoder) from their headers, in Config and Decode, whole or
// cropped at a reduced scale, with its address space capped.
func TestBombs(t *testing.T) {
	codectest.Bombs(t, need(t))
}

// FuzzDecode: no input makes the libjpeg-turbo decoder crash, hang or
// allocate beyond its pixel limit, whatever the crop and scale.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"cj_420.jpg", "cj_progressive_restart.jpg", "cj_arithmetic.jpg", "im_ycck.jpg", "exif_6.jpg", "cj_411.jpg"} {
		f.Add(read(f, name), uint8(3), uint8(5), uint8(40), uint8(30), uint8(9), true)
	}
	d := need(f)
	d = turbo.New(imagecodec.Options{MaxPixels: 1 << 18})
	f.Fuzz(func(t *testing.T, data []byte, x, y, w, h, min uint8, orient bool) {
		req := imagecodec.Request{Crop: image.Rect(int(x), int(y), int(x)+int(w), int(y)+int(h)), Min: image.Pt(int(min), int(min)), Orient: orient}
		cfg, err := d.Config("fuzz", data)
		if err != nil {
			return
		}
		if !req.Crop.Empty() && !req.Crop.Overlaps(cfg.Bounds(orient)) {
			req.Crop = image.Rectangle{}
		}
		img, scale, err := d.Decode(nil, "fuzz", data, req)
		if err != nil {
			if !strings.Contains(err.Error(), ": fuzz: ") {
				t.Fatalf("error not naming the data: %v", err)
			}
			return
		}
		if scale <= 0 || scale > 1 || img.Rect.Empty() {
			t.Fatalf("decoded %v at scale %v", img.Rect, scale)
		}
	})
}

// TestOrientScaled: every EXIF orientation at scale 1/2, whole and cropped:
// the oriented decode is the reference orientation of the stored one, and
// a crop has the pixels of the whole at the same coordinates.
func TestOrientScaled(t *testing.T) {
	d := need(t)
	r := rand.New(rand.NewPCG(16, 8))
	for o := 1; o <= 8; o++ {
		name := fmt.Sprintf("exif_%d.jpg", o)
		data := read(t, name)
		cfg, _ := d.Config(name, data)
		half := image.Pt(cfg.Width/2, cfg.Height/2)
		stored, _, err := d.Decode(nil, name, data, imagecodec.Request{Min: half})
		if err != nil {
			t.Fatal(err)
		}
		ohalf := half
		if o >= 5 {
			ohalf = image.Pt(half.Y, half.X)
		}
		whole, scale, err := d.Decode(nil, name, data, imagecodec.Request{Min: ohalf, Orient: true})
		if err != nil {
			t.Fatal(err)
		}
		if scale != 0.5 {
			t.Fatalf("%s: scale %v", name, scale)
		}
		if diff := codectest.Compare(t, whole, codectest.Orient(stored, o)); diff.Max != 0 {
			t.Fatalf("%s: oriented at 1/2 off the reference by %d levels", name, diff.Max)
		}
		for range 10 {
			crop := randomCrop(r, cfg.Bounds(true))
			if crop.Dx() < 2 || crop.Dy() < 2 {
				continue
			}
			got, scale, err := d.Decode(nil, name, data, imagecodec.Request{Crop: crop, Min: image.Pt(crop.Dx()/2, crop.Dy()/2), Orient: true})
			if err != nil {
				t.Fatal(err)
			}
			if scale != 0.5 || !got.Rect.In(whole.Rect) {
				t.Fatalf("%s: crop %v: %v at scale %v, outside %v", name, crop, got.Rect, scale, whole.Rect)
			}
			if diff := codectest.Compare(t, codectest.Crop(got, got.Rect), codectest.Crop(whole, got.Rect)); diff.Max != 0 {
				t.Fatalf("%s: crop %v oriented at 1/2 (%v) off the whole by %d levels", name, crop, got.Rect, diff.Max)
			}
		}
	}
}

// TestEveryScale: at every scale n/8 the decoder uses, a crop comes at least
// as large as its Min, with the pixels of the whole image decoded at that
// scale, at the same coordinates.
func TestEveryScale(t *testing.T) {
	d := need(t)
	r := rand.New(rand.NewPCG(1, 1))
	for _, name := range jpegs {
		data := read(t, name)
		cfg, _ := d.Config(name, data)
		for n := 1; n <= 8; n++ {
			min := image.Pt((cfg.Width*n+7)/8, (cfg.Height*n+7)/8)
			whole, scale, err := d.Decode(nil, name, data, imagecodec.Request{Min: min})
			if err != nil {
				t.Fatal(err)
			}
			for range 10 {
				crop := randomCrop(r, cfg.Bounds(false))
				m := image.Pt(crop.Dx()*n/8, crop.Dy()*n/8)
				if m.X == 0 || m.Y == 0 {
					continue
				}
				got, s, err := d.Decode(nil, name, data, imagecodec.Request{Crop: crop, Min: m})
				if err != nil {
					t.Fatal(err)
				}
				if got.Rect.Dx() < m.X || got.Rect.Dy() < m.Y {
					t.Fatalf("%s: crop %v Min %v: %v at scale %v, smaller than Min", name, crop, m, got.Rect, s)
				}
				if s != scale {
					continue
				}
				if diff := codectest.Compare(t, codectest.Crop(got, got.Rect), codectest.Crop(whole, got.Rect)); diff.Max != 0 {
					t.Errorf("%s n=%d scale %v crop %v -> %v: off by %d", name, n, s, crop, got.Rect, diff.Max)
				}
			}
		}
	}
}
