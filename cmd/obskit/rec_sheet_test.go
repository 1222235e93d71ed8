package main

import (
	"encoding/json"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/mxnet"
)

const photosRec = "../../imagedata/testdata/photos.rec"

// TestIterParams: every flag of the iterator's parameters is a name
// ImageRecordIter.Set takes, with a value of its kind.
func TestIterParams(t *testing.T) {
	samples := map[string]string{"data_shape": "3,20,30", "path_imgidx": "x.idx", "path_imglist": "x.lst", "mean_img": ""}
	for _, p := range iterParams {
		v, ok := samples[p.name]
		switch {
		case ok:
		case p.bool:
			v = "True"
		default:
			v = "2"
		}
		if p.name == "mean_img" {
			continue // a file of the data shape: TestRecSheet's denormalization does not use one
		}
		it := mxnet.NewImageRecordIter("x.rec", [3]int{3, 20, 30}, 1)
		if err := it.Set(p.name, v); err != nil {
			t.Errorf("--%s: Set(%q, %q): %v", p.name, p.name, v, err)
		}
		if !strings.Contains(p.help, "`") && !p.bool {
			t.Errorf("--%s: the help names no `value`", p.name)
		}
	}
}

func TestRecSheet(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "sheet.png")
	// No augmentation, MXNet's identity normalization but a mean and std
	// to undo: each tile is the centre crop of the photo.
	status, stdout, stderr := run("rec", "sheet", "--n", "3", "--seed", "5", "--data_shape", "3,40,48",
		"--mean_r", "100", "--std_g", "3", "--scale", "0.5", photosRec, out)
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	var tiles []sheetTile
	dec := json.NewDecoder(strings.NewReader(stdout))
	for dec.More() {
		var tl sheetTile
		if err := dec.Decode(&tl); err != nil {
			t.Fatal(err)
		}
		tiles = append(tiles, tl)
	}
	if len(tiles) != 3 {
		t.Fatalf("%d JSON lines, want 3:\n%s", len(tiles), stdout)
	}
	// The list of photos.rec: key k holds photo k of the list, its label.
	photos := []string{"person/astronaut.jpg", "cat/chelsea.jpg", "cup/coffee.jpg", "person/camera.jpg"}
	labels := []float32{2, 0, 1, 2}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sheet, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := sheet.Bounds().Size(); got != image.Pt(2+2*(48+2), 2+2*(40+2)) {
		t.Errorf("sheet of %v, want 2 x 2 tiles of 48 x 40 with 2-pixel gaps", got)
	}
	dec2 := turbo.New(imagecodec.Options{})
	center := augment.New(augment.HWC, mxnet.NewAugmenter(3, 40, 48).Step()) // MXNet's centre crop, values 0-255
	seen := map[int]bool{}
	for k, tl := range tiles {
		if tl.Tile != k || tl.Row != k/2 || tl.Col != k%2 || int64(tl.Index) != tl.Key || seen[tl.Index] {
			t.Errorf("tile %d: %+v", k, tl)
		}
		seen[tl.Index] = true
		if diff := cmp.Diff([]jsonFloat{jsonFloat(labels[tl.Index])}, tl.Label); diff != "" {
			t.Errorf("tile %d: label mismatch (-want +got):\n%s", k, diff)
		}
		data, err := os.ReadFile(filepath.Join("../../imagedata/testdata/photos", photos[tl.Index]))
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float32, center.Len())
		if err := center.Apply(want, dec2, "photo", data, rand.New(rand.NewPCG(0, 0))); err != nil {
			t.Fatal(err)
		}
		at := image.Pt(2+tl.Col*50, 2+tl.Row*42)
		bad := 0
		for y := range 40 {
			for x := range 48 {
				r, g, b, _ := sheet.At(at.X+x, at.Y+y).RGBA()
				got := [3]uint32{r >> 8, g >> 8, b >> 8}
				for c := range 3 {
					w := want[(y*48+x)*3+c]
					if d := float32(got[c]) - w; d > 0.5 || d < -0.5 {
						bad++
					}
				}
			}
		}
		if bad > 0 {
			t.Errorf("tile %d (image %d): %d values off the photo's centre crop", k, tl.Index, bad)
		}
	}
}

func TestRecSheetErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"rec", "sheet", photosRec}, 2, "want FILE.rec and OUT.png"},
		{[]string{"rec", "sheet", "--n", "0", photosRec, "x.png"}, 2, "--n 0"},
		{[]string{"rec", "sheet", "--max_rotate_angle", "ten", photosRec, "x.png"}, 2, "--max_rotate_angle"},
		{[]string{"rec", "sheet", "--data_shape", "1,10,10", photosRec, filepath.Join(dir, "x.png")}, 2, "3 channels"},
		{[]string{"rec", "sheet", "--min_crop_size", "30", "--max_crop_size", "20", photosRec, filepath.Join(dir, "x.png")}, 2, "min_crop_size"},
		{[]string{"rec", "sheet", "--inter_method", "5", photosRec, filepath.Join(dir, "x.png")}, 2, "inter_method"},
		{[]string{"rec", "sheet", "--mean_img", filepath.Join(dir, "none.npy"), photosRec, filepath.Join(dir, "x.png")}, 2, "--mean_img"},
		{[]string{"rec", "bench", "--label_width", "0", photosRec}, 2, "label_width"},
		{[]string{"rec", "bench", "--label_width", "2", photosRec}, 1, "label_width"},
		{[]string{"rec", "sheet", filepath.Join(dir, "missing.rec"), filepath.Join(dir, "x.png")}, 1, "missing.rec"},
		{[]string{"rec", "bench", "--workers", "0", photosRec}, 2, "--workers"},
	} {
		status, _, stderr := run(tc.args...)
		if status != tc.status || !strings.Contains(stderr, tc.want) {
			t.Errorf("obskit %s: status %d, %q; want %d and %q", strings.Join(tc.args, " "), status, stderr, tc.status, tc.want)
		}
	}
}

func TestRecBench(t *testing.T) {
	status, stdout, stderr := run("rec", "bench", "--batch", "2", "--workers", "1,2", "--seconds", "0.01", "--data_shape", "3,16,16", "--rand_crop", photosRec)
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	var got []benchResult
	dec := json.NewDecoder(strings.NewReader(stdout))
	for dec.More() {
		var r benchResult
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if len(got) != 3 || got[0].What != "decode" || got[1].What != "loader" || got[1].Workers != 1 || got[2].Workers != 2 {
		t.Fatalf("results %+v, want decode, then the loader with 1 and 2 workers", got)
	}
	for _, r := range got {
		if r.Images < 4 || r.Images%4 != 0 || r.PerSecond <= 0 || r.Decoder != decoderName(imagecodec.JPEG) {
			t.Errorf("result %+v: want whole passes over the 4 images", r)
		}
	}
}
