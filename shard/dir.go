package shard

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Dir is the [Store] of the files under a local directory: the object
// "train/s-000001.tar" of Dir("/data") is the file /data/train/s-000001.tar.
// It is also a [Cleaner].
//
// Open opens the file (a directory is not an object: fs.ErrNotExist). Create
// writes a temporary file ".tmp-BASE-RANDOM" in the object's directory
// (made when missing); Commit flushes it, syncs it to the disk and renames it
// to the object's name, which replaces an existing file atomically, so that a
// reader sees the old object or the new one, whole, and a process that dies
// before the rename leaves only the temporary. Open and List never see
// temporaries, and names whose last element starts with ".tmp-" are refused
// (fs.ErrInvalid). List walks the directories under the prefix's directory
// and yields the regular files (and links to them), in increasing byte order
// of their names; a prefix whose directory does not exist yields nothing.
type Dir string

var (
	_ Store   = Dir("")
	_ Cleaner = Dir("")
)

// tmpPrefix starts the base name of every temporary file of a Dir.
const tmpPrefix = ".tmp-"

// path returns the local path of the object name, or an error wrapping
// fs.ErrInvalid naming op and name.
func (d Dir) path(op, name string) (string, error) {
	if !fs.ValidPath(name) || name == "." || strings.HasPrefix(path.Base(name), tmpPrefix) {
		return "", &fs.PathError{Op: op, Path: name, Err: fmt.Errorf("%w: not an object name (a slash-separated relative path, its last element not starting with %q)", fs.ErrInvalid, tmpPrefix)}
	}
	return filepath.Join(string(d), filepath.FromSlash(name)), nil
}

// Open opens the object name for reading.
func (d Dir) Open(name string) (Object, error) {
	p, err := d.path("open", name)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: p, Err: fmt.Errorf("%w: not a regular file", fs.ErrNotExist)}
	}
	return &fileObject{File: f, size: st.Size()}, nil
}

// fileObject is an open file of a Dir.
type fileObject struct {
	*os.File
	size int64
}

func (o *fileObject) Size() int64 { return o.size }

// Create starts writing the object name under a temporary name.
func (d Dir) Create(name string) (Writer, error) {
	p, err := d.path("create", name)
	if err != nil {
		return nil, err
	}
	dir, base := filepath.Split(p)
	if dir == "" {
		dir = "."
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, tmpPrefix+base+"-*")
	if err != nil {
		return nil, err
	}
	return &fileWriter{f: f, buf: bufio.NewWriterSize(f, 1<<16), final: p}, nil
}

// fileWriter writes a temporary file that Commit renames.
type fileWriter struct {
	f     *os.File
	buf   *bufio.Writer
	final string
	done  bool
}

var errWriterDone = errors.New("shard: write after Commit or Close")

func (w *fileWriter) Write(p []byte) (int, error) {
	if w.done {
		return 0, errWriterDone
	}
	return w.buf.Write(p)
}

func (w *fileWriter) Commit() error {
	if w.done {
		return errWriterDone
	}
	w.done = true
	err := w.buf.Flush()
	if err == nil {
		err = w.f.Sync()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(w.f.Name(), w.final)
	}
	if err != nil {
		os.Remove(w.f.Name())
	}
	return err
}

func (w *fileWriter) Close() error {
	if w.done {
		return nil
	}
	w.done = true
	w.f.Close()
	return os.Remove(w.f.Name())
}

// List yields the names of the files whose names start with prefix.
func (d Dir) List(prefix string) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		// Walk from the directory holding every name with the prefix.
		start := ""
		if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
			start = prefix[:i]
		}
		if start != "" && !fs.ValidPath(start) {
			return
		}
		d.walk(start, prefix, yield)
	}
}

// walk yields the files under the directory rel whose names start with
// prefix, in byte order; it returns false when yield did.
func (d Dir) walk(rel, prefix string, yield func(string, error) bool) bool {
	local := filepath.Join(string(d), filepath.FromSlash(rel))
	entries, err := os.ReadDir(local)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return true // nothing under this prefix
		}
		return yield("", err)
	}
	type entry struct {
		name string // the object name, with a trailing slash for a directory
		dir  bool
	}
	list := make([]entry, 0, len(entries))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tmpPrefix) {
			continue
		}
		name := e.Name()
		if rel != "" {
			name = rel + "/" + name
		}
		dir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			st, err := os.Stat(filepath.Join(local, e.Name()))
			if err != nil || !st.Mode().IsRegular() {
				continue // a broken link, or a link to a directory: not followed
			}
		} else if !dir && !e.Type().IsRegular() {
			continue
		}
		if dir {
			name += "/"
		}
		// Keep the names that start with prefix, and the directories that
		// may hold some.
		if !strings.HasPrefix(name, prefix) && !(dir && strings.HasPrefix(prefix, name)) {
			continue
		}
		list = append(list, entry{name, dir})
	}
	// "a/" sorts after "a.x" in byte order, as an object store lists "a/b"
	// after "a.x": sorting with the slash gives the names' order.
	slices.SortFunc(list, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	for _, e := range list {
		if e.dir {
			if !d.walk(strings.TrimSuffix(e.name, "/"), prefix, yield) {
				return false
			}
			continue
		}
		if !yield(e.name, nil) {
			return false
		}
	}
	return true
}

// Clean removes the temporary files that writers of objects whose names start
// with prefix left behind.
func (d Dir) Clean(prefix string) error {
	start := ""
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		start = prefix[:i]
	}
	root := filepath.Join(string(d), filepath.FromSlash(start))
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		base := e.Name()
		if e.IsDir() || !strings.HasPrefix(base, tmpPrefix) {
			return nil
		}
		// .tmp-BASE-RANDOM: the object's base name is between the prefix and
		// the last dash.
		obj := base[len(tmpPrefix):]
		if i := strings.LastIndexByte(obj, '-'); i >= 0 {
			obj = obj[:i]
		}
		rel, err := filepath.Rel(string(d), filepath.Join(filepath.Dir(p), obj))
		if err != nil || !strings.HasPrefix(filepath.ToSlash(rel), prefix) {
			return nil
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	})
	return err
}
