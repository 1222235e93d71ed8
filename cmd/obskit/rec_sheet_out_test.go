package main

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecSheetUnwritable: an OUT.png that cannot be written (in a folder that
// does not exist, under a file, or where a directory is) fails before any
// image is drawn (no JSON line) and leaves no temporary file. It used to draw
// every image first.
func TestRecSheetUnwritable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "taken.png"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ out, want string }{
		{filepath.Join(dir, "missing", "sheet.png"), "no such file or directory"},
		{filepath.Join(file, "sheet.png"), "not a directory"},
		{filepath.Join(dir, "taken.png"), "taken.png is a directory"},
	} {
		status, stdout, stderr := run("rec", "sheet", "--n", "3", "--data_shape", "3,40,48", photosRec, c.out)
		if status != 1 || stdout != "" || !strings.Contains(stderr, c.out) || !strings.Contains(stderr, c.want) {
			t.Errorf("rec sheet to %s: status %d, stdout %q, stderr %q; want 1, nothing drawn and an error naming it: %s", c.out, status, stdout, stderr, c.want)
		}
	}
	if got, want := names(t, dir), []string{"file", "taken.png"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("files left: %q, want %q", got, want)
	}
}

// TestRecSheetFewerRecords: --n 10 of photos.rec, which holds 4 records,
// draws the 4 in a grid of 2 x 2 tiles and says so on stderr. It used to draw
// them silently in a grid laid out for 10.
func TestRecSheetFewerRecords(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sheet.png")
	status, stdout, stderr := run("rec", "sheet", "--n", "10", "--data_shape", "3,40,48", photosRec, out)
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if want := "--n 10, but " + photosRec + " holds 4 records: drawing 4"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q does not say %q", stderr, want)
	}
	if n := strings.Count(stdout, "\n"); n != 4 {
		t.Errorf("%d JSON lines, want 4:\n%s", n, stdout)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sheet, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sheet.Bounds().Size(), image.Pt(2+2*(48+2), 2+2*(40+2)); got != want {
		t.Errorf("sheet of %v, want %v: 2 x 2 tiles of 48 x 40 with 2-pixel gaps", got, want)
	}
}
