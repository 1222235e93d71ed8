package imagedata

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/recordio"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/transform"
	"github.com/obskit/obskit/tuples"
)

// rawRecords packs the encoded images of data, alone, as the records of a
// RecordIO file in memory (not image records: no header, no labels), and
// returns the file's bytes and the records' offsets.
func rawRecords(t testing.TB, data *Folder) ([]byte, recordio.Index) {
	t.Helper()
	var buf bytes.Buffer
	w := recordio.NewWriter(&buf)
	var ix recordio.Index
	for i, img := range bytesOf(t, data) {
		off, err := w.Write(img)
		if err != nil {
			t.Fatal(err)
		}
		ix = append(ix, recordio.Entry{Key: int64(i), Offset: off})
	}
	return buf.Bytes(), ix
}

// TestEncodedContainers runs the conformance checker, whose Encoded checks
// apply, over the package's containers of encoded images and the features of
// a split part, and checks what Where names.
func TestEncodedContainers(t *testing.T) {
	folder, err := OpenFolder("testdata/photos", FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	records, err := OpenRecords(packRecordsOf(t, folder), "", Class)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := subset.StratifiedSplit(folder, rand.New(rand.NewPCG(26, 1)), 0.5)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]container.Container[[]byte]{
		"Files":             folder.X(),
		"RecordImages":      records.X(),
		"features of parts": tuples.Features(parts[1]),
	} {
		if _, ok := c.(container.Encoded); !ok {
			t.Fatalf("%s: %T is not container.Encoded", name, c)
		}
		t.Run(name, func(t *testing.T) { containertest.Run(t, container.AsBatched(c), bytesConfig()) })
	}
	for i := range folder.Nobs() {
		if got, want := folder.X().Where(i), folder.X().Path(i); got != want {
			t.Errorf("Files.Where(%d) = %q, want the path %q", i, got, want)
		}
		f := records.X().File()
		if got, want := records.X().Where(i), fmt.Sprintf("%s: record of key %d at offset %d", f.Name(), i, f.Offset(i)); got != want {
			t.Errorf("RecordImages.Where(%d) = %q, want %q", i, got, want)
		}
	}

	// A path longer than the buffer the Linux build keeps on the stack.
	root := t.TempDir()
	long := filepath.Join(strings.Repeat("a", 200), strings.Repeat("b", 200), strings.Repeat("c", 200), "chelsea.jpg")
	if err := os.MkdirAll(filepath.Join(root, filepath.Dir(long)), 0o755); err != nil {
		t.Fatal(err)
	}
	want := readFile(t, "testdata/photos/cat/chelsea.jpg")
	if err := os.WriteFile(filepath.Join(root, long), want, 0o644); err != nil {
		t.Fatal(err)
	}
	files := NewFiles(root, []string{long, "cat.jpg"})
	if got, err := files.AppendObs([]byte("x"), 0); err != nil || !bytes.Equal(got[1:], want) || got[0] != 'x' {
		t.Errorf("AppendObs of a path of %d bytes: %d bytes, %v; want the file after the prefix", len(root)+len(long), len(got), err)
	}
	got, err := files.AppendObs([]byte("kept"), 1)
	if !errors.Is(err, ErrRead) || !strings.Contains(err.Error(), filepath.Join(root, "cat.jpg")) || string(got) != "kept" {
		t.Errorf("AppendObs of a missing file = %q, %v; want dst's bytes and ErrRead naming the file", got, err)
	}
}

// TestFilesAppendObsAllocs pins Files.AppendObs, which image decoders call
// for every image, at no allocation once the buffer has grown.
func TestFilesAppendObsAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	folder, err := OpenFolder("testdata/photos", FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	files := folder.X()
	var buf []byte
	for i := range files.Nobs() {
		buf, _ = files.AppendObs(buf[:0], i)
	}
	if n := testing.AllocsPerRun(20, func() {
		for i := range files.Nobs() {
			buf, _ = files.AppendObs(buf[:0], i)
		}
	}); n != 0 {
		t.Errorf("Files.AppendObs into a reused buffer: %v allocations, want 0", n)
	}
}

// TestDecodeAnyEncoded: NewImages reads any container.Encoded into its
// reused buffer, with no allocation per batch (a read through GetObs would
// allocate each image): a recordio.File whose records are the images, the
// join of two .rec files of image records, a split part of either. The images
// are those of the folder.
func TestDecodeAnyEncoded(t *testing.T) {
	folder, err := OpenFolder("testdata/photos", FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := rawRecords(t, folder)
	raw, err := recordio.NewFile(bytes.NewReader(b), int64(len(b)), "raw.rec", nil)
	if err != nil {
		t.Fatal(err)
	}
	front, err := OpenRecords(packRecordsOf(t, folder), "", Class)
	if err != nil {
		t.Fatal(err)
	}
	back, err := OpenRecords(packRecordsOf(t, folder), "", Class)
	if err != nil {
		t.Fatal(err)
	}
	n := folder.Nobs()
	joined := transform.Join(container.Container[[]byte](subset.Range(front.X(), 0, 2)), subset.Range(back.X(), 2, n))
	p := smallCrop(t, augment.CHW)
	r := container.NewObsRand(4, 1)
	idx := []int{3, 0, 2, 1, 3}
	for name, images := range map[string]*Images{
		"recordio.File":        NewImages(raw, p, testDecoder),
		"join of two .rec":     NewImages(joined, p, testDecoder),
		"part of a join":       NewImages(subset.Of(joined, []int{0, 1, 2, 3}), p, testDecoder),
		"part of a .rec split": NewImages(subset.Range(raw, 0, n), p, testDecoder),
	} {
		t.Run(name, func(t *testing.T) {
			if _, ok := images.Encoded().(container.Encoded); !ok {
				t.Fatalf("%T is not container.Encoded", images.Encoded())
			}
			batch := images.GetObsRandInto(nil, idx, r)
			for k, i := range idx {
				if w := wantImage(t, folder.X().Path(i), p, r.For(i)); !slices.Equal(w, batch.GetObs(k).Data()) {
					t.Errorf("slot %d is not image %d", k, i)
				}
			}
			if turbo.Available().Err != nil || raceEnabled {
				return // the pure-Go decoder allocates its planes; the race detector allocates
			}
			if a := testing.AllocsPerRun(20, func() { batch = images.GetObsRandInto(batch, idx, r) }); a != 0 {
				t.Errorf("GetObsRandInto with a reused batch: %v allocations, want 0", a)
			}
		})
	}
}

// TestDecodeEncodedErrors: the errors of any container.Encoded reach the
// decoded images: a record that is not a record anymore is skipped by SkipBad
// (a read through GetObs could only panic), and without it the read panics
// with ErrRead and the record's error; an image that does not decode is named
// by the container's Where.
func TestDecodeEncodedErrors(t *testing.T) {
	folder, err := OpenFolder("testdata/photos", FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, ix := rawRecords(t, folder)
	damaged := bytes.Clone(b)
	f, err := recordio.NewFile(bytes.NewReader(damaged), int64(len(damaged)), "raw.rec", nil)
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint32(damaged[ix[1].Offset:], 0x58585858)
	p := smallCrop(t, augment.CHW)
	r := container.NewObsRand(2, 0)

	var skips Skips
	images := NewImages(f, p, testDecoder, SkipBad(&skips))
	batch := images.GetObsRandInto(nil, []int{0, 1, 2}, r)
	got := skips.Images()
	if len(got) != 1 || got[0].Index != 1 || got[0].With != 2 {
		t.Fatalf("Skips.Images() = %v, want image 1 replaced by image 2", got)
	}
	want := fmt.Sprintf("raw.rec: malformed RecordIO file: record of key 1: offset %d: bad magic number", ix[1].Offset)
	if e := got[0].Err; !errors.Is(e, ErrRead) || !errors.Is(e, recordio.ErrFormat) || !strings.Contains(e.Error(), want) {
		t.Errorf("the skip's error is %v, want ErrRead and recordio.ErrFormat saying %q", e, want)
	}
	if w := wantImage(t, folder.X().Path(2), p, r.For(1)); !slices.Equal(w, batch.GetObs(1).Data()) {
		t.Errorf("slot 1 is not image 2 drawn with image 1's generator")
	}
	e := panicked(func() { NewImages(f, p, testDecoder).GetObs(1) })
	if !errors.Is(e, ErrRead) || !errors.Is(e, recordio.ErrFormat) || !strings.Contains(e.Error(), want) {
		t.Errorf("GetObs of a damaged record without SkipBad panicked with %v, want ErrRead and recordio.ErrFormat saying %q", e, want)
	}

	// The record of an image that does not decode is named by Where.
	recs := bytesOf(t, folder)
	recs[2] = []byte("not an image at all")
	var buf bytes.Buffer
	w := recordio.NewWriter(&buf)
	for _, rec := range recs {
		if _, err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	g, err := recordio.NewFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "notes.rec", nil)
	if err != nil {
		t.Fatal(err)
	}
	e = panicked(func() {
		NewImages(subset.Of(g, []int{3, 2}), p, testDecoder).GetObsInto(nil, []int{0, 1})
	})
	if want := "imagedata: " + g.Where(2) + ": cannot read image: "; !errors.Is(e, ErrRead) || e == nil || !strings.Contains(e.Error(), want) {
		t.Errorf("an image that does not decode panicked with %v, want ErrRead saying %q", e, want)
	}
}

// TestImagesKeepBlocks: decoded images keep the blocks of their encoded
// images (joined .rec files: a block per file), and so does Decode's tuple, so
// that eachobs.ShuffleBlocks takes them; a folder has none.
func TestImagesKeepBlocks(t *testing.T) {
	folder, err := OpenFolder("testdata/photos", FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := OpenRecords(packRecordsOf(t, folder), "", Class)
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenRecords(packRecordsOf(t, folder), "", Class)
	if err != nil {
		t.Fatal(err)
	}
	n := folder.Nobs()
	joined := transform.Join(a.X(), b.X())
	p := smallCrop(t, augment.CHW)
	want := []int{0, n, 2 * n}
	if got := NewImages(joined, p, testDecoder).BlockStarts(); !slices.Equal(got, want) {
		t.Errorf("Images of two joined .rec files: BlockStarts %v, want %v", got, want)
	}
	labels := append(slices.Clone(tuples.Labels(a)), tuples.Labels(b)...)
	labeled, err := tuples.Zip2(joined, container.FromSlice(labels))
	if err != nil {
		t.Fatal(err)
	}
	decoded := Decode(labeled, p, testDecoder)
	if got := container.BlockStarts(decoded); !slices.Equal(got, want) {
		t.Errorf("Decode of two joined .rec files: BlockStarts %v, want %v", got, want)
	}
	l := eachobs.NewLoader(decoded, 2, eachobs.ShuffleBlocks(1, 1)) // panics without blocks
	seen := 0
	for bt := range l.Epoch(0) {
		seen += len(bt.Indices)
	}
	if seen != 2*n {
		t.Errorf("a ShuffleBlocks epoch saw %d images, want %d", seen, 2*n)
	}
	if got := NewImages(folder.X(), p, testDecoder).BlockStarts(); got != nil {
		t.Errorf("Images of a folder: BlockStarts %v, want nil", got)
	}
}
