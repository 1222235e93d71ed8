package augment

import (
	"archive/zip"
	"encoding/json"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

// The expected outputs of Pillow and torchvision, made by
// testdata/make_expected.py: what each case does (cases.json) and its output
// (expected.npz).

type resizeCase struct {
	Name   string
	Src    string
	Filter string
	Size   [2]int
	Box    *[4]float64
	Crop   *[4]int
}

type evalCase struct {
	Name      string
	Src       string
	Resize    int
	Crop      [2]int // height, width, as torchvision's CenterCrop takes them
	Mean, Std *[3]float32
}

type colorCase struct {
	Name   string
	Src    string
	Fn     string
	Factor float64
}

type jpegCase struct {
	Name   string
	Src    string
	Resize int
	Crop   [2]int
}

type hlsCase struct {
	Name  string
	Src   string
	Delta [3]int
}

type rrcStats struct {
	Size      [2]int
	Scale     [2]float64
	Ratio     [2]float64
	N         int
	Mean, Std map[string]float64
}

type mxnetCase struct {
	Name    string
	Src     string
	SrcCrop *[4]int
	Shape   [2]int // height, width
	Resize  *int
	Rotate  *int
	Pad     *int
	Crop    *int
	Fill    *int
	Inter   *int
}

type cases struct {
	MXNet  []mxnetCase `json:"mxnet"`
	RRC    []rrcStats
	Resize []resizeCase
	Eval   []evalCase
	Color  []colorCase
	JPEG   []jpegCase `json:"jpeg"`
	CV     []resizeCase
	HLS    []hlsCase
}

var loadCases = sync.OnceValues(func() (*cases, error) {
	b, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		return nil, err
	}
	var c cases
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, err
	}
	return &c, nil
})

func testCases(t *testing.T) *cases {
	t.Helper()
	c, err := loadCases()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var loadExpected = sync.OnceValues(func() (*zip.ReadCloser, error) {
	return zip.OpenReader("testdata/expected.npz")
})

// expected returns the array named name of expected.npz.
func expected[E arraycontainer.Number](t *testing.T, name string) *arraycontainer.Array[E] {
	t.Helper()
	z, err := loadExpected()
	if err != nil {
		t.Fatal(err)
	}
	f, err := z.Open(name + ".npy")
	if err != nil {
		t.Fatalf("expected.npz: %v", err)
	}
	defer f.Close()
	a, err := npy.Read[E](f, obsdim.First)
	if err != nil {
		t.Fatalf("expected.npz: %s: %v", name, err)
	}
	return a
}

// loadPNG returns the pixels of testdata/name as a view.
func loadPNG(t testing.TB, name string) view {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return viewOf(m)
}

// viewOf returns the pixels of m as 8-bit RGB.
func viewOf(m image.Image) view {
	b := m.Bounds()
	rgba := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(rgba, rgba.Rect, m, b.Min, draw.Src)
	v := view{pix: make([]uint8, 3*b.Dx()*b.Dy()), stride: 3 * b.Dx(), w: b.Dx(), h: b.Dy()}
	for i := range b.Dx() * b.Dy() {
		copy(v.pix[3*i:3*i+3], rgba.Pix[4*i:4*i+3])
	}
	return v
}

// sub returns the part r of v, sharing its memory.
func (v view) sub(r image.Rectangle) view {
	return view{pix: v.pix[r.Min.Y*v.stride+3*r.Min.X:], stride: v.stride, w: r.Dx(), h: r.Dy()}
}

// pixels returns the rows of v, without the bytes between them.
func (v view) pixels() []uint8 {
	out := make([]uint8, 0, 3*v.w*v.h)
	for y := range v.h {
		out = append(out, v.pix[y*v.stride:][:3*v.w]...)
	}
	return out
}

// levelDiff returns the largest and the mean absolute difference of two
// equally long byte slices.
func levelDiff(a, b []uint8) (maxd int, mean float64) {
	sum := 0
	for i := range a {
		d := int(a[i]) - int(b[i])
		if d < 0 {
			d = -d
		}
		maxd = max(maxd, d)
		sum += d
	}
	return maxd, float64(sum) / float64(len(a))
}

func filterByName(t *testing.T, name string) Filter {
	t.Helper()
	f, err := ParseFilter(strings.ToLower(name))
	if err != nil {
		t.Fatal(err)
	}
	return f
}
