package imagecodec_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/internal/codectest"
	"github.com/obskit/obskit/internal/filetest"
)

func readCase(t testing.TB, name string) []byte {
	b, err := os.ReadFile("testdata/images/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		data string
		want imagecodec.Format
	}{
		{"\xff\xd8\xff\xe0", imagecodec.JPEG},
		{"\x89PNG\r\n\x1a\n", imagecodec.PNG},
		{"GIF89a", imagecodec.GIF},
		{"RIFF\x00\x00\x00\x00WEBPVP8 ", imagecodec.WebP},
		{"BM\x00\x00", imagecodec.BMP},
		{"II*\x00", imagecodec.TIFF},
		{"MM\x00*", imagecodec.TIFF},
		{"\x00\x00\x00\x0cjP  \r\n\x87\n", imagecodec.JPEG2000},
		{"\x00\x00\x00\x0cJXL \r\n\x87\n", imagecodec.JPEGXL},
		{"\x00\x00\x00\x1cftypheic", imagecodec.HEIF},
		{"\x00\x00\x00\x1cftypavif", imagecodec.AVIF},
		{"P6\n", imagecodec.PNM},
		{"\xff\xd8", imagecodec.Unknown},
		{"", imagecodec.Unknown},
		{"hello", imagecodec.Unknown},
	} {
		if got := imagecodec.Sniff([]byte(tc.data)); got != tc.want {
			t.Errorf("Sniff(%q) = %v, want %v", tc.data, got, tc.want)
		}
	}
}

// TestCrop decodes random crops, oriented or not, of images of every kind
// and checks them against the crop of the full decode (oriented by the
// reference).
func TestCrop(t *testing.T) {
	d := imagecodec.New(imagecodec.Options{})
	r := rand.New(rand.NewPCG(16, 4))
	for _, name := range []string{"cj_420.jpg", "cj_422.jpg", "cj_440.jpg", "cj_411.jpg", "cj_gray.jpg", "pil_cmyk.jpg", "exif_6.jpg", "exif_7.jpg", "exif_2.jpg", "exif_6.png", "pil_palette_trns.png", "gif_named.jpg", "webp_lossy_named.jpg"} {
		data := readCase(t, name)
		full, _, err := d.Decode(nil, name, data, imagecodec.Request{})
		if err != nil {
			t.Fatal(err)
		}
		cfg, _ := d.Config(name, data)
		var dst *imagecodec.RGB
		for i := range 8 {
			orient := i%2 == 1
			ref := full
			if orient {
				ref = codectest.Orient(full, int(cfg.Orientation))
			}
			b := ref.Rect
			x0, y0 := r.IntN(b.Dx()), r.IntN(b.Dy())
			crop := image.Rect(x0, y0, x0+1+r.IntN(b.Dx()-x0), y0+1+r.IntN(b.Dy()-y0))
			got, scale, err := d.Decode(dst, name, data, imagecodec.Request{Crop: crop, Orient: orient, Min: image.Pt(1, 1)})
			if err != nil {
				t.Fatal(err)
			}
			if got.Rect != crop || scale != 1 {
				t.Fatalf("%s: Decode(crop %v) = %v at scale %v", name, crop, got.Rect, scale)
			}
			if diff := codectest.Compare(t, codectest.Crop(got, crop), codectest.Crop(ref, crop)); diff.Max != 0 {
				t.Fatalf("%s: crop %v (orient %v) off the full decode by %d levels", name, crop, orient, diff.Max)
			}
			dst = got
		}
	}
}

func TestCropOutside(t *testing.T) {
	d := imagecodec.New(imagecodec.Options{})
	data := readCase(t, "cj_420.jpg")
	defer func() {
		var ae *container.ArgError
		if e, ok := recover().(error); !ok || !errors.As(e, &ae) {
			t.Fatalf("Decode with a crop outside the image: recovered %v, want a *container.ArgError", e)
		}
	}()
	d.Decode(nil, "cj_420.jpg", data, imagecodec.Request{Crop: image.Rect(1000, 1000, 1010, 1010)})
}

// TestReuse checks that Decode writes into dst when it has room and that a
// decode into a reused image allocates no result.
func TestReuse(t *testing.T) {
	d := imagecodec.New(imagecodec.Options{})
	data := readCase(t, "im_interlaced.png")
	first, _, err := d.Decode(nil, "x", data, imagecodec.Request{})
	if err != nil {
		t.Fatal(err)
	}
	big := imagecodec.NewRGB(image.Rect(0, 0, 300, 300))
	got, _, err := d.Decode(big, "x", data, imagecodec.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if got != big || &got.Pix[0] != &big.Pix[0] {
		t.Fatal("Decode did not reuse a dst with room")
	}
	if diff := cmp.Diff(first, got); diff != "" {
		t.Fatalf("Decode into dst mismatch (-fresh +reused):\n%s", diff)
	}
	small := imagecodec.NewRGB(image.Rect(0, 0, 10, 10))
	if got, _, _ := d.Decode(small, "x", data, imagecodec.Request{}); got == small {
		t.Fatal("Decode reused a dst without room")
	}
	if n := testing.AllocsPerRun(100, func() { imagecodec.Reuse(big, image.Rect(3, 4, 50, 60)) }); n != 0 {
		t.Errorf("Reuse with room: %v allocations, want 0", n)
	}
}

func TestMaxPixels(t *testing.T) {
	data := readCase(t, "cj_420.jpg") // 227x149 = 33823 pixels
	for _, tc := range []struct {
		max int
		ok  bool
	}{{0, true}, {-1, true}, {33823, true}, {33822, false}, {1, false}} {
		_, _, err := imagecodec.New(imagecodec.Options{MaxPixels: tc.max}).Decode(nil, "cj_420.jpg", data, imagecodec.Request{})
		if ok := err == nil; ok != tc.ok || (!ok && !errors.Is(err, imagecodec.ErrTooLarge)) {
			t.Errorf("MaxPixels %d: %v", tc.max, err)
		}
	}
	// The 50000x50000 header is refused before the pixels are allocated.
	huge := readCase(t, "bad_huge_header.png")
	d := imagecodec.New(imagecodec.Options{})
	n := filetest.Allocated(func() {
		if _, _, err := d.Decode(nil, "bad_huge_header.png", huge, imagecodec.Request{}); !errors.Is(err, imagecodec.ErrTooLarge) ||
			!strings.Contains(err.Error(), "50000x50000") {
			t.Errorf("Decode(bad_huge_header.png) = %v", err)
		}
	})
	if n > 1<<20 {
		t.Errorf("refusing a huge header allocated %d bytes", n)
	}
}

func TestOrientationRect(t *testing.T) {
	size := image.Pt(7, 5)
	r := image.Rect(1, 2, 4, 3)
	for o := imagecodec.Orientation(1); o <= 8; o++ {
		osize := size
		if o.Transposes() {
			osize = image.Pt(size.Y, size.X)
		}
		or := o.Rect(r, size)
		if back := o.Inverse().Rect(or, osize); back != r {
			t.Errorf("orientation %d: Rect %v, back %v, want %v", o, or, back, r)
		}
		// The reference turns the pixels of r to where Rect says.
		src := imagecodec.NewRGB(image.Rectangle{Max: size})
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				src.Set(x, y, color.White)
			}
		}
		got := codectest.Orient(src, int(o))
		for y := range osize.Y {
			for x := range osize.X {
				if white := got.RGBAAt(x, y).R == 0xff; white != image.Pt(x, y).In(or) {
					t.Fatalf("orientation %d: pixel (%d,%d) white %v, Rect %v", o, x, y, white, or)
				}
			}
		}
	}
}

func TestRGB(t *testing.T) {
	m := imagecodec.NewRGB(image.Rect(2, 3, 6, 5))
	m.Set(4, 4, color.NRGBA{10, 20, 30, 0}) // alpha dropped, not premultiplied
	if got := m.RGBAAt(4, 4); got != (color.RGBA{10, 20, 30, 255}) {
		t.Errorf("RGBAAt = %v", got)
	}
	if got := m.At(0, 0); got != (color.RGBA{}) {
		t.Errorf("At outside = %v", got)
	}
	sub := m.SubImage(image.Rect(4, 4, 10, 10)).(*imagecodec.RGB)
	if sub.Rect != image.Rect(4, 4, 6, 5) || &sub.Pix[0] != &m.Pix[m.PixOffset(4, 4)] {
		t.Errorf("SubImage = %v, not sharing memory", sub.Rect)
	}
	if got := m.SubImage(image.Rect(20, 20, 30, 30)).Bounds(); !got.Empty() {
		t.Errorf("SubImage outside = %v", got)
	}
	defer func() {
		if _, ok := recover().(*container.ArgError); !ok {
			t.Error("NewRGB of a negative size did not panic with an ArgError")
		}
	}()
	imagecodec.NewRGB(image.Rectangle{Min: image.Pt(5, 5), Max: image.Pt(4, 4)})
}

func TestErrorsName(t *testing.T) {
	d := imagecodec.New(imagecodec.Options{})
	for _, tc := range []struct {
		data string
		want error
		msg  string
	}{
		{"", imagecodec.ErrFormat, "empty"},
		{"\xff\xd8\xff\xe0\x00\x10JFIF", imagecodec.ErrFormat, "truncated"},
		{"\xff\xd8\xff\xd9", imagecodec.ErrFormat, "end-of-image"},
		{"II*\x00\x08\x00\x00\x00", imagecodec.ErrUnsupported, "TIFF"},
		{"\x89PNG\r\n\x1a\n\x00\x00", imagecodec.ErrFormat, "PNG"},
	} {
		_, _, err := d.Decode(nil, "rec/17", []byte(tc.data), imagecodec.Request{})
		if !errors.Is(err, tc.want) || !strings.HasPrefix(fmt.Sprint(err), "imagecodec: rec/17: ") || !strings.Contains(fmt.Sprint(err), tc.msg) {
			t.Errorf("Decode(%q) = %v, want %v naming rec/17 and saying %q", tc.data, err, tc.want, tc.msg)
		}
	}
}

// FuzzDecode checks that no input makes the pure-Go decoder panic or
// allocate beyond its pixel limit, and that what it decodes has the size
// its header says.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"cj_420.jpg", "cj_progressive.jpg", "exif_6.jpg", "pil_cmyk.jpg", "im_gray2.png", "pil_palette4_trns.png", "im_interlaced.png", "gif_named.jpg", "webp_lossy_named.jpg", "bad_huge_header.png"} {
		f.Add(readCase(f, name), false)
	}
	d := imagecodec.New(imagecodec.Options{MaxPixels: 1 << 18})
	f.Fuzz(func(t *testing.T, data []byte, orient bool) {
		cfg, cerr := d.Config("fuzz", data)
		img, _, err := d.Decode(nil, "fuzz", data, imagecodec.Request{Orient: orient})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "imagecodec: fuzz: ") {
				t.Fatalf("error not naming the data: %v", err)
			}
			return
		}
		if cerr != nil {
			t.Fatalf("Decode succeeded where Config failed: %v", cerr)
		}
		if img.Rect != cfg.Bounds(orient) {
			t.Fatalf("decoded %v, header says %v", img.Rect, cfg.Bounds(orient))
		}
	})
}

// TestGIFFrame: a GIF whose first frame covers part of its logical screen
// decodes at the screen's size, the frame in place and the palette's first
// color around it, as Pillow fills the screen (index 0) before the frame.
func TestGIFFrame(t *testing.T) {
	pal := color.Palette{color.RGBA{10, 20, 30, 255}, color.RGBA{200, 100, 50, 255}}
	frame := image.NewPaletted(image.Rect(5, 4, 9, 7), pal)
	for i := range frame.Pix {
		frame.Pix[i] = 1
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, &gif.GIF{Image: []*image.Paletted{frame}, Delay: []int{0}, Config: image.Config{ColorModel: pal, Width: 12, Height: 10}}); err != nil {
		t.Fatal(err)
	}
	got, _, err := imagecodec.New(imagecodec.Options{}).Decode(nil, "f.gif", buf.Bytes(), imagecodec.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Rect != image.Rect(0, 0, 12, 10) {
		t.Fatalf("Rect = %v", got.Rect)
	}
	for y := range 10 {
		for x := range 12 {
			want := color.RGBA{10, 20, 30, 255}
			if image.Pt(x, y).In(frame.Rect) {
				want = color.RGBA{200, 100, 50, 255}
			}
			if c := got.RGBAAt(x, y); c != want {
				t.Fatalf("pixel (%d,%d) = %v, want %v", x, y, c, want)
			}
		}
	}
}

// TestWebPFrameSize: a WebP whose canvas (VP8X) and image data disagree is
// refused before x/image/webp allocates the data's size.
func TestWebPFrameSize(t *testing.T) {
	data := readCase(t, "webp_lossy_named.jpg")
	// Wrap the VP8 chunk in a VP8X file that claims a 4x4 canvas.
	vp8 := data[12:]
	vp8x := []byte("VP8X\x0a\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x03\x00\x00")
	body := append(append([]byte("WEBP"), vp8x...), vp8...)
	file := append([]byte("RIFF\x00\x00\x00\x00"), body...)
	binary.LittleEndian.PutUint32(file[4:], uint32(len(body)))
	_, _, err := imagecodec.New(imagecodec.Options{}).Decode(nil, "w.webp", file, imagecodec.Request{})
	if !errors.Is(err, imagecodec.ErrFormat) || !strings.Contains(err.Error(), "canvas of 4x4") {
		t.Fatalf("Decode = %v", err)
	}
}

// TestBombs: the pure-Go decoder refuses the bombs of bombtest (PNG of
// 100000x100000 and 50000x50000, JPEG and GIF of 65535x65535, WebP of
// 16384x16384 and 16383x16383) from their headers, in Config and Decode,
// with its address space capped.
func TestBombs(t *testing.T) {
	codectest.Bombs(t, imagecodec.New(imagecodec.Options{}))
}
