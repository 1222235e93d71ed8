// Package codectest holds what the tests of both decoders of imagecodec
// share: the conformance cases of imagecodec/testdata (made once by
// testdata/gen.py with Pillow, ImageMagick and cjpeg), the measures that
// compare pixels, and a naive reference of the EXIF orientations.
package codectest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/obskit/obskit/imagecodec"
)

// A Case is one entry of testdata/cases.json.
type Case struct {
	Name           string
	How            string `json:"how"`
	Format         string `json:"format"`
	Width          int    `json:"width"`
	Height         int    `json:"height"`
	Orientation    int    `json:"orientation"`
	Progressive    bool   `json:"progressive"`
	Error          string `json:"error"`   // "format", "unsupported", "too large"
	PureGo         string `json:"pure_go"` // "unsupported" when image/jpeg cannot read it
	SHA256         string `json:"sha256"`
	Expected       string `json:"expected"`
	OrientedSHA256 string `json:"oriented_sha256"`

	dir string
}

// Cases reads the cases of dir (imagecodec/testdata), sorted by name.
func Cases(t testing.TB, dir string) []Case {
	b, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]Case
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var cs []Case
	for name, c := range m {
		c.Name, c.dir = name, dir
		cs = append(cs, c)
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	return cs
}

// Path returns the file of the case.
func (c Case) Path() string { return filepath.Join(c.dir, "images", c.Name) }

// Data returns the bytes of the case's file.
func (c Case) Data(t testing.TB) []byte {
	b, err := os.ReadFile(c.Path())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Want returns the pixels Pillow decodes: the expected file when the case
// has one, and otherwise got itself once its hash is the case's (a PNG,
// decoded exactly), failing the test when it is not.
func (c Case) Want(t testing.TB, got *imagecodec.RGB) *imagecodec.RGB {
	t.Helper()
	if c.Expected == "" {
		if h := Hash(got); h != c.SHA256 {
			t.Fatalf("%s: pixels hash %s, Pillow's %s", c.Name, h, c.SHA256)
		}
		return got
	}
	f, err := os.Open(filepath.Join(c.dir, c.Expected))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := m.Bounds()
	want := imagecodec.NewRGB(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			want.Set(x, y, m.At(x, y))
		}
	}
	if h := Hash(want); h != c.SHA256 {
		t.Fatalf("%s: %s hash %s, cases.json %s", c.Name, c.Expected, h, c.SHA256)
	}
	return want
}

// Hash returns the SHA-256 of m's pixels in row-major order, 3 bytes each, in
// hex: the hash testdata/gen.py records.
func Hash(m *imagecodec.RGB) string {
	h := sha256.New()
	w := 3 * m.Rect.Dx()
	for j := range m.Rect.Dy() {
		h.Write(m.Pix[j*m.Stride : j*m.Stride+w])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Diff measures how far got is from want, which have the same size: the
// largest absolute difference of a sample, the mean absolute difference, and
// the PSNR in dB (+Inf when equal).
type Diff struct {
	Max  int
	Mean float64
	PSNR float64
}

// Compare returns the Diff of got and want, which must have the same size.
func Compare(t testing.TB, got, want *imagecodec.RGB) Diff {
	t.Helper()
	if got.Rect.Size() != want.Rect.Size() {
		t.Fatalf("size %v, want %v", got.Rect.Size(), want.Rect.Size())
	}
	var d Diff
	var sum, sq float64
	w, h := 3*got.Rect.Dx(), got.Rect.Dy()
	for j := range h {
		g, e := got.Pix[j*got.Stride:j*got.Stride+w], want.Pix[j*want.Stride:j*want.Stride+w]
		for i := range g {
			a := int(g[i]) - int(e[i])
			if a < 0 {
				a = -a
			}
			d.Max = max(d.Max, a)
			sum += float64(a)
			sq += float64(a * a)
		}
	}
	n := float64(w * h)
	d.Mean = sum / n
	d.PSNR = math.Inf(1)
	if sq > 0 {
		d.PSNR = 10 * math.Log10(255*255/(sq/n))
	}
	return d
}

// Orient returns src turned by the EXIF orientation o, pixel by pixel, as
// Pillow's ImageOps.exif_transpose does: the reference the decoders'
// orientation is checked against.
func Orient(src *imagecodec.RGB, o int) *imagecodec.RGB {
	w, h := src.Rect.Dx(), src.Rect.Dy()
	ow, oh := w, h
	if o >= 5 {
		ow, oh = h, w
	}
	dst := imagecodec.NewRGB(image.Rect(0, 0, ow, oh))
	for y := range h {
		for x := range w {
			var u, v int // where stored (x, y) lands
			switch o {
			case 2:
				u, v = w-1-x, y
			case 3:
				u, v = w-1-x, h-1-y
			case 4:
				u, v = x, h-1-y
			case 5:
				u, v = y, x
			case 6:
				u, v = h-1-y, x
			case 7:
				u, v = h-1-y, w-1-x
			case 8:
				u, v = y, w-1-x
			default:
				u, v = x, y
			}
			s, d := src.PixOffset(src.Rect.Min.X+x, src.Rect.Min.Y+y), dst.PixOffset(u, v)
			copy(dst.Pix[d:d+3], src.Pix[s:s+3])
		}
	}
	return dst
}

// Crop returns a copy of the part r of m, at (0, 0).
func Crop(m *imagecodec.RGB, r image.Rectangle) *imagecodec.RGB {
	dst := imagecodec.NewRGB(image.Rect(0, 0, r.Dx(), r.Dy()))
	for j := range r.Dy() {
		s := m.PixOffset(r.Min.X, r.Min.Y+j)
		copy(dst.Pix[j*dst.Stride:(j+1)*dst.Stride], m.Pix[s:])
	}
	return dst
}
