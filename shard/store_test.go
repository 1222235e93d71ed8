package shard_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/obskit/obskit/shard"
)

func put(t *testing.T, s shard.Store, name, data string) {
	t.Helper()
	w, err := s.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := io.WriteString(w, data); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, s shard.Store, name string) string {
	t.Helper()
	o, err := s.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	b := make([]byte, o.Size())
	if _, err := o.ReadAt(b, 0); err != nil && err != io.EOF {
		t.Fatal(err)
	}
	return string(b)
}

func list(t *testing.T, s shard.Store, prefix string) []string {
	t.Helper()
	var names []string
	for name, err := range s.List(prefix) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}

// TestDir: objects appear whole at Commit, never before and never after Close;
// List yields byte order (as an object store lists), skipping temporaries;
// names outside the store are refused; Clean removes a crashed writer's
// temporaries of its prefix only.
func TestDir(t *testing.T) {
	root := t.TempDir()
	s := shard.Dir(root)
	put(t, s, "a.x", "1")
	put(t, s, "a/b", "22")
	put(t, s, "a/c/d", "333")
	put(t, s, "b", "4444")
	put(t, s, "b", "55555") // replaces

	if got := get(t, s, "b"); got != "55555" {
		t.Errorf("b = %q, want the second object", got)
	}
	if got, want := list(t, s, ""), []string{"a.x", "a/b", "a/c/d", "b"}; !slices.Equal(got, want) {
		t.Errorf("List(\"\") = %q, want %q", got, want)
	}
	for prefix, want := range map[string][]string{
		"a":    {"a.x", "a/b", "a/c/d"},
		"a/":   {"a/b", "a/c/d"},
		"a/c":  {"a/c/d"},
		"a/c/": {"a/c/d"},
		"z/":   nil,
		"a/b":  {"a/b"},
		"a/bb": nil,
	} {
		if got := list(t, s, prefix); !slices.Equal(got, want) {
			t.Errorf("List(%q) = %q, want %q", prefix, got, want)
		}
	}

	// A writer not committed: nothing visible, during and after.
	w, err := s.Create("a/new")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "partial")
	if _, err := s.Open("a/new"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of an object being written: %v, want fs.ErrNotExist", err)
	}
	if got := list(t, s, "a/"); slices.Contains(got, "a/new") || len(got) != 2 {
		t.Errorf("List during a write = %q", got)
	}
	// A crash: the temporary stays on disk, invisible.
	crashed, _ := os.ReadDir(filepath.Join(root, "a"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open("a/new"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open after Close without Commit: %v, want fs.ErrNotExist", err)
	}
	if _, err := w.Write([]byte("x")); err == nil {
		t.Error("Write after Close succeeded")
	}
	if err := w.Commit(); err == nil {
		t.Error("Commit after Close succeeded")
	}
	var tmp string
	for _, e := range crashed {
		if e.Name() != "b" && e.Name() != "c" {
			tmp = e.Name()
		}
	}
	if tmp == "" {
		t.Fatal("no temporary file while writing")
	}
	// Leave temporaries as a dead process would: one under a/, one under b's
	// directory (the root).
	os.WriteFile(filepath.Join(root, "a", tmp), []byte("dead"), 0o666)
	os.WriteFile(filepath.Join(root, ".tmp-b-123"), []byte("dead"), 0o666)
	if got := list(t, s, ""); len(got) != 4 {
		t.Errorf("List with temporaries = %q", got)
	}
	if err := s.Clean("a/"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "a", tmp)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Clean(a/) left %s", tmp)
	}
	if _, err := os.Stat(filepath.Join(root, ".tmp-b-123")); err != nil {
		t.Errorf("Clean(a/) removed another prefix's temporary: %v", err)
	}
	if err := s.Clean(""); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".tmp-b-123")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("Clean(\"\") left .tmp-b-123")
	}

	for _, name := range []string{"", ".", "/abs", "a/../b", "a//b", "a/", ".tmp-x", "a/.tmp-y"} {
		if _, err := s.Open(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Open(%q): %v, want fs.ErrInvalid", name, err)
		}
		if _, err := s.Create(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Create(%q): %v, want fs.ErrInvalid", name, err)
		}
	}
	if _, err := s.Open("a"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of a directory: %v, want fs.ErrNotExist", err)
	}
}
