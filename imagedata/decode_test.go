package imagedata

import (
	"bufio"
	"errors"
	"image"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/recordio"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// smallCrop is a training pipeline sized for the photos of testdata (64 x 43
// and 64 x 64).
func smallCrop(t testing.TB, layout augment.Layout) *augment.Pipeline {
	t.Helper()
	p := augment.New(layout,
		augment.RandomResizedCrop{Size: image.Pt(24, 16)},
		augment.RandomHorizontalFlip{},
		augment.ImageNet)
	return p
}

var testDecoder = turbo.New(imagecodec.Options{})

// arrayConfig is the conformance checker's view of batches of images.
func arrayConfig() containertest.Config[*arraycontainer.Array[float32], *arraycontainer.Array[float32]] {
	return containertest.Config[*arraycontainer.Array[float32], *arraycontainer.Array[float32]]{
		Obs: func(b *arraycontainer.Array[float32], j int) *arraycontainer.Array[float32] { return b.GetObs(j) },
		Len: func(b *arraycontainer.Array[float32]) int { return b.Nobs() },
	}
}

// decodedConfig is the checker's view of batches of labeled images.
func decodedConfig[L any]() containertest.Config[tuples.Pair[*arraycontainer.Array[float32], L], tuples.Pair[*arraycontainer.Array[float32], []L]] {
	return containertest.Config[tuples.Pair[*arraycontainer.Array[float32], L], tuples.Pair[*arraycontainer.Array[float32], []L]]{
		Obs: func(b tuples.Pair[*arraycontainer.Array[float32], []L], j int) tuples.Pair[*arraycontainer.Array[float32], L] {
			return tuples.Pair[*arraycontainer.Array[float32], L]{X: b.X.GetObs(j), Y: b.Y[j]}
		},
		Len:     func(b tuples.Pair[*arraycontainer.Array[float32], []L]) int { return len(b.Y) },
		Options: []cmp.Option{cmp.Comparer(func(a, b *arraycontainer.Array[float32]) bool { return a.Equal(b) })},
	}
}

// wantImage is what image i of files is through p with r, computed the plain way:
// the file's bytes, one Apply.
func wantImage(t testing.TB, path string, p *augment.Pipeline, rng *rand.Rand) []float32 {
	t.Helper()
	out := make([]float32, p.Len())
	if err := p.Apply(out, testDecoder, path, readFile(t, path), rng); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDecodeConformance(t *testing.T) {
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
			t.Run("Folder", func(t *testing.T) { containertest.Run(t, Decode(folder, p, testDecoder), decodedConfig[int]()) })
			t.Run("Records", func(t *testing.T) { containertest.Run(t, Decode(records, p, testDecoder), decodedConfig[int]()) })
			t.Run("Images", func(t *testing.T) { containertest.Run(t, NewImages(folder.X(), p, testDecoder), arrayConfig()) })
			part := subset.Of(folder, []int{3, 1})
			t.Run("View", func(t *testing.T) { containertest.Run(t, Decode(part, p, testDecoder), decodedConfig[int]()) })
			t.Run("Other", func(t *testing.T) {
				containertest.Run(t, NewImages(container.Slice[[]byte](bytesOf(t, folder)), p, testDecoder), arrayConfig())
			})
			t.Run("Empty", func(t *testing.T) {
				containertest.Run(t, Decode(subset.Of(folder, nil), p, testDecoder), decodedConfig[int]())
			})
		})
	}
}

// packRecordsOf packs the images of data into a .rec (no index) with their
// classes, as im2rec does (id = position), and returns its path.
func packRecordsOf(t testing.TB, data *Folder) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "photos.rec")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	w := recordio.NewWriter(bw)
	for i := range data.Nobs() {
		obs := data.GetObs(i)
		if _, err := w.Write(recordio.Pack(nil, recordio.Header{Label: float32(obs.Y), ID: uint64(i)}, nil, obs.X)); err != nil {
			t.Fatal(err)
		}
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	return path
}

// bytesOf returns the encoded images of data.
func bytesOf(t testing.TB, data *Folder) [][]byte {
	t.Helper()
	var out [][]byte
	for i := range data.Nobs() {
		out = append(out, data.X().GetObs(i))
	}
	return out
}

// TestDecodeValues checks every image of a batch against a plain Apply with
// the generator of its index, for each kind of source, and the labels.
func TestDecodeValues(t *testing.T) {
	folder, err := OpenFolder("testdata/photos", FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	records, err := OpenRecords(packRecordsOf(t, folder), "", Class)
	if err != nil {
		t.Fatal(err)
	}
	p := smallCrop(t, augment.CHW)
	r := container.NewObsRand(7, 3)
	idx := []int{2, 0, 3, 2, 1}
	for name, data := range map[string]*Decoded[int]{
		"folder":  Decode(folder, p, testDecoder),
		"records": Decode(records, p, testDecoder),
	} {
		b := data.GetObsRandInto(tuples.Pair[*arraycontainer.Array[float32], []int]{}, idx, r)
		if diff := cmp.Diff([]int{5, 3, 16, 24}, b.X.Shape()); diff != "" {
			t.Errorf("%s: batch shape mismatch (-want +got):\n%s", name, diff)
		}
		if diff := cmp.Diff([]int{2, 0, 2, 2, 1}, b.Y); diff != "" {
			t.Errorf("%s: labels mismatch (-want +got):\n%s", name, diff)
		}
		for k, i := range idx {
			w := wantImage(t, folder.X().Path(i), p, r.For(i))
			if got := b.X.GetObs(k).Data(); !slices.Equal(w, got) {
				t.Errorf("%s: slot %d (image %d) differs from a plain Apply with r.For(%d)", name, k, i, i)
			}
		}
	}
}

// TestDecodeWorkers: the batches of a shuffled loop are the same serially,
// with workers and with prefetching, and the same after a resume.
func TestDecodeWorkers(t *testing.T) {
	folder, err := OpenFolder("testdata/photos", FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// 4 photos, 6 times over: 24 images.
	idx := make([]int, 24)
	for i := range idx {
		idx[i] = i % 4
	}
	data := Decode(subset.Of(folder, idx), smallCrop(t, augment.CHW), testDecoder)
	epoch := func(opts ...eachobs.Option) (out [][]float32) {
		l := eachobs.NewLoader(data, 5, append(opts, eachobs.Shuffle(11))...)
		for b := range l.Epoch(2) {
			out = append(out, slices.Clone(b.Data.X.Data()))
		}
		return out
	}
	serial := epoch()
	for name, opts := range map[string][]eachobs.Option{
		"Workers(2)":              {eachobs.Workers(2)},
		"Workers(3), Prefetch(2)": {eachobs.Workers(3), eachobs.Prefetch(2)},
	} {
		if got := epoch(opts...); !slices.EqualFunc(serial, got, slices.Equal) {
			t.Errorf("%s: batches differ from the serial loop's", name)
		}
	}
	l := eachobs.NewLoader(data, 5, eachobs.Shuffle(11))
	it := l.Iter()
	defer it.Close()
	at := it.Pos() // epoch 2, batch 3
	at.Epoch, at.Consumed, at.Batch = l.Steps().After(2, 2)
	saved, err := at.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := it.UnmarshalBinary(saved); err != nil {
		t.Fatal(err)
	}
	for b := range it.All() {
		if !slices.Equal(serial[3], b.Data.X.Data()) {
			t.Errorf("resumed at batch 3: differs from the serial loop's batch 3")
		}
		break
	}
	// Two epochs draw differently.
	if slices.EqualFunc(serial, func() (out [][]float32) {
		for b := range eachobs.NewLoader(data, 5, eachobs.Shuffle(11)).Epoch(3) {
			out = append(out, slices.Clone(b.Data.X.Data()))
		}
		return out
	}(), slices.Equal) {
		t.Errorf("epochs 2 and 3 gave the same batches")
	}
}

func TestDecodeStratifiedSplit(t *testing.T) {
	folder, err := OpenFolder("testdata/photos", FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	idx := make([]int, 40)
	for i := range idx {
		idx[i] = i % 4
	}
	counting := &countingDecoder{Decoder: testDecoder}
	data := Decode(subset.Of(folder, idx), smallCrop(t, augment.CHW), counting)
	parts, err := subset.StratifiedSplit(data, rand.New(rand.NewPCG(1, 2)), 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if counting.n != 0 {
		t.Errorf("the split decoded %d images, want none: labels are read without the images", counting.n)
	}
	count := func(labels []int) map[int]int {
		m := map[int]int{}
		for _, l := range labels {
			m[l]++
		}
		return m
	}
	if diff := cmp.Diff(map[int]int{0: 5, 1: 5, 2: 10}, count(tuples.Labels(parts[0]))); diff != "" {
		t.Errorf("StratifiedSplit: classes of the first part mismatch (-want +got):\n%s", diff)
	}
	b := parts[0].GetObsInto(tuples.Pair[*arraycontainer.Array[float32], []int]{}, []int{0, 1})
	if b.X.Nobs() != 2 || counting.n == 0 {
		t.Errorf("a batch of the part: %d images, %d decodes", b.X.Nobs(), counting.n)
	}
}

// countingDecoder counts the images it decodes.
type countingDecoder struct {
	imagecodec.Decoder
	n int
}

func (d *countingDecoder) Decode(dst *imagecodec.RGB, name string, data []byte, req imagecodec.Request) (*imagecodec.RGB, float64, error) {
	d.n++
	return d.Decoder.Decode(dst, name, data, req)
}

// badFolder returns a folder per class whose class "a" holds good photos and
// the files of bad (name -> contents), and class "b" one good photo.
func badFolder(t *testing.T, bad map[string][]byte) *Folder {
	t.Helper()
	root := t.TempDir()
	good := readFile(t, "testdata/photos/cat/chelsea.jpg")
	files := map[string][]byte{"a/1.jpg": good, "a/3.jpg": good, "b/1.jpg": good}
	for name, data := range bad {
		files[name] = data
	}
	for name, data := range files {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := OpenFolder(root, FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestDecodeErrors(t *testing.T) {
	good := readFile(t, "testdata/photos/cat/chelsea.jpg")
	truncated := good[:len(good)/3]
	data := badFolder(t, map[string][]byte{"a/2.jpg": []byte("not an image at all"), "a/4.jpg": truncated})
	// a/1 a/2 a/3 a/4 b/1
	p := smallCrop(t, augment.CHW)
	records, err := OpenRecords(packRecordsOf(t, data), "", Class)
	if err != nil {
		t.Fatal(err)
	}
	gone := badFolder(t, nil)
	if err := os.Remove(gone.X().Path(1)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		data    *Decoded[int]
		i       int
		is      []error
		message []string
	}{
		{"not an image", Decode(data, p, testDecoder), 1, []error{ErrRead, imagecodec.ErrFormat},
			[]string{"imagedata: " + data.X().Path(1) + ": cannot read image: ", "a/2.jpg"}},
		{"truncated", Decode(data, p, testDecoder), 3, []error{ErrRead},
			[]string{"imagedata: " + data.X().Path(3) + ": cannot read image: "}},
		{"record", Decode(records, p, testDecoder), 1, []error{ErrRead, imagecodec.ErrFormat},
			[]string{"imagedata: " + records.X().File().Name() + ": record of key 1 at offset ", ": cannot read image: "}},
		{"file removed", Decode(gone, p, testDecoder), 1, []error{ErrRead, fs.ErrNotExist},
			[]string{"imagedata: " + gone.X().Path(1) + ": cannot read image: open: no such file or directory"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			check := func(how string, read func()) {
				t.Helper()
				err := panicked(read)
				for _, target := range c.is {
					if !errors.Is(err, target) {
						t.Errorf("%s: panic %v, want an error wrapping %v", how, err, target)
					}
				}
				for _, m := range c.message {
					if err == nil || !strings.Contains(err.Error(), m) {
						t.Errorf("%s: panic %v, want a message containing %q", how, err, m)
					}
				}
			}
			check("GetObs", func() { c.data.GetObs(c.i) })
			check("GetObsInto", func() { c.data.GetObsInto(tuples.Pair[*arraycontainer.Array[float32], []int]{}, []int{0, c.i}) })
			// In a loop, the error reaches the caller as a *container.PanicError,
			// whatever the number of workers (issue 25: a serial loop let the bare
			// error through).
			for _, opts := range [][]eachobs.Option{nil, {eachobs.Prefetch(1)}, {eachobs.Workers(2)}} {
				err := panicked(func() {
					for range eachobs.Batches(c.data, 2, opts...) {
					}
				})
				var pe *container.PanicError
				if !errors.As(err, &pe) || !errors.Is(err, ErrRead) {
					t.Errorf("loop with %d options: panic %v (%T), want a *container.PanicError wrapping ErrRead", len(opts), err, err)
				}
			}
		})
	}
}

// panicked runs f and returns the error it panics with (nil if none).
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

func TestSkipBad(t *testing.T) {
	good := readFile(t, "testdata/photos/cat/chelsea.jpg")
	// a/1 a/2(bad) a/3 a/4(bad) b/1
	data := badFolder(t, map[string][]byte{"a/2.jpg": []byte("not an image"), "a/4.jpg": good[:len(good)/3]})
	p := smallCrop(t, augment.CHW)
	var skips Skips
	d := Decode(data, p, testDecoder, SkipBad(&skips))
	r := container.NewObsRand(3, 1)
	b := d.GetObsRandInto(tuples.Pair[*arraycontainer.Array[float32], []int]{}, []int{0, 1, 2, 3, 4}, r)
	if diff := cmp.Diff([]int{0, 0, 0, 0, 1}, b.Y); diff != "" {
		t.Errorf("labels mismatch (-want +got):\n%s", diff)
	}
	// Image 1 is replaced by image 2 (the next of class 0) drawn with 1's
	// generator; image 3 by image 0 (going round, skipping class 1's 4).
	for slot, src := range map[int]int{1: 2, 3: 0} {
		w := wantImage(t, data.X().Path(src), p, r.For(slot))
		if !slices.Equal(w, b.X.GetObs(slot).Data()) {
			t.Errorf("slot %d: not image %d drawn with r.For(%d)", slot, src, slot)
		}
	}
	got := skips.Images()
	if len(got) != 2 || got[0].Index != 1 || got[0].With != 2 || got[1].Index != 3 || got[1].With != 0 {
		t.Fatalf("Skips.Images() = %v, want images 1 (with 2) and 3 (with 0)", got)
	}
	for _, k := range got {
		if !errors.Is(k.Err, ErrRead) || !strings.Contains(k.Err.Error(), data.X().Path(k.Index)) {
			t.Errorf("skip of %d: error %v, want ErrRead naming %s", k.Index, k.Err, data.X().Path(k.Index))
		}
	}
	// A loop over two epochs with two workers: every bad image skipped once
	// an epoch, the batches the serial loop's.
	skips = Skips{}
	var serial, parallel [][]float32
	for e := range 2 {
		for b := range eachobs.NewLoader(d, 2, eachobs.Shuffle(5)).Epoch(e) {
			serial = append(serial, slices.Clone(b.Data.X.Data()))
		}
	}
	for e := range 2 {
		for b := range eachobs.NewLoader(d, 2, eachobs.Shuffle(5), eachobs.Workers(2)).Epoch(e) {
			parallel = append(parallel, slices.Clone(b.Data.X.Data()))
		}
	}
	if !slices.EqualFunc(serial, parallel, slices.Equal) {
		t.Errorf("with skips, the batches of 2 workers differ from the serial loop's")
	}
	if skips.Count() != 8 {
		t.Errorf("Skips.Count() = %d after 2 loops of 2 epochs, want 8 (2 bad images)", skips.Count())
	}

	// No image of the label decodes: the read panics as without SkipBad.
	alone := badFolder(t, map[string][]byte{"c/1.jpg": []byte("bad")})
	err := panicked(func() { Decode(alone, p, testDecoder, SkipBad(new(Skips))).GetObs(3) })
	if !errors.Is(err, ErrRead) || !strings.Contains(err.Error(), "no other image of its label") {
		t.Errorf("a class of one bad image: panic %v, want ErrRead saying no other image of its label decodes", err)
	}
}

// TestDecodeAllocs pins the steady state at no allocation per batch with
// libjpeg-turbo (which allocates nothing in Go): a reused batch, and a loop
// with workers, over files, records and a view of files.
func TestDecodeAllocs(t *testing.T) {
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
	p := smallCrop(t, augment.CHW)
	for name, data := range map[string]*Decoded[int]{
		"folder":  Decode(folder, p, testDecoder),
		"records": Decode(records, p, testDecoder),
		"view":    Decode(subset.Of(folder, idx), p, testDecoder),
	} {
		r := container.NewObsRand(1, 0)
		var b tuples.Pair[*arraycontainer.Array[float32], []int]
		batch := []int{3, 1, 0, 2, 1}
		b = data.GetObsRandInto(b, batch, r)
		if n := testing.AllocsPerRun(20, func() { b = data.GetObsRandInto(b, batch, r) }); n != 0 {
			t.Errorf("%s: GetObsRandInto with a reused batch: %v allocations, want 0", name, n)
		}
		// An endless loop with two workers, past the first epochs.
		endless := eachobs.NewLoader(data, 3, eachobs.Shuffle(1), eachobs.Workers(2))
		it := endless.Iter()
		next, stop := it.Next, it.Close
		for range 200 { // past the first epochs, and the threads the runtime starts for the reads' system calls
			next()
		}
		if n := testing.AllocsPerRun(30, func() { next() }); n != 0 {
			t.Errorf("%s: a loop with 2 workers: %v allocations per batch, want 0", name, n)
		}
		stop()
	}
}

// TestDecodeFirstEpochAllocs pins what BenchmarkLoader's allocs/batch-w2
// measures: the first epoch with two workers of a container that ran serially
// before, from its third batch to its last. The second scratch is made when
// the workers first overlap, at the start; its free list once grew the first
// time both scratches were back at once, at the epoch's last batch (0.2
// allocations a batch in the benchmark). When the workers first overlap
// depends on the scheduler, and the runtime allocates now and then on its own
// (see augment's TestLoopAllocs), so the test fails when the first epochs of
// three fresh containers all allocate.
func TestDecodeFirstEpochAllocs(t *testing.T) {
	if err := turbo.Available().Err; err != nil {
		t.Skipf("libjpeg-turbo is not available (%v): the pure-Go decoder allocates its planes", err)
	}
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	folder, err := OpenFolder("testdata/photos", FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	idx := make([]int, 48)
	for i := range idx {
		idx[i] = i % 4
	}
	p := smallCrop(t, augment.CHW)
	var counts []uint64
	for range 3 {
		data := Decode(subset.Of(folder, idx), p, testDecoder)
		for range eachobs.Batches(data, 6, eachobs.Shuffle(1)) {
		}
		var m0, m1 runtime.MemStats
		for b := range eachobs.Batches(data, 6, eachobs.Shuffle(1), eachobs.Workers(2)) {
			switch b.Pos.Batch {
			case 2:
				runtime.ReadMemStats(&m0)
			case b.Count - 1:
				runtime.ReadMemStats(&m1)
			}
		}
		if counts = append(counts, m1.Mallocs-m0.Mallocs); counts[len(counts)-1] == 0 {
			return
		}
	}
	t.Errorf("first epochs with 2 workers of three containers: %v allocations from the third batch to the last, want 0", counts)
}
