package mxnet

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/provider"
	"github.com/obskit/obskit/recordio"
)

// iterOf returns NewImageRecordIter's defaults over path, quiet, with the test
// decoder and a data shape that fits the photos.
func iterOf(path string, batch int) ImageRecordIter {
	it := NewImageRecordIter(path, [3]int{3, 16, 24}, batch)
	it.Decoder = testDecoder
	it.Verbose = false
	return it
}

// epochOf returns the batches of epoch e of p: each batch's data, labels,
// indices and padding.
type iterBatch struct {
	data   []float32
	labels []float32
	shape  []int
	lshape []int
	idx    []int
	pad    int
}

func epochOf(t testing.TB, it ImageRecordIter, e int) []iterBatch {
	t.Helper()
	p, err := it.Provider()
	if err != nil {
		t.Fatal(err)
	}
	var out []iterBatch
	for b := range p.Epoch(e) {
		x, y := p.Data(b, it.DataName), p.Label(b, it.LabelName)
		out = append(out, iterBatch{slices.Clone(x.Data()), slices.Clone(y.Data()), x.Shape(), y.Shape(), slices.Clone(b.Indices), b.Pad()})
	}
	return out
}

// TestImageRecordIter holds each of ImageRecordIter's parameters to its
// meaning (docs/from-mxnet.md names these tests beside each parameter).
func TestImageRecordIter(t *testing.T) {
	rec := packIter(t, 10, 1, nil)

	t.Run("path_imgrec", func(t *testing.T) {
		it := iterOf(rec, 4)
		p, err := it.Provider()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]provider.Desc{{Name: "data", Shape: []int{4, 3, 16, 24}}}, p.ProvideData()); diff != "" {
			t.Errorf("ProvideData mismatch (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]provider.Desc{{Name: "softmax_label", Shape: []int{4}}}, p.ProvideLabel()); diff != "" {
			t.Errorf("ProvideLabel mismatch (-want +got):\n%s", diff)
		}
		// Each image is the pipeline of the augmentation over the record's
		// image, drawn with the loop's generator of its index; the labels
		// the records'.
		pipe := augment.New(augment.CHW, it.Aug.Step())
		r := container.NewObsRand(0, 0)
		for _, b := range epochOf(t, it, 0) {
			for k, i := range b.idx {
				w := wantImage(t, filepath.Join(photosDir, photos[i%4].path), pipe, r.For(i))
				if !slices.Equal(w, b.data[k*pipe.Len():(k+1)*pipe.Len()]) {
					t.Errorf("image %d differs from the pipeline's", i)
				}
				if b.labels[k] != photos[i%4].class {
					t.Errorf("label of image %d: %v, want %v", i, b.labels[k], photos[i%4].class)
				}
			}
		}
		it.PathImgrec = filepath.Join(t.TempDir(), "missing.rec")
		if _, err := it.Provider(); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
		}
	})

	t.Run("path_imgidx", func(t *testing.T) {
		// Without an index beside it the file is scanned: the same batches.
		scanned := filepath.Join(t.TempDir(), "scanned.rec")
		if err := os.WriteFile(scanned, readFile(t, rec), 0o644); err != nil {
			t.Fatal(err)
		}
		it := iterOf(rec, 4)
		want := epochOf(t, it, 0)
		it.PathImgrec = scanned
		if diff := cmp.Diff(want, epochOf(t, it, 0), cmp.AllowUnexported(iterBatch{})); diff != "" {
			t.Errorf("scanned file: batches mismatch (-want +got):\n%s", diff)
		}
		it.PathImgidx = recordio.IndexPath(rec)
		if diff := cmp.Diff(want, epochOf(t, it, 0), cmp.AllowUnexported(iterBatch{})); diff != "" {
			t.Errorf("path_imgidx given: batches mismatch (-want +got):\n%s", diff)
		}
	})

	t.Run("path_imglist", func(t *testing.T) {
		// The list gives image k (id k) the labels 100+k, 7; label_width 2
		// takes both.
		var lst strings.Builder
		for k := range 10 {
			fmt.Fprintf(&lst, "%d\t%d\t7\t%s\n", k, 100+k, photos[k%4].path)
		}
		it := iterOf(rec, 5)
		it.PathImglist = writeFile(t, "iter.lst", lst.String())
		it.LabelWidth = 2
		for _, b := range epochOf(t, it, 0) {
			if diff := cmp.Diff([]int{5, 2}, b.lshape); diff != "" {
				t.Errorf("label shape mismatch (-want +got):\n%s", diff)
			}
			for k, i := range b.idx {
				if got := b.labels[2*k : 2*k+2]; !slices.Equal(got, []float32{float32(100 + i), 7}) {
					t.Errorf("labels of image %d: %v, want [%d 7]", i, got, 100+i)
				}
			}
		}
		it.PathImglist = writeFile(t, "short.lst", "0\t1\t7\ta.jpg\n")
		if _, err := it.Provider(); err == nil || !strings.Contains(err.Error(), "id 1 is not in the image list") {
			t.Errorf("a list without id 1: %v, want an error naming the id", err)
		}
	})

	t.Run("data_shape", func(t *testing.T) {
		it := iterOf(rec, 2)
		if err := it.Set("data_shape", "(3, 10, 12)"); err != nil {
			t.Fatal(err)
		}
		if got := epochOf(t, it, 0)[0].shape; !slices.Equal(got, []int{2, 3, 10, 12}) {
			t.Errorf("batch shape %v, want [2 3 10 12]", got)
		}
		if err := it.Set("data_shape", "(1, 10, 12)"); err != nil {
			t.Fatal(err)
		}
		if err := it.Check(); !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), "3 channels") {
			t.Errorf("a gray data_shape: Check() = %v, want ErrParam saying the images have 3 channels", err)
		}
	})

	t.Run("batch_size", func(t *testing.T) {
		b := epochOf(t, iterOf(rec, 3), 0)
		if len(b) != 4 || !slices.Equal(b[0].shape, []int{3, 3, 16, 24}) {
			t.Errorf("batch_size 3 over 10 records: %d batches of shape %v, want 4 of [3 3 16 24]", len(b), b[0].shape)
		}
	})

	t.Run("shuffle", func(t *testing.T) {
		it := iterOf(rec, 10)
		if got := epochOf(t, it, 0)[0].idx; !slices.Equal(got, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
			t.Errorf("without shuffle, epoch 0 visits %v, want file order", got)
		}
		it.Shuffle = true
		e0, e1 := epochOf(t, it, 0)[0].idx, epochOf(t, it, 1)[0].idx
		if slices.Equal(e0, e1) || slices.IsSorted(e0) {
			t.Errorf("with shuffle, epochs visit %v and %v, want two shuffled orders", e0, e1)
		}
		if s := slices.Sorted(slices.Values(e0)); !slices.Equal(s, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
			t.Errorf("a shuffled epoch visits %v, want every record once", e0)
		}
	})

	t.Run("seed", func(t *testing.T) {
		it := iterOf(rec, 10)
		it.Shuffle = true
		it.Seed = 1
		a := epochOf(t, it, 0)
		if diff := cmp.Diff(a, epochOf(t, it, 0), cmp.AllowUnexported(iterBatch{})); diff != "" {
			t.Errorf("the same seed: batches mismatch (-want +got):\n%s", diff)
		}
		// The order is eachobs.Shuffle's.
		var wantIdx []int
		for b := range eachobs.NewLoader(container.FromSlice(make([]int, 10)), 10, eachobs.Shuffle(1)).Epoch(0) {
			wantIdx = b.Indices
		}
		if !slices.Equal(wantIdx, a[0].idx) {
			t.Errorf("seed 1: order %v, want eachobs.Shuffle(1)'s %v", a[0].idx, wantIdx)
		}
		if err := it.Set("seed", "2"); err != nil {
			t.Fatal(err)
		}
		if slices.Equal(a[0].idx, epochOf(t, it, 0)[0].idx) {
			t.Errorf("seeds 1 and 2 give the same order")
		}
	})

	t.Run("num_parts", func(t *testing.T) {
		// Three parts of ten records: 4, 3 and 3 records in file order,
		// every record in exactly one part; each part shuffled on its own.
		for part, want := range [][]int{{0, 1, 2, 3}, {4, 5, 6}, {7, 8, 9}} {
			it := iterOf(rec, 4)
			it.Shuffle = true
			if err := it.Set("num_parts", "3"); err != nil {
				t.Fatal(err)
			}
			if err := it.Set("part_index", fmt.Sprint(part)); err != nil {
				t.Fatal(err)
			}
			b := epochOf(t, it, 0)
			if len(b) != 1 || b[0].pad != 4-len(want) {
				t.Fatalf("part %d: %d batches, padding %d", part, len(b), b[0].pad)
			}
			// Indices are positions in the part; image k of the part is
			// record want[k], drawn with the generator of its position in
			// the file, whatever num_parts.
			got := slices.Sorted(slices.Values(b[0].idx[:4-b[0].pad]))
			if !slices.Equal(got, []int{0, 1, 2, 3}[:len(want)]) {
				t.Errorf("part %d: indices %v, want the positions of %d records", part, got, len(want))
			}
			pipe := augment.New(augment.CHW, it.Aug.Step())
			r := container.NewObsRand(0, 0)
			for k, i := range b[0].idx[:4-b[0].pad] {
				pos := want[i]
				w := wantImage(t, filepath.Join(photosDir, photos[pos%4].path), pipe, r.For(pos))
				if !slices.Equal(w, b[0].data[k*pipe.Len():(k+1)*pipe.Len()]) {
					t.Errorf("part %d, index %d: not record %d drawn with the generator of %d", part, i, pos, pos)
				}
			}
		}
		it := iterOf(rec, 4)
		it.NumParts, it.PartIndex = 3, 3
		if err := it.Check(); !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), "part_index") {
			t.Errorf("part_index 3 of 3: %v, want ErrParam", err)
		}
	})

	t.Run("round_batch", func(t *testing.T) {
		// 10 records in batches of 4: the last batch has two records, and
		// two slots filled from the start of the epoch, counted as padding.
		it := iterOf(rec, 4)
		it.Shuffle = true
		b := epochOf(t, it, 0)
		last := b[2]
		if len(b) != 3 || last.pad != 2 || !slices.Equal(last.idx[2:], b[0].idx[:2]) {
			t.Errorf("round_batch: %d batches, the last padded with %d slots holding %v, want 3, 2 and the epoch's first %v", len(b), last.pad, last.idx[2:], b[0].idx[:2])
		}
		if !slices.Equal(last.data[2*len(last.data)/4:], b[0].data[:2*len(last.data)/4]) {
			t.Errorf("round_batch: the filled slots are not the epoch's first images")
		}
		it.RoundBatch = false
		b = epochOf(t, it, 0)
		last = b[2]
		zeros := slices.Repeat([]float32{0}, len(last.data)/2)
		if last.pad != 2 || !slices.Equal(last.data[len(last.data)/2:], zeros) || !slices.Equal(last.labels[2:], []float32{0, 0}) {
			t.Errorf("round_batch false: the last batch's padding (%d slots) is not zeros", last.pad)
		}
	})

	t.Run("prefetch_buffer", func(t *testing.T) {
		it := iterOf(rec, 3)
		it.Shuffle = true
		it.PrefetchBuffer, it.PreprocessThreads = 0, 1
		serial := epochOf(t, it, 2)
		it.PrefetchBuffer = 3
		if diff := cmp.Diff(serial, epochOf(t, it, 2), cmp.AllowUnexported(iterBatch{})); diff != "" {
			t.Errorf("prefetch_buffer 3: batches mismatch with a serial loop's (-want +got):\n%s", diff)
		}
	})

	t.Run("preprocess_threads", func(t *testing.T) {
		it := iterOf(rec, 3)
		it.Shuffle = true
		mustSet(t, &it, "rand_crop", "True")
		mustSet(t, &it, "rand_mirror", "True")
		it.PrefetchBuffer, it.PreprocessThreads = 0, 1
		serial := epochOf(t, it, 1)
		for _, threads := range []int{2, 4} {
			it.PreprocessThreads = threads
			if diff := cmp.Diff(serial, epochOf(t, it, 1), cmp.AllowUnexported(iterBatch{})); diff != "" {
				t.Errorf("preprocess_threads %d: batches mismatch with one thread's (-want +got):\n%s", threads, diff)
			}
		}
	})

	t.Run("label_width", func(t *testing.T) {
		multi := packIter(t, 6, 3, nil)
		it := iterOf(multi, 2)
		it.LabelWidth = 3
		b := epochOf(t, it, 0)
		if !slices.Equal(b[1].lshape, []int{2, 3}) || !slices.Equal(b[1].labels, []float32{photos[2].class, 2, 0.5, photos[3].class, 3, 0.5}) {
			t.Errorf("label_width 3: labels %v of shape %v", b[1].labels, b[1].lshape)
		}
		it.LabelWidth = 1
		if _, err := it.Provider(); !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), "has 3 labels (its flag) but label_width is 1") {
			t.Errorf("records of 3 labels, label_width 1: %v, want ErrParam naming both", err)
		}
		it = iterOf(rec, 2)
		it.LabelWidth = 2
		if _, err := it.Provider(); !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), "label_width must be 1") {
			t.Errorf("records of one label, label_width 2: %v, want ErrParam", err)
		}
	})

	t.Run("data_name", func(t *testing.T) {
		it := iterOf(rec, 2)
		mustSet(t, &it, "data_name", "image")
		mustSet(t, &it, "label_name", "class")
		p, err := it.Provider()
		if err != nil {
			t.Fatal(err)
		}
		if d, l := p.ProvideData()[0].Name, p.ProvideLabel()[0].Name; d != "image" || l != "class" {
			t.Errorf("names %q, %q, want image, class", d, l)
		}
		it.LabelName = "image"
		if err := it.Check(); !errors.Is(err, ErrParam) {
			t.Errorf("one name for both: %v, want ErrParam", err)
		}
	})

	t.Run("verbose", func(t *testing.T) {
		var log strings.Builder
		it := iterOf(rec, 4)
		it.Log = &log
		if _, err := it.Provider(); err != nil || log.Len() != 0 {
			t.Errorf("verbose false: wrote %q (%v)", log.String(), err)
		}
		it.Verbose = true
		if _, err := it.Provider(); err != nil || !strings.Contains(log.String(), "iter.rec: 10 records, part 0 of 1: 10 records, batches of 4") {
			t.Errorf("verbose: wrote %q (%v)", log.String(), err)
		}
	})

	t.Run("mean_r", func(t *testing.T) {
		// The normalization: (v - mean) / std per channel, as MXNet's.
		it := iterOf(rec, 4)
		plain := epochOf(t, it, 0)[0].data
		for name, value := range map[string]string{"mean_r": "100", "mean_g": "50", "mean_b": "10", "std_r": "2", "std_g": "4", "std_b": "5", "scale": "0.5"} {
			if err := it.Set(name, value); err != nil {
				t.Fatal(err)
			}
		}
		got := epochOf(t, it, 0)[0].data
		plane := 16 * 24
		for k, v := range plain {
			mean, std := []float32{100, 50, 10}[(k/plane)%3], []float32{2, 4, 5}[(k/plane)%3]
			if w := (v - mean) * 0.5 / std; abs(got[k]-w) > 1e-4 {
				t.Fatalf("value %d: %v, want (%v - %v) * 0.5 / %v = %v", k, got[k], v, mean, std, w)
			}
		}
	})

	t.Run("augmentation", func(t *testing.T) {
		// MXNet's augmentation parameters go to Aug by name; the batches are
		// the pipeline's (TestRecordIter/path_imgrec).
		it := iterOf(rec, 4)
		for name, value := range map[string]string{"rand_crop": "1", "max_rotate_angle": "10", "rand_mirror": "True", "random_h": "5", "inter_method": "2", "resize": "40"} {
			if err := it.Set(name, value); err != nil {
				t.Fatalf("Set(%q, %q): %v", name, value, err)
			}
		}
		w := NewAugmenter(3, 16, 24)
		w.RandCrop, w.MaxRotateAngle, w.RandMirror, w.RandomH, w.InterMethod, w.Resize = true, 10, true, 5, 2, 40
		if diff := cmp.Diff(w, it.Aug); diff != "" {
			t.Errorf("Aug mismatch (-want +got):\n%s", diff)
		}
		if err := it.Set("max_rotate_angle", "ten"); !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), "max_rotate_angle") {
			t.Errorf("a bad value: %v, want ErrParam naming it", err)
		}
	})

	t.Run("other parameters", func(t *testing.T) {
		it := iterOf(rec, 4)
		for name, value := range map[string]string{"ctx": "gpu", "device_id": "0", "dtype": "float32", "aug_seq": "aug_default"} {
			if err := it.Set(name, value); err != nil {
				t.Errorf("Set(%q, %q): %v, want it accepted", name, value, err)
			}
		}
		for name, value := range map[string]string{"dtype": "uint8", "aug_seq": "det_aug_default", "seed_aug": "1", "shuffle_chunk_size": "64", "no_such_thing": "1", "batch_size": "many", "shuffle": "maybe"} {
			if err := it.Set(name, value); !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), name) {
				t.Errorf("Set(%q, %q): %v, want ErrParam naming it", name, value, err)
			}
		}
		it.Decoder = nil
		if err := it.Check(); !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), "Decoder") {
			t.Errorf("no decoder: %v, want ErrParam", err)
		}
	})
}

func mustSet(t testing.TB, it *ImageRecordIter, name, value string) {
	t.Helper()
	if err := it.Set(name, value); err != nil {
		t.Fatal(err)
	}
}

func abs(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// TestImageRecordIterCheck: each parameter out of range, set as a program
// sets a field, panics in Provider with a *container.ArgError of
// mxnet.ImageRecordIter.Provider naming it, before any file is opened; Check
// returns the same as an error wrapping ErrParam, and nil for MXNet's
// defaults with a decoder.
func TestImageRecordIterCheck(t *testing.T) {
	def := iterOf(filepath.Join(t.TempDir(), "none.rec"), 4)
	if err := def.Check(); err != nil {
		t.Fatalf("MXNet's defaults: %v", err)
	}
	for _, c := range []struct {
		param string
		set   func(it *ImageRecordIter)
	}{
		{"path_imgrec", func(it *ImageRecordIter) { it.PathImgrec = "" }},
		{"batch_size", func(it *ImageRecordIter) { it.BatchSize = 0 }},
		{"label_width", func(it *ImageRecordIter) { it.LabelWidth = 0 }},
		{"num_parts", func(it *ImageRecordIter) { it.NumParts = 0 }},
		{"part_index", func(it *ImageRecordIter) { it.PartIndex = -1 }},
		{"part_index", func(it *ImageRecordIter) { it.NumParts, it.PartIndex = 2, 2 }},
		{"prefetch_buffer", func(it *ImageRecordIter) { it.PrefetchBuffer = -1 }},
		{"preprocess_threads", func(it *ImageRecordIter) { it.PreprocessThreads = 0 }},
		{"data_name", func(it *ImageRecordIter) { it.DataName = "" }},
		{"label_name", func(it *ImageRecordIter) { it.LabelName = it.DataName }},
		{"Decoder", func(it *ImageRecordIter) { it.Decoder = nil }},
		{"inter_method", func(it *ImageRecordIter) { it.Aug.InterMethod = 7 }},
		{"data_shape", func(it *ImageRecordIter) { it.Aug.DataShape[0] = 4 }},
	} {
		it := def
		c.set(&it)
		if err := it.Check(); !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), c.param) {
			t.Errorf("%s: Check() = %v, want an error wrapping ErrParam naming it", c.param, err)
		}
		var ae *container.ArgError
		v := recovered(func() { _, _ = it.Provider() })
		if !isArgError(v, &ae) || ae.Op != "mxnet.ImageRecordIter.Provider" || !strings.Contains(ae.Arg, c.param) {
			t.Errorf("%s: Provider panicked with %v, want a *container.ArgError of mxnet.ImageRecordIter.Provider naming it", c.param, v)
		}
	}
	// A file that is missing is the file's error, not a panic.
	if _, err := def.Provider(); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}

// TestImageRecordIterSetValues: Set parses MXNet's spellings (ints from
// floats, seeds beyond int32 and negative, booleans of every case) and
// refuses what does not parse, naming the parameter, leaving the field.
func TestImageRecordIterSetValues(t *testing.T) {
	it := iterOf("x.rec", 1)
	for _, kv := range [][2]string{{"batch_size", "32.0"}, {"seed", "18446744073709551615"}, {"shuffle", "TRUE"}, {"round_batch", "0"}, {"path_imgidx", " x.idx "}} {
		mustSet(t, &it, kv[0], kv[1])
	}
	if it.BatchSize != 32 || it.Seed != 1<<64-1 || !it.Shuffle || it.RoundBatch || it.PathImgidx != "x.idx" {
		t.Errorf("after Set: %+v", it)
	}
	mustSet(t, &it, "seed", "-1")
	if it.Seed != 1<<64-1 {
		t.Errorf("seed -1: %d, want 2^64-1 (modulo 2^64)", it.Seed)
	}
	for _, kv := range [][2]string{{"batch_size", "32.5"}, {"batch_size", "1e12"}, {"seed", "x"}, {"num_parts", ""}, {"verbose", "yes"}} {
		if err := it.Set(kv[0], kv[1]); !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), kv[0]) {
			t.Errorf("Set(%q, %q) = %v, want ErrParam naming it", kv[0], kv[1], err)
		}
	}
	if it.BatchSize != 32 {
		t.Errorf("a refused batch_size changed the field to %d", it.BatchSize)
	}
}
