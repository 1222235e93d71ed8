package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestRecPackFullDisk packs copies of a photo into a folder on a tmpfs of 64
// KiB (16 pages of 4 KiB): 23 copies into an empty folder, a .rec of 15 pages
// that leaves no room for the .idx (the pack used to leave the .rec without
// one), and 40 copies into a folder holding an earlier run's .rec and .idx,
// where the .rec does not fit. Each pack fails with the disk full, and leaves
// the folder as it was, with no temporary file. It needs to mount a tmpfs
// (root, or CAP_SYS_ADMIN) and skips otherwise; TestRecPackAtomic injects the
// same error everywhere.
func TestRecPackFullDisk(t *testing.T) {
	photo := filepath.Join(photos, "person/astronaut.jpg")
	size := 8 + (24+len(readFile(t, photo))+3)/4*4 // a record: part header, image header, image, padding
	for _, c := range []struct {
		images int
		old    bool
		full   string // the file written when the disk fills
	}{{23, false, "photos.idx"}, {40, true, "photos.rec"}} {
		if pages := (c.images*size + 4095) / 4096; c.images == 23 && pages != 15 {
			t.Fatalf("23 records of %d bytes take %d pages, want 15", size, pages)
		}
		dir := t.TempDir()
		if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
			t.Skipf("cannot mount a tmpfs of 64 KiB at %s: %v", dir, err)
		}
		t.Cleanup(func() {
			if err := syscall.Unmount(dir, 0); err != nil {
				t.Errorf("unmounting %s: %v", dir, err)
			}
		})
		var list strings.Builder
		for i := range c.images {
			fmt.Fprintf(&list, "%d\t%d\tperson/astronaut.jpg\n", i, i%3)
		}
		if err := os.WriteFile(filepath.Join(dir, "photos.lst"), []byte(list.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		golden := ""
		if c.old {
			golden = "photos"
			copyFile(t, im2rec+"pack/photos.rec", filepath.Join(dir, "photos.rec"))
			copyFile(t, im2rec+"pack/photos.idx", filepath.Join(dir, "photos.idx"))
		}
		what := fmt.Sprintf("%d images, old files %v", c.images, c.old)
		status, _, stderr := run("rec", "pack", "--pass-through", filepath.Join(dir, "photos"), photos)
		if status != 1 || !strings.Contains(stderr, c.full+": ") || !strings.Contains(stderr, "no space left on device") {
			t.Errorf("%s: status %d, %q; want 1 and the disk full writing %s", what, status, stderr, c.full)
		}
		checkPair(t, what, dir, golden)
	}
}
