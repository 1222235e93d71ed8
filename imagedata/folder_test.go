package imagedata

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
)

// tree makes files (with their own paths as contents) and symbolic links
// (name -> target) under a new folder and returns it.
func tree(t *testing.T, files []string, links map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// classTree has classes that sort in every tricky way: a hidden folder, upper
// case before lower case, "a-c" after "a", nested folders whose path order
// ("a/sub-z" before "a/sub/deep") is not the depth-first order, a link to a
// class folder, a class with no image, a file in root.
var classTree = []string{
	"A/one.jpg", "a/x.JPG", "a/b.jpeg", "a/.jpg", "a/notes.txt", "a/sub/c.png", "a/sub-z/d.jpg",
	"a/sub/deep/e.jpg", "a-c/f.webp", "b/g.gif", "root.jpg", ".hidden/h.jpg",
}

type sample struct {
	Path  string
	Label int
}

func samples(f *Folder) []sample {
	var out []sample
	for i := range f.Nobs() {
		out = append(out, sample{f.X().paths[i], f.Y()[i]})
	}
	return out
}

// TestOpenFolder checks torchvision ImageFolder's classes and order.
func TestOpenFolder(t *testing.T) {
	root := tree(t, classTree, map[string]string{"link": "a-c"})
	f, err := OpenFolder(root, FolderOptions{AllowEmpty: true})
	if err != nil {
		t.Fatal(err)
	}
	wantClasses := []string{".hidden", "A", "a", "a-c", "b", "link"}
	want := []sample{
		{".hidden/h.jpg", 0}, {"A/one.jpg", 1},
		{"a/.jpg", 2}, {"a/b.jpeg", 2}, {"a/x.JPG", 2}, {"a/sub/c.png", 2}, {"a/sub-z/d.jpg", 2}, {"a/sub/deep/e.jpg", 2},
		{"a-c/f.webp", 3}, {"link/f.webp", 5},
	}
	if d := cmp.Diff(wantClasses, f.Classes); d != "" {
		t.Errorf("Classes mismatch (-want +got):\n%s", d)
	}
	if d := cmp.Diff(want, samples(f)); d != "" {
		t.Errorf("OpenFolder mismatch (-want +got):\n%s", d)
	}
	// The same with Python's os.walk, or torchvision itself when installed.
	var ref [][]any
	if pythonRef(t, &ref, append([]string{"folder", root}, Extensions...)...) {
		var got [][]any
		for _, s := range samples(f) {
			got = append(got, []any{s.Path, float64(s.Label)})
		}
		if d := cmp.Diff(ref, got); d != "" {
			t.Errorf("OpenFolder differs from the Python reference (-python +go):\n%s", d)
		}
	}
	// Other extensions.
	f, err = OpenFolder(root, FolderOptions{Extensions: []string{".txt", ".gif"}, AllowEmpty: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]sample{{"a/notes.txt", 2}, {"b/g.gif", 4}}, samples(f)); d != "" {
		t.Errorf("OpenFolder with .txt and .gif mismatch (-want +got):\n%s", d)
	}
}

// pythonRef runs testdata/walk_ref.py and decodes its JSON into v, or skips
// (reporting false) when Python is not installed.
func pythonRef(t *testing.T, v any, args ...string) bool {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Logf("python3 not found: the order is not compared with Python's")
		return false
	}
	out, err := exec.Command(python, append([]string{"testdata/walk_ref.py"}, args...)...).Output()
	if err != nil {
		t.Fatalf("walk_ref.py %v: %v", args, err)
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatal(err)
	}
	return true
}

func TestOpenFolderErrors(t *testing.T) {
	root := tree(t, classTree, nil)
	_, err := OpenFolder(root, FolderOptions{})
	if !errors.Is(err, container.ErrEmpty) || !strings.Contains(err.Error(), "no image in the class folders b ") {
		t.Errorf("a class without an image: %v, want container.ErrEmpty naming b", err)
	}
	_, err = OpenFolder(filepath.Join(root, "a", "sub", "deep"), FolderOptions{})
	if !errors.Is(err, container.ErrEmpty) || !strings.Contains(err.Error(), "no class folder") {
		t.Errorf("no class folder: %v, want container.ErrEmpty", err)
	}
	_, err = OpenFolder(filepath.Join(root, "missing"), FolderOptions{})
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "missing") {
		t.Errorf("a missing folder: %v, want fs.ErrNotExist naming it", err)
	}
}

// TestFolderLoop checks that a link back to a folder the walk is inside is not
// followed again.
func TestFolderLoop(t *testing.T) {
	root := tree(t, classTree, map[string]string{"a-c/loop": ".."})
	f, err := OpenFolder(root, FolderOptions{AllowEmpty: true})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, s := range samples(f) {
		paths = append(paths, s.Path)
	}
	// Through the loop, class a-c holds root's other classes once each.
	for _, p := range []string{"a-c/f.webp", "a-c/loop/A/one.jpg", "a-c/loop/a/sub/deep/e.jpg"} {
		if n := len(slices.DeleteFunc(slices.Clone(paths), func(q string) bool { return q != p })); n != 1 {
			t.Errorf("%s listed %d times, want once: %v", p, n, paths)
		}
	}
	if slices.ContainsFunc(paths, func(p string) bool { return strings.Contains(p, "loop/a-c") }) {
		t.Errorf("the walk entered a-c again through the loop: %v", paths)
	}
}

// TestListDir checks im2rec's listing, recursive and not.
func TestListDir(t *testing.T) {
	root := tree(t, classTree, map[string]string{"link": "a-c"})
	for _, recursive := range []bool{false, true} {
		list, classes, err := ListDir(root, recursive, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got [][]any
		for i, e := range list {
			if e.Index != int64(i) {
				t.Errorf("entry %d has index %d", i, e.Index)
			}
			got = append(got, []any{e.Path, float64(e.Labels[0])})
		}
		want := [][]any{{"root.jpg", 0.0}}
		wantClasses := []string(nil)
		if recursive {
			want = append(want, [][]any{{".hidden/h.jpg", 1.0}, {"A/one.jpg", 2.0}, {"a/b.jpeg", 3.0}, {"a/x.JPG", 3.0},
				{"a/sub/c.png", 4.0}, {"a/sub/deep/e.jpg", 5.0}, {"a/sub-z/d.jpg", 6.0}}...)
			wantClasses = []string{".", ".hidden", "A", "a", "a/sub", "a/sub/deep", "a/sub-z"}
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("recursive %v: ListDir mismatch (-want +got):\n%s", recursive, d)
		}
		if d := cmp.Diff(wantClasses, classes); d != "" {
			t.Errorf("recursive %v: classes mismatch (-want +got):\n%s", recursive, d)
		}
		mode := "list"
		if recursive {
			mode = "list-recursive"
		}
		var ref [][]any
		if pythonRef(t, &ref, append([]string{mode, root}, ListExtensions...)...) {
			if d := cmp.Diff(ref, got); d != "" {
				t.Errorf("recursive %v: ListDir differs from the Python reference (-python +go):\n%s", recursive, d)
			}
		}
	}
	if got := splitExt(".jpg") + "|" + splitExt("..jpg") + "|" + splitExt("a.b.png") + "|" + splitExt("noext") + "|" + splitExt("x."); got != "||.png||." {
		t.Errorf("splitExt: %q, want Python's %q", got, "||.png||.")
	}
}
