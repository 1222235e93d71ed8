package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/recordio"
)

const (
	im2rec = "testdata/im2rec/" // the golden files of testdata/im2rec/ref.py
	photos = "../../imagedata/testdata/photos"
)

// im2recTree makes the folder testdata/im2rec/tree.txt describes (each file
// holding its own path) and returns it.
func im2recTree(t *testing.T) string {
	t.Helper()
	names, err := os.ReadFile(im2rec + "tree.txt")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, rel := range strings.Fields(string(names)) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(rel), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	status, stdout, stderr := run(args...)
	if status != 0 {
		t.Fatalf("obskit %s: status %d: %s", strings.Join(args, " "), status, stderr)
	}
	return stdout
}

// TestRecPackList writes lists with im2rec's flags and compares them with the
// golden lists of the Python reference: the same walk, labels, shuffle
// (Python's Mersenne Twister), chunks and splits, byte for byte.
func TestRecPackList(t *testing.T) {
	root := im2recTree(t)
	for _, c := range []struct {
		dir   string
		flags []string
	}{
		{"flat", nil},
		{"flat-jpg-noshuffle", []string{"--no-shuffle", "--exts", ".jpg"}},
		{"recursive", []string{"--recursive"}},
		{"recursive-noshuffle", []string{"--recursive", "--shuffle=false"}},
		{"recursive-train", []string{"--recursive", "--train-ratio", "0.8"}},
		{"recursive-chunks", []string{"--recursive", "--chunks", "3", "--train-ratio", "0.6", "--test-ratio", "0.2"}},
		{"recursive-chunks-notrain", []string{"--recursive", "--chunks", "4", "--train-ratio", "0", "--test-ratio", "0.5"}},
	} {
		t.Run(c.dir, func(t *testing.T) {
			out := t.TempDir()
			args := append(append([]string{"rec", "pack", "--list"}, c.flags...), filepath.Join(out, "x"), root)
			stdout := mustRun(t, args...)
			want, _ := filepath.Glob(filepath.Join(im2rec, c.dir, "*.lst"))
			got, _ := filepath.Glob(filepath.Join(out, "*.lst"))
			base := func(ps []string) []string {
				for i, p := range ps {
					ps[i] = filepath.Base(p)
				}
				return ps
			}
			if d := cmp.Diff(base(slices.Clone(want)), base(slices.Clone(got))); d != "" {
				t.Fatalf("lists written mismatch (-python +go):\n%s", d)
			}
			for i := range want {
				w, g := readFile(t, want[i]), readFile(t, got[i])
				if d := cmp.Diff(string(w), string(g)); d != "" {
					t.Errorf("%s mismatch (-python +go):\n%s", filepath.Base(want[i]), d)
				}
			}
			// The classes, as JSON lines before the lists written.
			var classes strings.Builder
			dec := json.NewDecoder(strings.NewReader(stdout))
			for dec.More() {
				var line map[string]any
				if err := dec.Decode(&line); err != nil {
					t.Fatal(err)
				}
				if c, ok := line["class"]; ok {
					classes.WriteString(c.(string) + "\t" + strings.TrimSuffix(strings.TrimSuffix(jsonText(line["label"]), ".0"), "\n") + "\n")
				}
			}
			if d := cmp.Diff(string(readFile(t, filepath.Join(im2rec, c.dir, "classes.txt"))), classes.String()); d != "" {
				t.Errorf("classes mismatch (-python +go):\n%s", d)
			}
		})
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRecPackPassThrough packs the photos as they are, with and without
// --pack-label, serially and with three workers, and compares the .rec and
// .idx with the golden files of the Python reference, byte for byte.
func TestRecPackPassThrough(t *testing.T) {
	for _, c := range []struct {
		golden string
		flags  []string
	}{
		{"photos", nil},
		{"photos", []string{"--num-thread", "3"}},
		{"photos_labels", []string{"--pack-label"}},
		{"photos_labels", []string{"--pack-label", "--num-thread", "2"}},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "photos.lst"), readFile(t, im2rec+"photos.lst"), 0o644); err != nil {
			t.Fatal(err)
		}
		args := append(append([]string{"rec", "pack", "--pass-through"}, c.flags...), filepath.Join(dir, "photos"), photos)
		stdout := mustRun(t, args...)
		var w recWritten
		if err := json.Unmarshal([]byte(stdout), &w); err != nil {
			t.Fatal(err)
		}
		if w.Records != 4 || w.Skipped != 0 || w.Rec != filepath.Join(dir, "photos.rec") {
			t.Errorf("%v: %+v", c.flags, w)
		}
		for _, ext := range []string{".rec", ".idx"} {
			if !bytes.Equal(readFile(t, filepath.Join(dir, "photos"+ext)), readFile(t, im2rec+"pack/"+c.golden+ext)) {
				t.Errorf("%v: photos%s differs from the golden %s%s", c.flags, ext, c.golden, ext)
			}
		}
	}
}

// TestRecPackReencode packs the photos encoded again and checks each image:
// its size after --resize and --center-crop, its format and colors, its
// header.
func TestRecPackReencode(t *testing.T) {
	for _, c := range []struct {
		flags      []string
		size       func(w, h int) (int, int) // from the stored size
		format     imagecodec.Format
		components int
	}{
		{nil, func(w, h int) (int, int) { return w, h }, imagecodec.JPEG, 3},
		{[]string{"--resize", "24", "--num-thread", "2"}, func(w, h int) (int, int) {
			if h > w {
				return 24, h * 24 / w
			}
			return w * 24 / h, 24
		}, imagecodec.JPEG, 3},
		{[]string{"--center-crop", "--resize", "20"}, func(w, h int) (int, int) { return 20, 20 }, imagecodec.JPEG, 3},
		{[]string{"--center-crop"}, func(w, h int) (int, int) { return min(w, h), min(w, h) }, imagecodec.JPEG, 3},
		{[]string{"--color", "0", "--quality", "50"}, func(w, h int) (int, int) { return w, h }, imagecodec.JPEG, 1},
		{[]string{"--encoding", ".png"}, func(w, h int) (int, int) { return w, h }, imagecodec.PNG, 0},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "p.lst"), readFile(t, im2rec+"photos.lst"), 0o644)
		mustRun(t, append(append([]string{"rec", "pack"}, c.flags...), filepath.Join(dir, "p"), photos)...)
		list, _ := os.ReadFile(filepath.Join(dir, "p.lst"))
		f, err := recordio.Open(filepath.Join(dir, "p.rec"), filepath.Join(dir, "p.idx"))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(strings.TrimSpace(string(list)), "\n") {
			fields := strings.Split(line, "\t")
			orig := readFile(t, filepath.Join(photos, fields[len(fields)-1]))
			cfg, err := decoder.Config("orig", orig)
			if err != nil {
				t.Fatal(err)
			}
			h, labels, img, err := recordio.Unpack(f.GetObs(i), nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := decoder.Config("packed", img)
			if err != nil {
				t.Fatalf("%v: record %d does not decode: %v", c.flags, i, err)
			}
			w, hh := c.size(cfg.Width, cfg.Height)
			if got.Width != w || got.Height != hh || got.Format != c.format || c.components != 0 && got.Components != c.components {
				t.Errorf("%v: record %d: %v %dx%d with %d components, want %v %dx%d with %d", c.flags, i, got.Format, got.Width, got.Height, got.Components, c.format, w, hh, c.components)
			}
			if key := fields[0]; jsonText(h.ID) != key || f.Key(i) != int64(h.ID) || labels[0] != map[string]float32{"3": 2, "0": 0, "17": 1, "2": 2}[key] {
				t.Errorf("%v: record %d: id %d, key %d, labels %v for line %q", c.flags, i, h.ID, f.Key(i), labels, line)
			}
		}
	}
}

func TestRecPackErrors(t *testing.T) {
	dir := t.TempDir()
	lst := filepath.Join(dir, "p.lst")
	os.WriteFile(lst, []byte("0\t1\tcat/chelsea.jpg\n1\t2\tdog/rex.jpg\n2\t0\tcup/coffee.jpg\n"), 0o644)
	status, _, stderr := run("rec", "pack", "--pass-through", filepath.Join(dir, "p"), photos)
	if status != 1 || !strings.Contains(stderr, "p.lst: entry 2 of the list (index 1)") || !strings.Contains(stderr, "dog/rex.jpg") {
		t.Errorf("a missing image: status %d, %q", status, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "p.rec")); err == nil {
		t.Errorf("a failed pack left p.rec behind")
	}
	status, stdout, stderr := run("rec", "pack", "--skip-bad", filepath.Join(dir, "p"), photos)
	if status != 0 || !strings.Contains(stderr, "skipped dog/rex.jpg (index 1)") || !strings.Contains(stdout, `"records":2,"skipped":1`) {
		t.Errorf("--skip-bad: status %d, stdout %q, stderr %q", status, stdout, stderr)
	}
	// An image that does not decode, encoded again.
	os.WriteFile(lst, []byte("0\t1\tcat/chelsea.jpg\n7\t1\t../photos.lst\n"), 0o644)
	status, _, stderr = run("rec", "pack", filepath.Join(dir, "p"), photos)
	if status != 1 || !strings.Contains(stderr, "entry 2 of the list (index 7)") || !strings.Contains(stderr, "photos.lst") {
		t.Errorf("an image that does not decode: status %d, %q", status, stderr)
	}
	os.WriteFile(lst, []byte("4\t1\tcat/chelsea.jpg\n5\t1\tcup/coffee.jpg\n4\t0\tcat/chelsea.jpg\n"), 0o644)
	status, _, stderr = run("rec", "pack", "--pass-through", filepath.Join(dir, "p"), photos)
	if status != 1 || !strings.Contains(stderr, "p.lst: entries 1 and 3 have the same index 4") {
		t.Errorf("a list with an index twice: status %d, %q", status, stderr)
	}
	os.WriteFile(lst, []byte("0\t1\tcat/chelsea.jpg\nzero\t1\tx.jpg\n"), 0o644)
	status, _, stderr = run("rec", "pack", filepath.Join(dir, "p"), photos)
	if status != 1 || !strings.Contains(stderr, "p.lst: malformed .lst file: line 2: index \"zero\"") {
		t.Errorf("a bad list line: status %d, %q", status, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{filepath.Join(dir, "none"), photos}, "no list file"},
		{[]string{"--color", "-1", filepath.Join(dir, "p"), photos}, "--color -1"},
		{[]string{"--train-ratio", "2", "--list", filepath.Join(dir, "p"), photos}, "--train-ratio 2"},
		{[]string{"--quality", "0", filepath.Join(dir, "p"), photos}, "--quality 0"},
		{[]string{filepath.Join(dir, "p")}, "want PREFIX and ROOT"},
		{[]string{filepath.Join(dir, "p"), photos, "extra"}, "want PREFIX and ROOT, got 3 arguments"},
	} {
		status, _, stderr := run(append([]string{"rec", "pack"}, c.args...)...)
		if status == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("rec pack %v: status %d, %q; want an error saying %q", c.args, status, stderr, c.want)
		}
	}
}

// golden is a record of recordio's testdata/golden.json.
type golden struct {
	Key         int64     `json:"key"`
	Offset      int64     `json:"offset"`
	Bytes       int       `json:"bytes"`
	SHA256      string    `json:"sha256"`
	Flag        uint32    `json:"flag"`
	Label       []float32 `json:"label"`
	ID          uint64    `json:"id"`
	ID2         uint64    `json:"id2"`
	ImageSHA256 string    `json:"image_sha256"`
}

const recordioData = "../../recordio/testdata/"

// TestRecLs lists the golden files of package recordio and compares each line
// with what their independent writer says they hold.
func TestRecLs(t *testing.T) {
	var manifest map[string][]golden
	if err := json.Unmarshal(readFile(t, recordioData+"golden.json"), &manifest); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file string
		raw  bool
	}{{"images", false}, {"images", true}, {"raw", true}} {
		args := []string{"rec", "ls", recordioData + c.file + ".rec"}
		if c.raw {
			args = []string{"rec", "ls", "--raw", recordioData + c.file + ".rec"}
		}
		sc := bufio.NewScanner(strings.NewReader(mustRun(t, args...)))
		for _, g := range manifest[c.file] {
			if !sc.Scan() {
				t.Fatalf("%v: fewer lines than records", args)
			}
			var got map[string]any
			if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			want := map[string]any{"key": float64(g.Key), "offset": float64(g.Offset), "bytes": float64(g.Bytes), "sha256": g.SHA256}
			if !c.raw {
				var label []any
				for _, l := range g.Label {
					label = append(label, float64(l))
				}
				sum, _ := hex.DecodeString(g.ImageSHA256)
				want = map[string]any{"key": float64(g.Key), "offset": float64(g.Offset), "flag": float64(g.Flag), "label": label,
					"id": float64(g.ID), "id2": float64(g.ID2), "bytes": got["bytes"], "sha256": hex.EncodeToString(sum)}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%v: record at %d mismatch (-want +got):\n%s", args, g.Offset, d)
			}
		}
		if sc.Scan() {
			t.Errorf("%v: more lines than records: %s", args, sc.Text())
		}
	}
	// Not image records, a corrupt file, an index offset inside a record.
	status, _, stderr := run("rec", "ls", recordioData+"raw.rec")
	if status != 1 || !strings.Contains(stderr, "raw.rec: record 0 at offset 0: recordio.Unpack: image record of 8 bytes") || !strings.Contains(stderr, "--raw") {
		t.Errorf("ls of records that are not images: status %d, %q", status, stderr)
	}
	dir := t.TempDir()
	b := readFile(t, recordioData+"raw.rec")
	os.WriteFile(filepath.Join(dir, "cut.rec"), b[:1000], 0o644)
	status, _, stderr = run("rec", "ls", "--raw", filepath.Join(dir, "cut.rec"))
	if status != 1 || !strings.Contains(stderr, "cut.rec: malformed RecordIO file: offset 388") {
		t.Errorf("ls of a cut file: status %d, %q", status, stderr)
	}
	os.WriteFile(filepath.Join(dir, "raw.rec"), b, 0o644)
	os.WriteFile(filepath.Join(dir, "raw.idx"), []byte("0\t0\n1\t20\n"), 0o644)
	status, _, stderr = run("rec", "ls", "--raw", filepath.Join(dir, "raw.rec"))
	if status != 1 || !strings.Contains(stderr, "raw.idx: malformed RecordIO file: key 1: offset 20 is not the start of a record") {
		t.Errorf("ls with an index offset inside a record: status %d, %q", status, stderr)
	}
	// Records the index does not list have a null key.
	os.WriteFile(filepath.Join(dir, "raw.idx"), []byte("7\t16\n"), 0o644)
	out := mustRun(t, "rec", "ls", "--raw", filepath.Join(dir, "raw.rec"))
	if lines := strings.Split(out, "\n"); !strings.HasPrefix(lines[0], `{"key":null,"offset":0,`) || !strings.HasPrefix(lines[1], `{"key":7,"offset":16,`) {
		t.Errorf("ls with a partial index: %s", out)
	}
}

// TestRecIndex rebuilds the index of a packed file and of raw records.
func TestRecIndex(t *testing.T) {
	dir := t.TempDir()
	for _, ext := range []string{".rec", ".idx"} {
		os.WriteFile(filepath.Join(dir, "p"+ext), readFile(t, im2rec+"pack/photos_labels"+ext), 0o644)
	}
	status, _, stderr := run("rec", "index", filepath.Join(dir, "p.rec"))
	if status != 1 || !strings.Contains(stderr, "p.idx exists: -f replaces it") {
		t.Errorf("index over an existing file: status %d, %q", status, stderr)
	}
	out := mustRun(t, "rec", "index", "-f", filepath.Join(dir, "p.rec"))
	if !strings.Contains(out, `"records":4`) || !bytes.Equal(readFile(t, filepath.Join(dir, "p.idx")), readFile(t, im2rec+"pack/photos_labels.idx")) {
		t.Errorf("the rebuilt index differs from im2rec's: %s", readFile(t, filepath.Join(dir, "p.idx")))
	}
	mustRun(t, "rec", "index", "--raw", "-o", filepath.Join(dir, "raw.idx"), recordioData+"raw.rec")
	ix, err := recordio.LoadIndex(filepath.Join(dir, "raw.idx"))
	if err != nil || len(ix) != 17 || ix[16] != (recordio.Entry{Key: 16, Offset: 3292}) {
		t.Errorf("raw index: %v, %v", ix, err)
	}
	status, _, stderr = run("rec", "index", "-o", filepath.Join(dir, "i.idx"), recordioData+"images.rec")
	if status != 1 || !strings.Contains(stderr, "id 18446744073709551615 is too large for a key") {
		t.Errorf("an id too large for a key: status %d, %q", status, stderr)
	}
}
