package imagedata

import (
	"path/filepath"

	"github.com/obskit/obskit/container"
)

var _ container.Encoded = (*Files)(nil)

// Files is a container of the contents of files: observation i is the bytes
// of file i, read when it is asked for; a batch is a [][]byte. It holds the
// paths only. It is stateless: any number of goroutines may read it at once.
//
// Files is a container.Encoded: [Files.AppendObs] reads a file into a buffer
// the caller reuses and returns the error GetObs panics with, and
// [Files.Where] is the file's path. On Linux a file is read with the openat,
// read and close system calls, and no allocation once the buffer has grown to
// the file's size; os.Open allocates a File for every file.
type Files struct {
	root  string
	paths []string
}

// NewFiles returns the container of the files at paths, relative to root (an
// absolute path is used as it is). paths is not copied: it must not change.
func NewFiles(root string, paths []string) *Files {
	return &Files{root: root, paths: paths}
}

// Nobs returns the number of files.
func (f *Files) Nobs() int { return len(f.paths) }

// Root returns the folder the paths are relative to.
func (f *Files) Root() string { return f.root }

// Path returns the path of file i: its path joined to the root. It panics
// with a *container.IndexError when i is out of range.
func (f *Files) Path(i int) string {
	container.CheckIndex("imagedata.Files.Path", i, len(f.paths))
	if p := f.paths[i]; filepath.IsAbs(p) || f.root == "" {
		return p
	}
	return filepath.Join(f.root, f.paths[i])
}

// GetObs reads file i into new memory. It panics with a *container.IndexError
// when i is out of range, and with an error wrapping [ErrRead] and the cause
// (such as fs.ErrNotExist) that names the file when the file cannot be read.
func (f *Files) GetObs(i int) []byte {
	container.CheckIndex("imagedata.Files.GetObs", i, len(f.paths))
	b, err := f.readFile(nil, i)
	if err != nil {
		panic(err)
	}
	return b
}

// GetObsInto reads the files at idx into dst, one []byte each, and returns
// the batch. The byte slices of dst are reused: each file is read into
// dst[j][:0], so a batch reused step after step grows only when a file is
// larger than the one its slot held before. The slices of dst must not share
// memory. Each file costs an open, its reads and a close (see [Files] for the
// allocations). It panics as [Files.GetObs] does, before reading anything for
// an index out of range.
func (f *Files) GetObsInto(dst [][]byte, idx []int) [][]byte {
	container.CheckIndices("imagedata.Files.GetObsInto", idx, len(f.paths))
	dst = container.Resize(dst, len(idx))
	for j, i := range idx {
		b, err := f.readFile(dst[j][:0], i)
		if err != nil {
			panic(err)
		}
		dst[j] = b
	}
	return dst
}

// AppendObs appends the contents of file i to dst and returns the extended
// slice, or dst's bytes alone and an error wrapping [ErrRead] and its cause
// (such as fs.ErrNotExist) that names the file. It panics with a
// *container.IndexError when i is out of range. It does not retain dst, and is
// safe to call from several goroutines at once (see container.Encoded).
func (f *Files) AppendObs(dst []byte, i int) ([]byte, error) {
	container.CheckIndex("imagedata.Files.AppendObs", i, len(f.paths))
	return f.readFile(dst, i)
}

// Where returns the path of file i, as [Files.Path] does: where observation i
// is stored, for messages.
func (f *Files) Where(i int) string {
	container.CheckIndex("imagedata.Files.Where", i, len(f.paths))
	return f.Path(i)
}
