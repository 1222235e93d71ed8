package imagedata

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/internal/bombtest"
)

// bombFolder returns a folder per class: class "a" holds a good photo, the
// bomb b as image 1, and two good photos; class "b" one good photo.
func bombFolder(t *testing.T, b bombtest.Bomb) *Folder {
	t.Helper()
	root := t.TempDir()
	good := readFile(t, "testdata/photos/cat/chelsea.jpg")
	files := map[string][]byte{"a/0.jpg": good, "a/1_" + b.Name: b.Data, "a/2.jpg": good, "a/3.jpg": good, "b/0.jpg": good}
	for name, data := range files {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := OpenFolder(root, FolderOptions{Extensions: append([]string{".gif"}, Extensions...)})
	if err != nil {
		t.Fatal(err)
	}
	if data.Nobs() != 5 || !strings.Contains(data.X().Path(1), b.Name) {
		t.Fatalf("the folder holds %d images, image 1 is %s: want 5, the bomb 1", data.Nobs(), data.X().Path(1))
	}
	return data
}

// TestDecodeBombs: a bomb of bombtest (PNG of 100000x100000 and 50000x50000,
// JPEG and GIF of 65535x65535, WebP of 16384x16384 and 16383x16383) among
// good photos, in a folder and in a RecordIO file, is refused from its
// header with imagecodec.ErrTooLarge, with the address space capped 512 MiB
// above the test's: a read panics with ErrRead naming the file, SkipBad
// skips it (the loops with 2 workers run every epoch). Package mxnet's
// TestImageRecordIterBombs does the same through ImageRecordIter.
func TestDecodeBombs(t *testing.T) {
	for _, b := range bombtest.All() {
		t.Run(b.Name, func(t *testing.T) {
			bombtest.Capped(t, func(t *testing.T) {
				folder := bombFolder(t, b)
				records, err := OpenRecords(packRecordsOf(t, folder), "", Class)
				if err != nil {
					t.Fatal(err)
				}
				p := smallCrop(t, augment.CHW)
				tooLarge := func(what string, err error, file string) {
					t.Helper()
					if !errors.Is(err, ErrRead) || !errors.Is(err, imagecodec.ErrTooLarge) || !strings.Contains(err.Error(), file) {
						t.Errorf("%s: %v, want an error wrapping ErrRead and imagecodec.ErrTooLarge naming %s", what, err, file)
					}
				}
				for name, data := range map[string]*Decoded[int]{
					"folder":  Decode(folder, p, testDecoder),
					"records": Decode(records, p, testDecoder),
				} {
					file := folder.X().Path(1)
					if name == "records" {
						file = records.X().File().Name()
					}
					tooLarge(name+": GetObs(1)", panicked(func() { data.GetObs(1) }), file)
					err := panicked(func() {
						for range eachobs.Batches(data, 2, eachobs.Workers(2)) {
						}
					})
					var pe *container.PanicError
					if !errors.As(err, &pe) {
						t.Errorf("%s: a loop panics with %v, want a *container.PanicError", name, err)
					}
					tooLarge(name+": a loop", err, file)

					var skips Skips
					skipping := Decode(folder, p, testDecoder, SkipBad(&skips))
					if name == "records" {
						skipping = Decode(records, p, testDecoder, SkipBad(&skips))
					}
					for e := range 2 {
						n := 0
						for bt := range eachobs.NewLoader(skipping, 2, eachobs.Shuffle(7), eachobs.Workers(2)).Epoch(e) {
							n += bt.Real
						}
						if n != 5 {
							t.Errorf("%s with SkipBad: epoch %d served %d images, want 5", name, e, n)
						}
					}
					got := skips.Images()
					if skips.Count() != 2 || len(got) != 1 || got[0].Index != 1 || got[0].With != 2 {
						t.Fatalf("%s with SkipBad: %d skips, %+v: want image 1 (with 2) in each of 2 epochs", name, skips.Count(), got)
					}
					tooLarge(name+": the skip", got[0].Err, file)
				}
			})
		})
	}
}
