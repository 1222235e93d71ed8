package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// failingWriter passes on its first n bytes, then fails as a full disk does.
type failingWriter struct {
	w io.Writer
	n int
}

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k, _ := f.w.Write(p[:f.n])
		f.n = 0
		return k, fmt.Errorf("injected: %w", syscall.ENOSPC)
	}
	f.n -= len(p)
	return f.w.Write(p)
}

// failWrites makes the writes of the outputs whose target ends with suffix
// fail after n bytes, until the test ends.
func failWrites(t *testing.T, suffix string, n int) {
	t.Cleanup(func() { outputHooks.write = nil })
	outputHooks.write = func(path string, w io.Writer) io.Writer {
		if strings.HasSuffix(path, suffix) {
			return &failingWriter{w, n}
		}
		return w
	}
}

// names returns the names of the files in dir, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ns []string
	for _, e := range es {
		ns = append(ns, e.Name())
	}
	slices.Sort(ns)
	return ns
}

// packDir makes a folder with photos.lst (the list of im2rec's golden pack)
// and, with old, the golden photos.rec and photos.idx a previous run left:
// packing photos with --pack-label replaces them by photos_labels.rec and
// .idx.
func packDir(t *testing.T, old bool) string {
	t.Helper()
	dir := t.TempDir()
	copyFile(t, im2rec+"photos.lst", filepath.Join(dir, "photos.lst"))
	if old {
		copyFile(t, im2rec+"pack/photos.rec", filepath.Join(dir, "photos.rec"))
		copyFile(t, im2rec+"pack/photos.idx", filepath.Join(dir, "photos.idx"))
	}
	return dir
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	if err := os.WriteFile(to, readFile(t, from), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkPair checks that dir holds the .rec and .idx of golden (im2rec's pack
// of that name), or neither when golden is "", and no other file but the list.
func checkPair(t *testing.T, what, dir, golden string) {
	t.Helper()
	want := []string{"photos.lst"}
	if golden != "" {
		want = []string{"photos.idx", "photos.lst", "photos.rec"}
	}
	if d := cmp.Diff(want, names(t, dir)); d != "" {
		t.Errorf("%s: files mismatch (-want +got):\n%s", what, d)
		return
	}
	if golden == "" {
		return
	}
	for _, ext := range []string{".rec", ".idx"} {
		if !bytes.Equal(readFile(t, filepath.Join(dir, "photos"+ext)), readFile(t, im2rec+"pack/"+golden+ext)) {
			t.Errorf("%s: photos%s is not the golden %s%s", what, ext, golden, ext)
		}
	}
}

// TestRecPackAtomic: a pack that fails while writing the .rec or the .idx
// (an injected ENOSPC) or when the .idx cannot be put in place (a directory
// where it goes, a rename that fails) leaves the folder as it was, with or
// without the .rec and .idx of an earlier run, and no temporary file; one that
// succeeds replaces both.
func TestRecPackAtomic(t *testing.T) {
	for _, old := range []bool{false, true} {
		before := ""
		if old {
			before = "photos"
		}
		pack := func(what string) (string, int, string) {
			t.Helper()
			dir := packDir(t, old)
			status, _, stderr := run("rec", "pack", "--pass-through", "--pack-label", filepath.Join(dir, "photos"), photos)
			return dir, status, stderr
		}
		for _, c := range []struct {
			suffix string
			n      int
		}{{".rec", 0}, {".rec", 5000}, {".idx", 10}} {
			what := fmt.Sprintf("old files %v, writing %s fails after %d bytes", old, c.suffix, c.n)
			failWrites(t, c.suffix, c.n)
			dir, status, stderr := pack(what)
			outputHooks.write = nil
			if status != 1 || !strings.Contains(stderr, "photos"+c.suffix+": ") || !strings.Contains(stderr, "no space left on device") {
				t.Errorf("%s: status %d, %q; want 1 and the error naming photos%s", what, status, stderr, c.suffix)
			}
			checkPair(t, what, dir, before)
		}

		what := fmt.Sprintf("old files %v, renaming the .idx into place fails", old)
		outputHooks.rename = func(from, to string) error {
			if strings.HasSuffix(to, "photos.idx") && strings.Contains(from, ".tmp-") {
				return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.EIO}
			}
			return os.Rename(from, to)
		}
		dir, status, stderr := pack(what)
		outputHooks.rename = nil
		if status != 1 || !strings.Contains(stderr, "photos.idx: rename") {
			t.Errorf("%s: status %d, %q; want 1 and the rename's error", what, status, stderr)
		}
		checkPair(t, what, dir, before)

		what = fmt.Sprintf("old files %v, the .idx's place is a directory", old)
		dir = packDir(t, old)
		os.Remove(filepath.Join(dir, "photos.idx"))
		if err := os.Mkdir(filepath.Join(dir, "photos.idx"), 0o755); err != nil {
			t.Fatal(err)
		}
		status, _, stderr = run("rec", "pack", "--pass-through", "--pack-label", filepath.Join(dir, "photos"), photos)
		if status != 1 || !strings.Contains(stderr, "photos.idx is a directory") {
			t.Errorf("%s: status %d, %q; want 1 and the directory named", what, status, stderr)
		}
		want := []string{"photos.idx", "photos.lst"}
		if old {
			want = append(want, "photos.rec")
		}
		if d := cmp.Diff(want, names(t, dir)); d != "" {
			t.Errorf("%s: files mismatch (-want +got):\n%s", what, d)
		}

		what = fmt.Sprintf("old files %v, success", old)
		dir, status, stderr = pack(what)
		if status != 0 {
			t.Errorf("%s: status %d: %s", what, status, stderr)
		}
		checkPair(t, what, dir, "photos_labels")
	}
}

// TestRecPackOrder watches every rename of a pack that replaces an earlier
// run's .rec and .idx: at no moment does the folder hold a .rec and an .idx of
// two runs.
func TestRecPackOrder(t *testing.T) {
	dir := packDir(t, true)
	oldRec, newRec := readFile(t, im2rec+"pack/photos.rec"), readFile(t, im2rec+"pack/photos_labels.rec")
	oldIdx, newIdx := readFile(t, im2rec+"pack/photos.idx"), readFile(t, im2rec+"pack/photos_labels.idx")
	run := func(what string, old, new []byte, path string) string {
		b, err := os.ReadFile(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return "none"
		case err != nil:
			t.Fatal(err)
		case bytes.Equal(b, old):
			return "old"
		case bytes.Equal(b, new):
			return "new"
		}
		t.Fatalf("%s: %s is neither the old nor the new one", what, path)
		return ""
	}
	var states []string
	outputHooks.rename = func(from, to string) error {
		err := os.Rename(from, to)
		rec := run("rec", oldRec, newRec, filepath.Join(dir, "photos.rec"))
		idx := run("idx", oldIdx, newIdx, filepath.Join(dir, "photos.idx"))
		states = append(states, rec+"/"+idx)
		if rec != "none" && idx != "none" && rec != idx {
			t.Errorf("after renaming %s to %s: an %s .rec beside an %s .idx", filepath.Base(from), filepath.Base(to), rec, idx)
		}
		return err
	}
	defer func() { outputHooks.rename = nil }()
	mustRun(t, "rec", "pack", "--pass-through", "--pack-label", filepath.Join(dir, "photos"), photos)
	if d := cmp.Diff([]string{"old/none", "new/none", "new/new"}, states); d != "" {
		t.Errorf("states after each rename (.rec/.idx) mismatch (-want +got):\n%s", d)
	}
	checkPair(t, "after the pack", dir, "photos_labels")
}

// TestTableToNpyAtomic: to-npy with a -y column the table does not have
// writes no PREFIX-x.npy (and replaces no earlier one), and leaves no
// temporary file.
func TestTableToNpyAtomic(t *testing.T) {
	for _, old := range []bool{false, true} {
		dir := t.TempDir()
		prefix := filepath.Join(dir, "out")
		if old {
			if err := os.WriteFile(prefix+"-x.npy", []byte("an earlier run's"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		status, stdout, stderr := run("table", "to-npy", "-x", "x", "-y", "no_such_column", "-o", prefix, fixture("js.arrow"))
		if status != 1 || !strings.Contains(stderr, `no column "no_such_column"`) || stdout != "" {
			t.Errorf("old %v: status %d, stdout %q, stderr %q; want 1, nothing on stdout and the column named", old, status, stdout, stderr)
		}
		want := []string(nil)
		if old {
			want = []string{"out-x.npy"}
			if got := string(readFile(t, prefix+"-x.npy")); got != "an earlier run's" {
				t.Errorf("old %v: out-x.npy was replaced by %d bytes", old, len(got))
			}
		}
		if d := cmp.Diff(want, names(t, dir)); d != "" {
			t.Errorf("old %v: files mismatch (-want +got):\n%s", old, d)
		}
	}
}
