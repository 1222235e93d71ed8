package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/recordio"
	"github.com/obskit/obskit/shard/wds"
)

// folder writes an image folder of classes a and b, n PNGs each, and
// returns its path and the images' bytes in ImageFolder's order.
func folder(t *testing.T, n int) (string, [][]byte) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "images")
	var imgs [][]byte
	for _, class := range []string{"a", "b"} {
		os.MkdirAll(filepath.Join(root, class), 0o777)
		for i := range n {
			m := image.NewRGBA(image.Rect(0, 0, 4+i, 3))
			m.Set(1, 1, color.RGBA{R: uint8(i), G: class[0], A: 255})
			var buf bytes.Buffer
			png.Encode(&buf, m)
			os.WriteFile(filepath.Join(root, class, strings.Repeat("x", i+1)+".png"), buf.Bytes(), 0o666)
			imgs = append(imgs, buf.Bytes())
		}
	}
	return root, imgs
}

// lsLines runs obskit shard ls and returns its lines.
func lsLines(t *testing.T, path string) []lsSample {
	t.Helper()
	status, stdout, stderr := run("shard", "ls", path)
	if status != 0 {
		t.Fatalf("shard ls %s: status %d: %s", path, status, stderr)
	}
	var out []lsSample
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var s lsSample
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		out = append(out, s)
	}
	return out
}

func hexSum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestShardWriteLs: an image folder packed into tar shards of 1 KiB lists
// its images with their classes, through the manifest and shard by shard;
// verify passes; the same folder in two writers and a commit lists the same.
func TestShardWriteLs(t *testing.T) {
	root, imgs := folder(t, 5)
	out := filepath.Join(t.TempDir(), "set")
	status, stdout, stderr := run("shard", "write", root, "-o", filepath.Join(out, "m.json"), "-size", "1K")
	if status != 0 {
		t.Fatalf("shard write: status %d: %s", status, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var sum manifestSummary
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil || sum.Samples != 10 || sum.Shards != len(lines)-1 || sum.Shards < 3 || sum.Label != "cls" {
		t.Fatalf("shard write printed %q (%v)", stdout, err)
	}
	got := lsLines(t, filepath.Join(out, "m.json"))
	if len(got) != len(imgs) {
		t.Fatalf("shard ls: %d samples, want %d", len(got), len(imgs))
	}
	for i, s := range got {
		cls := "0"
		if i >= 5 {
			cls = "1"
		}
		if s.Key != "00000"+string(rune('0'+i)) || s.Fields["png"] != (lsField{int64(len(imgs[i])), hexSum(imgs[i])}) || s.Fields["cls"] != (lsField{1, hexSum([]byte(cls))}) || len(s.Fields) != 2 {
			t.Errorf("sample %d: %+v", i, s)
		}
	}
	// Shard by shard, the same lines.
	var each []lsSample
	for _, line := range lines[:len(lines)-1] {
		var sh struct{ Shard string }
		json.Unmarshal([]byte(line), &sh)
		each = append(each, lsLines(t, sh.Shard)...)
	}
	if !equalLs(each, got) {
		t.Errorf("the shards listed one by one differ from the manifest's listing")
	}
	if status, stdout, stderr := run("shard", "verify", filepath.Join(out, "m.json")); status != 0 || !strings.Contains(stdout, `"failed":0`) {
		t.Errorf("shard verify: status %d, %s %s", status, stdout, stderr)
	}

	// Two writers, then commit.
	two := filepath.Join(t.TempDir(), "two")
	for _, w := range []string{"1", "0"} {
		if status, _, stderr := run("shard", "write", "-writer", w, "-writers", "2", "-o", filepath.Join(two, "m.json"), "-prefix", "p/s", root); status != 0 {
			t.Fatalf("writer %s: %s", w, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(two, "m.json")); err == nil {
		t.Error("a writer of two wrote the manifest")
	}
	if status, _, stderr := run("shard", "commit", "-writers", "2", "-prefix", "p/s", filepath.Join(two, "m.json")); status != 0 {
		t.Fatalf("shard commit: %s", stderr)
	}
	if !equalLs(lsLines(t, filepath.Join(two, "m.json")), got) {
		t.Error("two writers list other samples than one")
	}
}

func equalLs(a, b []lsSample) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key != b[i].Key || len(a[i].Fields) != len(b[i].Fields) {
			return false
		}
		for k, v := range a[i].Fields {
			if b[i].Fields[k] != v {
				return false
			}
		}
	}
	return true
}

// TestShardWriteArrays: a .npy file of rows and a .npy of labels packed as
// tar and as .npy shards list the rows as .npy fields beside their labels.
func TestShardWriteArrays(t *testing.T) {
	dir := t.TempDir()
	x, _ := arraycontainer.New([]float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, []int{4, 3}, obsdim.First)
	y, _ := arraycontainer.New([]int64{3, 1, 4, 1}, []int{4}, obsdim.First)
	npy.Save(filepath.Join(dir, "x.npy"), x)
	npy.Save(filepath.Join(dir, "y.npy"), y)
	for _, format := range []string{"tar", "npy", "recordio"} {
		m := filepath.Join(dir, format, "m.json")
		if status, _, stderr := run("shard", "write", "-format", format, "-size", "100", "-y", filepath.Join(dir, "y.npy"), "-o", m, filepath.Join(dir, "x.npy")); status != 0 {
			t.Fatalf("%s: %s", format, stderr)
		}
		got := lsLines(t, m)
		if len(got) != 4 {
			t.Fatalf("%s: %d samples", format, len(got))
		}
		for i, s := range got {
			var row bytes.Buffer
			npy.Write(&row, x.GetObs(i))
			if s.Fields["x.npy"] != (lsField{int64(row.Len()), hexSum(row.Bytes())}) {
				t.Errorf("%s: sample %d: x.npy %+v, want the row's .npy", format, i, s.Fields["x.npy"])
			}
			label := "cls"
			if format == "npy" {
				label = "cls.npy"
			}
			if _, ok := s.Fields[label]; !ok || len(s.Fields) != 2 {
				t.Errorf("%s: sample %d: fields %v", format, i, s.Fields)
			}
		}
	}
}

// TestShardLsBroken: a tar shard cut inside a member, or with a bad header,
// is exit status 1 and a message naming the shard and the offset; a .tar.gz
// lists as the .tar; index makes a set of shards another tool wrote.
func TestShardLsBroken(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	w := wds.NewWriter(&buf)
	for _, k := range []string{"a", "b", "c"} {
		w.WriteSample(k, func(yield func(string, []byte) bool) {
			_ = yield("txt", bytes.Repeat([]byte(k), 700)) && yield("cls", []byte("7"))
		})
	}
	w.Close()
	tarb := buf.Bytes()
	os.WriteFile(filepath.Join(dir, "ok.tar"), tarb, 0o666)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(tarb)
	zw.Close()
	os.WriteFile(filepath.Join(dir, "ok.tar.gz"), z.Bytes(), 0o666)
	if a, b := lsLines(t, filepath.Join(dir, "ok.tar")), lsLines(t, filepath.Join(dir, "ok.tar.gz")); len(a) != 3 || !equalLs(a, b) {
		t.Errorf("the .tar and the .tar.gz list %v and %v", a, b)
	}
	os.WriteFile(filepath.Join(dir, "cut.tar"), tarb[:3000], 0o666)
	bad := bytes.Clone(tarb)
	bad[2560+100]++ // the header of b.txt
	os.WriteFile(filepath.Join(dir, "bad.tar"), bad, 0o666)
	for name, off := range map[string]string{"cut.tar": "offset", "bad.tar": "offset 2560"} {
		status, stdout, stderr := run("shard", "ls", filepath.Join(dir, name))
		if status != 1 || !strings.Contains(stderr, name) || !strings.Contains(stderr, off) {
			t.Errorf("shard ls %s: status %d, stderr %q; want 1 naming the shard and %q", name, status, stderr, off)
		}
		if name == "bad.tar" && strings.Count(stdout, "\n") != 1 {
			t.Errorf("shard ls %s: the samples before the bad header: %q", name, stdout)
		}
	}

	// index, then verify; then a flipped byte fails verify naming the shard.
	m := filepath.Join(dir, "m.json")
	if status, stdout, stderr := run("shard", "index", "-o", m, filepath.Join(dir, "ok.tar"), filepath.Join(dir, "ok.tar.gz")); status != 0 || !strings.Contains(stdout, `"samples":6`) {
		t.Fatalf("shard index: %d %s %s", status, stdout, stderr)
	}
	if got := lsLines(t, m); len(got) != 6 {
		t.Errorf("shard ls of the indexed set: %d samples", len(got))
	}
	flipped := bytes.Clone(tarb)
	flipped[600]++
	os.WriteFile(filepath.Join(dir, "ok.tar"), flipped, 0o666)
	status, stdout, stderr := run("shard", "verify", m)
	if status != 1 || !strings.Contains(stdout, `"shard":`) || !strings.Contains(stdout, "ok.tar") || !strings.Contains(stderr, "1 of 2 shards failed") {
		t.Errorf("shard verify of a damaged shard: status %d, %s, %s", status, stdout, stderr)
	}
}

// TestShardWriteInputs: a CSV file with a target column, an IDX pair (MNIST's
// layout) and a .rec of image records are packed with their labels, each
// sample's data the .npy of its row (float32 for the CSV, uint8 for the IDX
// file) or its record's image, byte for byte.
func TestShardWriteInputs(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "t.csv"), []byte("a,b,label\n1,2,0\n3,4,1\n5,6,1\n"), 0o666)
	images := []byte{0, 0, 8, 3, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 2}
	for i := range 12 {
		images = append(images, byte(i))
	}
	os.WriteFile(filepath.Join(dir, "images-idx3-ubyte"), images, 0o666)
	os.WriteFile(filepath.Join(dir, "labels-idx1-ubyte"), []byte{0, 0, 8, 1, 0, 0, 0, 3, 7, 8, 9}, 0o666)
	_, imgs := folder(t, 2)
	var rec bytes.Buffer
	w := recordio.NewWriter(&rec)
	for i, img := range imgs {
		w.Write(recordio.Pack(nil, recordio.Header{Label: float32(i % 3), ID: uint64(i)}, nil, img))
	}
	os.WriteFile(filepath.Join(dir, "i.rec"), rec.Bytes(), 0o666)
	// What each sample's data field must hold: a .npy of its row (float32
	// for a CSV, uint8 for the IDX file), the record's image.
	npyOf := func(a any) [][]byte {
		var rows [][]byte
		switch a := a.(type) {
		case *arraycontainer.Array[float32]:
			for i := range a.Nobs() {
				var b bytes.Buffer
				npy.Write(&b, a.GetObs(i))
				rows = append(rows, b.Bytes())
			}
		case *arraycontainer.Array[uint8]:
			for i := range a.Nobs() {
				var b bytes.Buffer
				npy.Write(&b, a.GetObs(i))
				rows = append(rows, b.Bytes())
			}
		}
		return rows
	}
	csvX, _ := arraycontainer.New([]float32{1, 2, 3, 4, 5, 6}, []int{3, 2}, obsdim.First)
	idxX, _ := arraycontainer.New(images[16:], []int{3, 2, 2}, obsdim.First)
	for _, tc := range []struct {
		args   []string
		n      int
		fields []string
		labels []string
		data   [][]byte // the first field's bytes, sample by sample
	}{
		{[]string{"-target", "label", filepath.Join(dir, "t.csv")}, 3, []string{"x.npy", "cls"}, []string{"0", "1", "1"}, npyOf(csvX)},
		{[]string{"-y", filepath.Join(dir, "labels-idx1-ubyte"), filepath.Join(dir, "images-idx3-ubyte")}, 3, []string{"x.npy", "cls"}, []string{"7", "8", "9"}, npyOf(idxX)},
		{[]string{filepath.Join(dir, "i.rec")}, 4, []string{"png", "cls"}, []string{"0", "1", "2", "0"}, imgs},
	} {
		m := filepath.Join(t.TempDir(), "m.json")
		if status, _, stderr := run(append([]string{"shard", "write", "-o", m}, tc.args...)...); status != 0 {
			t.Fatalf("shard write %v: %s", tc.args, stderr)
		}
		got := lsLines(t, m)
		if len(got) != tc.n {
			t.Fatalf("%v: %d samples", tc.args, len(got))
		}
		for i, s := range got {
			for _, f := range tc.fields {
				if _, ok := s.Fields[f]; !ok || len(s.Fields) != len(tc.fields) {
					t.Errorf("%v: sample %d: fields %v, want %v", tc.args, i, s.Fields, tc.fields)
				}
			}
			if s.Fields["cls"].SHA256 != hexSum([]byte(tc.labels[i])) {
				t.Errorf("%v: sample %d: cls is not %s", tc.args, i, tc.labels[i])
			}
			if want := (lsField{int64(len(tc.data[i])), hexSum(tc.data[i])}); s.Fields[tc.fields[0]] != want {
				t.Errorf("%v: sample %d: %s is %+v, want %+v", tc.args, i, tc.fields[0], s.Fields[tc.fields[0]], want)
			}
		}
	}
	// A folder as .npy shards is refused: images are not arrays.
	root, _ := folder(t, 1)
	if status, _, stderr := run("shard", "write", "-format", "npy", "-o", filepath.Join(dir, "x", "m.json"), root); status != 2 || !strings.Contains(stderr, "not arrays") {
		t.Errorf("images as npy shards: status %d, %s", status, stderr)
	}
}
