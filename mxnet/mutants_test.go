package mxnet

import (
	"bytes"
	"errors"
	"image"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/recordio"
)

// TestInterMethodRandom checks inter_method 10: each image draws one of
// OpenCV's five kernels (codes 0 to 4), and all five are drawn.
func TestInterMethodRandom(t *testing.T) {
	m := NewAugmenter(3, 8, 8)
	m.InterMethod = 10
	five := map[augment.Filter]bool{}
	for code := range 5 {
		f, _ := InterFilter(code)
		five[f] = true
	}
	seen := map[augment.Filter]bool{}
	rng := rand.New(rand.NewPCG(2, 3))
	for range 500 {
		im := drawn(t, m, image.Pt(20, 12), rng)
		if !five[im.Filter] {
			t.Fatalf("inter_method 10 drew filter %v, not one of OpenCV's five", im.Filter)
		}
		seen[im.Filter] = true
	}
	if len(seen) != 5 {
		t.Errorf("500 images drew %d of the five kernels", len(seen))
	}
}

// TestIntParamBound checks the bound of an int parameter by its MXNet name:
// 2^31 in size is taken, as the comment of Augmenter.Set says, one more is
// an error.
func TestIntParamBound(t *testing.T) {
	for _, c := range []struct {
		v  string
		ok bool
	}{{"2147483648", true}, {"-2147483648", true}, {"2147483649", false}, {"-2147483649", false}} {
		m := NewAugmenter(3, 8, 8)
		err := m.Set("max_rotate_angle", c.v)
		if (err == nil) != c.ok {
			t.Errorf("Set(max_rotate_angle, %s) = %v, want ok %v", c.v, err, c.ok)
		}
	}
}

// TestCropSizeWholeSide checks that an image whose side is max_crop_size
// is cropped, not refused as too small: the crop of that size starts at 0
// along that side; one pixel less is ErrTooSmall.
func TestCropSizeWholeSide(t *testing.T) {
	out := image.Pt(24, 16)
	m := NewAugmenter(3, out.Y, out.X)
	m.MinCropSize, m.MaxCropSize, m.RandCrop = 23, 23, true
	rng := rand.New(rand.NewPCG(4, 5))
	for _, src := range []image.Point{{23, 40}, {40, 23}, {23, 23}} {
		for range 20 {
			im := drawn(t, m, src, rng)
			box := outBox(&im, out)
			if box[2]-box[0] != 23 || box[3]-box[1] != 23 || box[0] < 0 || box[1] < 0 || box[2] > float64(src.X) || box[3] > float64(src.Y) {
				t.Fatalf("%v: crop box %v, want a 23x23 square inside the image", src, box)
			}
		}
		small := src.Sub(image.Pt(1, 0))
		if src.X != 23 {
			small = src.Sub(image.Pt(0, 1))
		}
		im := augment.AffineImage{Map: [6]float64{1, 0, 0, 0, 1, 0}}
		if err := m.draw(small, rng, &im); !errors.Is(err, ErrTooSmall) {
			t.Errorf("%v with max_crop_size 23: %v, want ErrTooSmall", small, err)
		}
	}
}

// TestPathImgidx checks which index ImageRecordIter reads: path_imgidx
// when given, else the .idx beside the file, which then decides the records
// (a scan of the file would find them all). The .idx beside lists three of
// six records: an epoch of three images (batch 1); path_imgidx naming an
// index of all six, an epoch of six.
func TestPathImgidx(t *testing.T) {
	rec := packIter(t, 6, 1, nil)
	f, err := os.Open(recordio.IndexPath(rec))
	if err != nil {
		t.Fatal(err)
	}
	ix, err := recordio.ReadIndex(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	write := func(path string, ix recordio.Index) {
		var b bytes.Buffer
		if _, err := ix.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	all := filepath.Join(t.TempDir(), "all.idx")
	write(all, ix)
	write(recordio.IndexPath(rec), ix[:3])
	for _, c := range []struct {
		idx  string
		want int
	}{{"", 3}, {all, 6}} {
		it := iterOf(rec, 1)
		it.PathImgidx = c.idx
		if got := len(epochOf(t, it, 0)); got != c.want {
			t.Errorf("path_imgidx %q: %d batches of one image, want %d", c.idx, got, c.want)
		}
	}
}

// buggyDecoder is a decoder whose Decode panics with an error that is not a
// read error: a bug, which must reach the caller as the panic it is.
type buggyDecoder struct{ imagecodec.Decoder }

var errBug = errors.New("decoder bug")

func (buggyDecoder) Decode(*imagecodec.RGB, string, []byte, imagecodec.Request) (*imagecodec.RGB, float64, error) {
	panic(errBug)
}

// TestProviderPanicsOfBugs checks that Provider returns as an error only
// the panic of a first image that cannot be read (imagedata.ErrRead): a
// decoder that panics with another error panics through Provider.
func TestProviderPanicsOfBugs(t *testing.T) {
	it := iterOf(packIter(t, 4, 1, nil), 2)
	it.Decoder = buggyDecoder{testDecoder}
	v := recovered(func() { it.Provider() })
	if e, ok := v.(error); !ok || !errors.Is(e, errBug) {
		t.Errorf("Provider with a decoder that panics with %v: recovered %v, want that panic", errBug, v)
	}
}
