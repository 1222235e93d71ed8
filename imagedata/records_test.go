package imagedata

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/recordio"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// photos are the images of testdata/photos with their class numbers.
var photos = []struct {
	path  string
	class float32
}{{"cat/chelsea.jpg", 0}, {"cup/coffee.jpg", 1}, {"person/astronaut.jpg", 2}, {"person/camera.jpg", 2}}

// packRecords writes image records of the photos, repeated, to a .rec and
// .idx in a new folder, the way im2rec packs them (id = key = list index),
// and returns the .rec's path and the images. Record 1 has several labels;
// record 2 an image holding the magic number, so that it is split.
func packRecords(t *testing.T, n int) (string, [][]byte, [][]float32) {
	t.Helper()
	dir := t.TempDir()
	rec, err := os.Create(filepath.Join(dir, "p.rec"))
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriter(rec)
	w := recordio.NewWriter(bw)
	var ix recordio.Index
	var imgs [][]byte
	var labels [][]float32
	for k := range n {
		p := photos[k%len(photos)]
		img := readFile(t, filepath.Join("testdata/photos", p.path))
		h := recordio.Header{Label: p.class, ID: uint64(k)}
		var ls []float32
		switch k {
		case 1:
			ls = []float32{p.class, 0.25, -1}
		case 2:
			img = binary.LittleEndian.AppendUint32(append([]byte("\xff\xd8\xff\xe0"), img[4:]...), recordio.Magic)
		}
		off, err := w.Write(recordio.Pack(nil, h, ls, img))
		if err != nil {
			t.Fatal(err)
		}
		ix = append(ix, recordio.Entry{Key: int64(k), Offset: off})
		imgs = append(imgs, img)
		if ls == nil {
			ls = []float32{p.class}
		}
		labels = append(labels, ls)
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	rec.Close()
	idx, err := os.Create(filepath.Join(dir, "p.idx"))
	if err != nil {
		t.Fatal(err)
	}
	ix.WriteTo(idx)
	idx.Close()
	return rec.Name(), imgs, labels
}

func TestOpenRecords(t *testing.T) {
	path, imgs, labels := packRecords(t, 12)
	for _, index := range []string{"", recordio.IndexPath(path)} {
		all, err := OpenRecords(path, index, All)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(labels, [][]float32(all.Y())); d != "" {
			t.Errorf("labels mismatch (-want +got):\n%s", d)
		}
		for i := range imgs {
			if !bytes.Equal(all.GetObs(i).X, imgs[i]) || all.Headers[i].ID != uint64(i) {
				t.Errorf("record %d: %d bytes, id %d; want the image of %d bytes, id %d", i, len(all.GetObs(i).X), all.Headers[i].ID, len(imgs[i]), i)
			}
		}
		if all.Headers[1].Flag != 3 || all.Headers[0].Flag != 0 {
			t.Errorf("flags %d, %d; want 0, 3", all.Headers[0].Flag, all.Headers[1].Flag)
		}
	}
	classes, err := OpenRecords(path, "", Class)
	if err != nil {
		t.Fatal(err)
	}
	// The kit's labeled tools take it unchanged.
	parts, err := subset.StratifiedSplit(classes, rand.New(rand.NewPCG(1, 2)), 0.5)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[int]int{}
	for _, l := range tuples.Labels(parts[0]) {
		counts[l]++
	}
	if d := cmp.Diff(map[int]int{0: 2, 1: 2, 2: 3}, counts); d != "" {
		t.Errorf("class counts of half a stratified split (-want +got):\n%s", d)
	}
	containertest.Run(t, classes, pairConfig[int]())

	// Reused batches allocate nothing.
	var batch [][]byte
	idx := []int{3, 1, 2, 0, 2}
	for range 2 {
		batch = classes.X().GetObsInto(batch, idx)
	}
	if a := testing.AllocsPerRun(20, func() { batch = classes.X().GetObsInto(batch, idx) }); a != 0 {
		t.Errorf("RecordImages.GetObsInto allocates %v times per batch, want 0", a)
	}
}

func TestOpenRecordsErrors(t *testing.T) {
	// Record 1 is too short for the labels its flag announces.
	var buf bytes.Buffer
	w := recordio.NewWriter(&buf)
	w.Write(recordio.Pack(nil, recordio.Header{Label: 1}, nil, []byte("img")))
	bad := recordio.Pack(nil, recordio.Header{}, []float32{1, 2}, nil)
	binary.LittleEndian.PutUint32(bad, 5)
	w.Write(bad)
	w.Write(recordio.Pack(nil, recordio.Header{Label: 2.5}, nil, []byte("img")))
	path := writeFile(t, "bad.rec", buf.String())
	_, err := OpenRecords(path, "", First)
	if !errors.Is(err, recordio.ErrFormat) || !strings.Contains(err.Error(), "bad.rec: record of key 1 at offset 36: recordio.Unpack: image record of 32 bytes: flag 5 announces 5 labels") {
		t.Errorf("a record shorter than its labels: %v", err)
	}
	// Without it, the label 2.5 is no class.
	buf.Reset()
	w = recordio.NewWriter(&buf)
	w.Write(recordio.Pack(nil, recordio.Header{Label: 1}, nil, []byte("img")))
	w.Write(recordio.Pack(nil, recordio.Header{Label: 2.5, ID: 8}, nil, []byte("img")))
	path = writeFile(t, "half.rec", buf.String())
	_, err = OpenRecords(path, "", Class)
	if !errors.Is(err, ErrLabel) || !strings.Contains(err.Error(), "half.rec: invalid label: record of key 1 at offset 36: imagedata.Class: label 2.5") {
		t.Errorf("a label 2.5 as a class: %v", err)
	}
	f, err := OpenRecords(path, "", First)
	if err != nil {
		t.Fatal(err)
	}
	// A record that is no image record fails when read: the header is fine
	// here, so damage the file's copy in a ReaderAt.
	short := recordio.Pack(nil, recordio.Header{}, nil, nil)[:10]
	buf.Reset()
	recordio.NewWriter(&buf).Write(short)
	rf, err := recordio.NewFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "short.rec", nil)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := recovered(func() { NewRecordImages(rf).GetObs(0) }).(error)
	if !errors.Is(e, ErrRead) || !errors.Is(e, recordio.ErrFormat) || !strings.Contains(e.Error(), "short.rec: cannot read image: record of key 0 at offset 0: recordio.ReadHeader: image record of 10 bytes") {
		t.Errorf("GetObs of a 10-byte record: %v, want ErrRead and recordio.ErrFormat naming the record", e)
	}
	_ = f
}

func recovered(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

// TestContainers runs the conformance checker over the folder and list
// containers, and checks that a missing file fails its read with ErrRead.
func TestContainers(t *testing.T) {
	folder, err := OpenFolder("testdata/photos", FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"cat", "cup", "person"}, folder.Classes); d != "" {
		t.Errorf("Classes mismatch (-want +got):\n%s", d)
	}
	containertest.Run(t, folder, pairConfig[int]())
	list, err := OpenList("testdata/photos.lst", "testdata/photos", Class)
	if err != nil {
		t.Fatal(err)
	}
	containertest.Run(t, list, pairConfig[int]())
	containertest.Run(t, list.X(), bytesConfig())
	var _ container.Batched[tuples.Pair[[]byte, int], tuples.Pair[[][]byte, []int]] = folder

	missing := NewFiles("testdata/photos", []string{"cat/chelsea.jpg", "dog/rex.jpg"})
	for _, read := range []func(){func() { missing.GetObs(1) }, func() { missing.GetObsInto(nil, []int{0, 1}) }} {
		e, _ := recovered(read).(error)
		if !errors.Is(e, ErrRead) || !errors.Is(e, fs.ErrNotExist) || !strings.Contains(e.Error(), "testdata/photos/dog/rex.jpg") {
			t.Errorf("read of a missing file: %v, want ErrRead and fs.ErrNotExist naming it", e)
		}
	}
}
