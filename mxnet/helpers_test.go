package mxnet

import (
	"archive/zip"
	"bufio"
	"encoding/json"
	"image"
	"image/draw"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/recordio"
)

// The images of the augmenter's tests are package augment's test images;
// the records' are package imagedata's photos.
const (
	augmentData = "../augment/testdata"
	photosDir   = "../imagedata/testdata/photos"
)

var testDecoder = turbo.New(imagecodec.Options{})

// A testCase is one case of testdata/cases.json (made by
// testdata/make_expected.py with OpenCV): MXNet's augmenter with parameters
// that draw nothing.
type testCase struct {
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

var loadCases = sync.OnceValues(func() ([]testCase, error) {
	b, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		return nil, err
	}
	var c []testCase
	return c, json.Unmarshal(b, &c)
})

var loadExpected = sync.OnceValues(func() (*zip.ReadCloser, error) {
	return zip.OpenReader("testdata/expected.npz")
})

// expected returns the array named name of expected.npz.
func expected(t *testing.T, name string) *arraycontainer.Array[uint8] {
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
	a, err := npy.Read[uint8](f, obsdim.First)
	if err != nil {
		t.Fatalf("expected.npz: %s: %v", name, err)
	}
	return a
}

// loadPNG returns the pixels of package augment's test image name.
func loadPNG(t testing.TB, name string) *imagecodec.RGB {
	t.Helper()
	f, err := os.Open(filepath.Join(augmentData, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b := m.Bounds()
	rgb := imagecodec.NewRGB(image.Rect(0, 0, b.Dx(), b.Dy()))
	rgba := image.NewNRGBA(rgb.Rect)
	draw.Draw(rgba, rgba.Rect, m, b.Min, draw.Src)
	for i := range b.Dx() * b.Dy() {
		copy(rgb.Pix[3*i:3*i+3], rgba.Pix[4*i:4*i+3])
	}
	return rgb
}

// sub returns the part r of img, newly allocated, at (0, 0).
func sub(img *imagecodec.RGB, r image.Rectangle) *imagecodec.RGB {
	out := imagecodec.NewRGB(image.Rect(0, 0, r.Dx(), r.Dy()))
	for y := range r.Dy() {
		copy(out.Pix[y*out.Stride:][:3*r.Dx()], img.Pix[(r.Min.Y+y)*img.Stride+3*r.Min.X:])
	}
	return out
}

// apply returns the floats of the pipeline of m's step on img, in layout,
// drawn from rng.
func apply(t testing.TB, m Augmenter, layout augment.Layout, img *imagecodec.RGB, rng *rand.Rand) []float32 {
	t.Helper()
	p := augment.New(layout, m.Step())
	out := make([]float32, p.Len())
	if err := p.ApplyRGB(out, img, rng); err != nil {
		t.Fatal(err)
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

// mirrorCHW returns the CHW image a of w by h mirrored left to right.
func mirrorCHW(a []float32, w, h int) []float32 {
	out := make([]float32, len(a))
	for c := range 3 {
		for y := range h {
			for x := range w {
				out[c*w*h+y*w+(w-1-x)] = a[c*w*h+y*w+x]
			}
		}
	}
	return out
}

// photos are the images of package imagedata's testdata/photos and their
// classes.
var photos = []struct {
	path  string
	class float32
}{{"cat/chelsea.jpg", 0}, {"cup/coffee.jpg", 1}, {"person/astronaut.jpg", 2}, {"person/camera.jpg", 2}}

// packIter writes n image records of the photos (record k holds photo k%4)
// and their index to a new folder, as im2rec packs them (id = key = k), and
// returns the .rec's path. With width 1 a record's label is its photo's
// class in the header (flag 0); with more, the record holds width labels:
// the class, k, then halves. image, when not nil, gives record k's image
// instead.
func packIter(t testing.TB, n, width int, image func(k int) []byte) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "iter.rec")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	w := recordio.NewWriter(bw)
	var ix recordio.Index
	for k := range n {
		p := photos[k%len(photos)]
		h := recordio.Header{Label: p.class, ID: uint64(k)}
		var labels []float32
		if width > 1 {
			labels = []float32{p.class, float32(k)}
			for len(labels) < width {
				labels = append(labels, 0.5)
			}
		}
		var img []byte
		if image != nil {
			img = image(k)
		}
		if img == nil {
			img = readFile(t, filepath.Join(photosDir, p.path))
		}
		off, err := w.Write(recordio.Pack(nil, h, labels[:min(len(labels), width)], img))
		if err != nil {
			t.Fatal(err)
		}
		ix = append(ix, recordio.Entry{Key: int64(k), Offset: off})
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	idx, err := os.Create(recordio.IndexPath(path))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	if _, err := ix.WriteTo(idx); err != nil {
		t.Fatal(err)
	}
	return path
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t testing.TB, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// wantImage returns the floats of the file at path through p, drawn from
// rng.
func wantImage(t testing.TB, path string, p *augment.Pipeline, rng *rand.Rand) []float32 {
	t.Helper()
	out := make([]float32, p.Len())
	if err := p.Apply(out, testDecoder, path, readFile(t, path), rng); err != nil {
		t.Fatal(err)
	}
	return out
}

// recovered returns the value f panics with, or nil.
func recovered(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

// panicked returns the error f panics with, or nil; it panics again with a
// value that is not an error.
func panicked(f func()) error {
	v := recovered(f)
	if v == nil {
		return nil
	}
	err, ok := v.(error)
	if !ok {
		panic(v)
	}
	return err
}
