package imagedata

import (
	"errors"
	"image"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// bytesConfig8 is the conformance checker's view of batches of 8-bit images.
func bytesConfig8() containertest.Config[*arraycontainer.Array[uint8], *arraycontainer.Array[uint8]] {
	return containertest.Config[*arraycontainer.Array[uint8], *arraycontainer.Array[uint8]]{
		Obs: func(b *arraycontainer.Array[uint8], j int) *arraycontainer.Array[uint8] { return b.GetObs(j) },
		Len: func(b *arraycontainer.Array[uint8]) int { return b.Nobs() },
	}
}

// decodedConfig8 is the checker's view of batches of labeled 8-bit images.
func decodedConfig8[L any]() containertest.Config[tuples.Pair[*arraycontainer.Array[uint8], L], tuples.Pair[*arraycontainer.Array[uint8], []L]] {
	return containertest.Config[tuples.Pair[*arraycontainer.Array[uint8], L], tuples.Pair[*arraycontainer.Array[uint8], []L]]{
		Obs: func(b tuples.Pair[*arraycontainer.Array[uint8], []L], j int) tuples.Pair[*arraycontainer.Array[uint8], L] {
			return tuples.Pair[*arraycontainer.Array[uint8], L]{X: b.X.GetObs(j), Y: b.Y[j]}
		},
		Len:     func(b tuples.Pair[*arraycontainer.Array[uint8], []L]) int { return len(b.Y) },
		Options: []cmp.Option{cmp.Comparer(func(a, b *arraycontainer.Array[uint8]) bool { return a.Equal(b) })},
	}
}

// wantImage8 is wantImage with 8-bit output: the file's bytes, one
// ApplyUint8.
func wantImage8(t testing.TB, path string, p *augment.Pipeline, rng *rand.Rand) []uint8 {
	t.Helper()
	out := make([]uint8, p.Len())
	if err := p.ApplyUint8(out, testDecoder, path, readFile(t, path), rng); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDecodeUint8Conformance runs the container checker over the 8-bit
// containers of a folder, records, a view and any container of bytes.
func TestDecodeUint8Conformance(t *testing.T) {
	folder, err := OpenFolder("testdata/photos", FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	records, err := OpenRecords(packRecordsOf(t, folder), "", Class)
	if err != nil {
		t.Fatal(err)
	}
	for _, layout := range []augment.Layout{augment.CHW, augment.HWC} {
		p := smallCrop(t, layout)
		t.Run(layout.String(), func(t *testing.T) {
			t.Run("Folder", func(t *testing.T) { containertest.Run(t, DecodeUint8(folder, p, testDecoder), decodedConfig8[int]()) })
			t.Run("Records", func(t *testing.T) { containertest.Run(t, DecodeUint8(records, p, testDecoder), decodedConfig8[int]()) })
			t.Run("Images", func(t *testing.T) { containertest.Run(t, NewImagesUint8(folder.X(), p, testDecoder), bytesConfig8()) })
			t.Run("View", func(t *testing.T) {
				containertest.Run(t, DecodeUint8(subset.Of(folder, []int{3, 1}), p, testDecoder), decodedConfig8[int]())
			})
			t.Run("Other", func(t *testing.T) {
				containertest.Run(t, NewImagesUint8(container.Slice[[]byte](bytesOf(t, folder)), p, testDecoder), bytesConfig8())
			})
		})
	}
}

// TestDecodeUint8Values: every image of an 8-bit batch is augment's
// ApplyUint8 of its file with the generator of its index, for a folder and
// records in both layouts; the labels are the data set's; and the float32
// batch of Decode over the same data holds the same pixels normalized,
// (v/255 - mean)/std bit for bit. Serially and with 2 workers the loop's
// batches are the same.
func TestDecodeUint8Values(t *testing.T) {
	folder, err := OpenFolder("testdata/photos", FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	records, err := OpenRecords(packRecordsOf(t, folder), "", Class)
	if err != nil {
		t.Fatal(err)
	}
	r := container.NewObsRand(7, 3)
	idx := []int{2, 0, 3, 2, 1}
	mean, std := augment.ImageNet.Mean, augment.ImageNet.Std
	for _, layout := range []augment.Layout{augment.CHW, augment.HWC} {
		p := smallCrop(t, layout)
		shape := p.Shape()
		for name, data := range map[string]container.Batched[tuples.Pair[[]byte, int], tuples.Pair[[][]byte, []int]]{
			"folder":  folder,
			"records": records,
		} {
			d8, d32 := DecodeUint8(data, p, testDecoder), Decode(data, p, testDecoder)
			b := d8.GetObsRandInto(tuples.Pair[*arraycontainer.Array[uint8], []int]{}, idx, r)
			f := d32.GetObsRandInto(tuples.Pair[*arraycontainer.Array[float32], []int]{}, idx, r)
			if diff := cmp.Diff([]int{5, shape[0], shape[1], shape[2]}, b.X.Shape()); diff != "" {
				t.Errorf("%s %v: batch shape mismatch (-want +got):\n%s", name, layout, diff)
			}
			if diff := cmp.Diff([]int{2, 0, 2, 2, 1}, b.Y); diff != "" {
				t.Errorf("%s %v: labels mismatch (-want +got):\n%s", name, layout, diff)
			}
			for k, i := range idx {
				got := b.X.GetObs(k).Data()
				if w := wantImage8(t, folder.X().Path(i), p, r.For(i)); !slices.Equal(w, got) {
					t.Errorf("%s %v: slot %d (image %d) differs from augment's ApplyUint8 with r.For(%d)", name, layout, k, i, i)
				}
				floats := f.X.GetObs(k).Data()
				for j, v := range got {
					c := j % 3
					if layout == augment.CHW {
						c = j / (len(got) / 3)
					}
					if want := (float32(v)/255 - mean[c]) / std[c]; floats[j] != want {
						t.Fatalf("%s %v: slot %d value %d: Decode's float %v, DecodeUint8's byte %d gives %v", name, layout, k, j, floats[j], v, want)
					}
				}
			}
			epoch := func(opts ...eachobs.Option) (out [][]uint8) {
				for b := range eachobs.NewLoader(d8, 2, append(opts, eachobs.Shuffle(11))...).Epoch(1) {
					out = append(out, slices.Clone(b.Data.X.Data()))
				}
				return out
			}
			if serial, w2 := epoch(), epoch(eachobs.Workers(2)); len(serial) != 2 || !slices.EqualFunc(serial, w2, slices.Equal) {
				t.Errorf("%s %v: %d batches serially; with 2 workers they differ", name, layout, len(serial))
			}
		}
	}
}

// TestDecodeUint8Errors: an Affine pipeline (float32 only) and nil arguments
// panic at the constructor with a *container.ArgError naming it; an image
// that does not decode panics with ErrRead naming its file, or, with
// SkipBad, is replaced by the next image of its label drawn with its own
// generator, as the float32 container does.
func TestDecodeUint8Errors(t *testing.T) {
	folder, err := OpenFolder("testdata/photos", FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	affine := augment.New(augment.CHW, augment.Affine{Size: image.Pt(8, 8), Draw: func(image.Point, *rand.Rand, *augment.AffineImage) error { return nil }})
	p := smallCrop(t, augment.CHW)
	for name, c := range map[string]struct {
		op string
		f  func()
	}{
		"NewImagesUint8 of an Affine pipeline": {"imagedata.NewImagesUint8", func() { NewImagesUint8(folder.X(), affine, testDecoder) }},
		"DecodeUint8 of an Affine pipeline":    {"imagedata.DecodeUint8", func() { DecodeUint8(folder, affine, testDecoder) }},
		"NewImagesUint8 without a decoder":     {"imagedata.NewImagesUint8", func() { NewImagesUint8(folder.X(), p, nil) }},
		"DecodeUint8 without data":             {"imagedata.DecodeUint8", func() { DecodeUint8[int](nil, p, testDecoder) }},
		"GetObs out of range":                  {"imagedata.ImagesUint8.GetObs", func() { NewImagesUint8(folder.X(), p, testDecoder).GetObs(4) }},
	} {
		var ae *container.ArgError
		var ie *container.IndexError
		switch err := panicked(c.f); {
		case errors.As(err, &ae) && ae.Op == c.op:
		case errors.As(err, &ie) && ie.Op == c.op:
		default:
			t.Errorf("%s: panicked with %v, want an error of %s", name, err, c.op)
		}
	}

	data := badFolder(t, map[string][]byte{"a/2.jpg": []byte("not an image")})
	if err := panicked(func() { DecodeUint8(data, p, testDecoder).GetObs(1) }); !errors.Is(err, ErrRead) || !strings.Contains(err.Error(), data.X().Path(1)) {
		t.Errorf("a bad image: panic %v, want ErrRead naming %s", err, data.X().Path(1))
	}
	var skips Skips
	r := container.NewObsRand(3, 1)
	b := DecodeUint8(data, p, testDecoder, SkipBad(&skips)).GetObsRandInto(tuples.Pair[*arraycontainer.Array[uint8], []int]{}, []int{0, 1, 2}, r)
	if w := wantImage8(t, data.X().Path(2), p, r.For(1)); !slices.Equal(w, b.X.GetObs(1).Data()) {
		t.Errorf("slot 1: not image 2 drawn with r.For(1)")
	}
	if got := skips.Images(); len(got) != 1 || got[0].Index != 1 || got[0].With != 2 {
		t.Errorf("Skips.Images() = %v, want image 1 with 2", got)
	}
}

// TestDecodeUint8Allocs pins a loop over DecodeUint8 at no allocation per
// batch with libjpeg-turbo: a reused batch, and an endless loop with two
// workers, over files, records and a view of files.
func TestDecodeUint8Allocs(t *testing.T) {
	if err := turbo.Available().Err; err != nil {
		t.Skipf("libjpeg-turbo is not available (%v): the pure-Go decoder allocates its planes", err)
	}
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool (augment's scratch buffers) drop items at random")
	}
	folder, err := OpenFolder("testdata/photos", FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	records, err := OpenRecords(packRecordsOf(t, folder), "", Class)
	if err != nil {
		t.Fatal(err)
	}
	idx := make([]int, 64)
	for i := range idx {
		idx[i] = i % 4
	}
	p := smallCrop(t, augment.HWC)
	for name, data := range map[string]*DecodedUint8[int]{
		"folder":  DecodeUint8(folder, p, testDecoder),
		"records": DecodeUint8(records, p, testDecoder),
		"view":    DecodeUint8(subset.Of(folder, idx), p, testDecoder),
	} {
		r := container.NewObsRand(1, 0)
		var b tuples.Pair[*arraycontainer.Array[uint8], []int]
		batch := []int{3, 1, 0, 2, 1}
		b = data.GetObsRandInto(b, batch, r)
		if n := testing.AllocsPerRun(20, func() { b = data.GetObsRandInto(b, batch, r) }); n != 0 {
			t.Errorf("%s: GetObsRandInto with a reused batch: %v allocations, want 0", name, n)
		}
		it := eachobs.NewLoader(data, 3, eachobs.Shuffle(1), eachobs.Workers(2)).Iter()
		for range 200 { // past the first epochs, and the threads the runtime starts for the reads' system calls
			it.Next()
		}
		if n := testing.AllocsPerRun(30, func() { it.Next() }); n != 0 {
			t.Errorf("%s: a loop with 2 workers: %v allocations per batch, want 0", name, n)
		}
		it.Close()
	}
}
