package main

import (
	"bufio"
	"bytes"
	"errors"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/internal/bombtest"
	"github.com/obskit/obskit/recordio"
)

// packBomb writes a .rec of the photos of imagedata's testdata with the bomb
// b as record at (of 5), each record's key its position, and returns its
// path.
func packBomb(t *testing.T, b bombtest.Bomb, at int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bomb.rec")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	w := recordio.NewWriter(bw)
	photos := []string{"cat/chelsea.jpg", "cup/coffee.jpg", "person/astronaut.jpg", "person/camera.jpg"}
	for k := range 5 {
		var img []byte
		switch {
		case k == at:
			img = b.Data
		default:
			img = readFile(t, filepath.Join("../../imagedata/testdata/photos", photos[k%4]))
		}
		if _, err := w.Write(recordio.Pack(nil, recordio.Header{Label: float32(k % 3), ID: uint64(k)}, nil, img)); err != nil {
			t.Fatal(err)
		}
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBombs: the commands that decode an image refuse each bomb of
// bombtest (PNG of 100000x100000 and 50000x50000, JPEG and GIF of
// 65535x65535, WebP of 16384x16384 and 16383x16383) with exit status 1 and
// a message naming the file and saying the image is too large, with the
// address space capped 512 MiB above the test's: image decode and image
// eval of the bomb's file, rec pack of a list holding it (--skip-bad skips
// it), rec sheet and rec bench of a .rec of 5 records with the bomb first or
// third among the photos.
func TestBombs(t *testing.T) {
	for _, b := range bombtest.All() {
		t.Run(b.Name, func(t *testing.T) {
			bombtest.Capped(t, func(t *testing.T) {
				dir := t.TempDir()
				file := filepath.Join(dir, b.Name)
				if err := os.WriteFile(file, b.Data, 0o644); err != nil {
					t.Fatal(err)
				}
				out := filepath.Join(dir, "out")
				check := func(file string, args ...string) {
					t.Helper()
					status, _, stderr := run(args...)
					if status != 1 || !strings.Contains(stderr, file) || !strings.Contains(stderr, "image too large") {
						t.Errorf("obskit %s: status %d, stderr %q; want 1 and a message naming %s and saying image too large",
							strings.Join(args, " "), status, stderr, file)
					}
					if _, err := os.Stat(out); err == nil {
						t.Errorf("obskit %s: wrote %s", strings.Join(args, " "), out)
					}
				}
				check(file, "image", "decode", file, out)
				check(file, "image", "eval", "--resize", "256", "--crop", "224", file, out)
				check(file, "image", "eval", "--crop", "224", "--exif", file, out)
				// rec pack decodes to encode again: the bomb stops it, or is
				// skipped with --skip-bad.
				root := filepath.Join(dir, "root")
				if err := os.MkdirAll(root, 0o755); err != nil {
					t.Fatal(err)
				}
				for name, data := range map[string][]byte{"chelsea.jpg": readFile(t, filepath.Join(photos, "cat/chelsea.jpg")), b.Name: b.Data} {
					if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				prefix := filepath.Join(dir, "p")
				if err := os.WriteFile(prefix+".lst", []byte("0\t0\tchelsea.jpg\n1\t1\t"+b.Name+"\n2\t0\tchelsea.jpg\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				check(b.Name, "rec", "pack", prefix, root)
				status, stdout, stderr := run("rec", "pack", "--skip-bad", "--resize", "32", prefix, root)
				if status != 0 || !strings.Contains(stderr, "skipped "+b.Name+" (index 1)") || !strings.Contains(stderr, "image too large") ||
					!strings.Contains(stdout, `"records":2,"skipped":1`) {
					t.Errorf("rec pack --skip-bad: status %d, stdout %q, stderr %q; want 0, the bomb skipped as too large, 2 records", status, stdout, stderr)
				}
				for _, at := range []int{0, 2} {
					rec := packBomb(t, b, at)
					check(rec, "rec", "sheet", "--n", "5", "--data_shape", "3,40,48", rec, out)
					check(rec, "rec", "sheet", "--n", "5", "--data_shape", "3,40,48", "--rand_crop", "--max_rotate_angle", "10", rec, out)
					check(rec, "rec", "bench", "--batch", "2", "--workers", "1,2", "--seconds", "0.01", "--data_shape", "3,16,16", rec)
				}
			})
		})
	}
}

// TestRecPackResizeLimit: rec pack --resize refuses to resize an image of
// extreme aspect ratio to more pixels than the decoder's limit, a PNG of
// 100000x1 (and 1x100000) pixels, 182 bytes, to 22400000x224, which would
// allocate 20 GB of RGBA: exit 1 naming the file, or skipped with
// --skip-bad; with the address space capped 512 MiB above the test's.
func TestRecPackResizeLimit(t *testing.T) {
	bombtest.Capped(t, func(t *testing.T) {
		dir := t.TempDir()
		root := filepath.Join(dir, "root")
		if err := os.MkdirAll(root, 0o755); err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{"chelsea.jpg": readFile(t, filepath.Join(photos, "cat/chelsea.jpg"))}
		for name, size := range map[string]image.Point{"wide.png": {100000, 1}, "tall.png": {1, 100000}} {
			var buf bytes.Buffer
			if err := png.Encode(&buf, image.NewGray(image.Rectangle{Max: size})); err != nil {
				t.Fatal(err)
			}
			files[name] = buf.Bytes()
		}
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		prefix := filepath.Join(dir, "p")
		for _, name := range []string{"wide.png", "tall.png"} {
			if err := os.WriteFile(prefix+".lst", []byte("0\t0\tchelsea.jpg\n1\t1\t"+name+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			status, _, stderr := run("rec", "pack", "--resize", "224", prefix, root)
			if status != 1 || !strings.Contains(stderr, name) || !strings.Contains(stderr, "image too large: --resize 224 would make the") {
				t.Errorf("rec pack --resize 224 of %s: status %d, stderr %q; want 1 and the image named, too large", name, status, stderr)
			}
			status, stdout, stderr := run("rec", "pack", "--resize", "224", "--skip-bad", prefix, root)
			if status != 0 || !strings.Contains(stderr, "skipped "+name) || !strings.Contains(stdout, `"records":1,"skipped":1`) {
				t.Errorf("rec pack --resize 224 --skip-bad of %s: status %d, stdout %q, stderr %q", name, status, stdout, stderr)
			}
			// Resized to a short side of 1, it is 100000 pixels: within the
			// limit (and PNG's, not JPEG's).
			status, stdout, stderr = run("rec", "pack", "--resize", "1", "--encoding", ".png", prefix, root)
			if status != 0 || !strings.Contains(stdout, `"records":2,"skipped":0`) {
				t.Errorf("rec pack --resize 1 of %s: status %d, stdout %q, stderr %q", name, status, stdout, stderr)
			}
		}
	})
}

func TestCheckResize(t *testing.T) {
	for _, tc := range []struct {
		w, h, resize, lim int
		ok                bool
	}{
		{64, 43, 224, imagecodec.DefaultMaxPixels, true},
		{100000, 1, 224, imagecodec.DefaultMaxPixels, false},
		{1, 100000, 224, imagecodec.DefaultMaxPixels, false},
		{100000, 1, 224, -1, true},              // no limit
		{300, 200, 20, 30 * 20, true},           // 30x20, the limit exactly
		{300, 200, 20, 30*20 - 1, false},        // one pixel over
		{301, 200, 20, 30 * 20, true},           // 30.1 rounds down to 30
		{1 << 30, 1, 1 << 30, 1 << 28, false},   // resize over the limit: no overflow
		{1<<31 - 1, 1, 1 << 27, 1 << 28, false}, // long*resize near 2^58
		{13377, 13377, 13377, 13377 * 13377, true},
	} {
		err := checkResize("x.png", tc.w, tc.h, tc.resize, tc.lim)
		if ok := err == nil; ok != tc.ok || (!ok && (!errors.Is(err, imagecodec.ErrTooLarge) || !strings.HasPrefix(err.Error(), "x.png: "))) {
			t.Errorf("checkResize(%dx%d, %d, limit %d) = %v, want ok %v", tc.w, tc.h, tc.resize, tc.lim, err, tc.ok)
		}
	}
}
