package imagedata

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/obskit/obskit/container"
)

var _ container.Batched[[]byte, [][]byte] = (*Files)(nil)

// Files is a container of the contents of files: observation i is the bytes
// of file i, read when it is asked for; a batch is a [][]byte. It holds the
// paths only. It is stateless: any number of goroutines may read it at once.
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
	b, err := f.AppendFile(nil, i)
	if err != nil {
		panic(err)
	}
	return b
}

// GetObsInto reads the files at idx into dst, one []byte each, and returns
// the batch. The byte slices of dst are reused: each file is read into
// dst[j][:0], so a batch reused step after step grows only when a file is
// larger than the one its slot held before. The slices of dst must not share
// memory. Each file costs an open, its reads and a close (and the few
// allocations of opening a file). It panics as [Files.GetObs] does, before
// reading anything for an index out of range.
func (f *Files) GetObsInto(dst [][]byte, idx []int) [][]byte {
	container.CheckIndices("imagedata.Files.GetObsInto", idx, len(f.paths))
	dst = container.Resize(dst, len(idx))
	for j, i := range idx {
		b, err := f.AppendFile(dst[j][:0], i)
		if err != nil {
			panic(err)
		}
		dst[j] = b
	}
	return dst
}

// AppendFile appends the contents of file i to dst and returns the extended
// slice, or dst and an error wrapping [ErrRead] and its cause, naming the
// file. It panics with a *container.IndexError when i is out of range.
func (f *Files) AppendFile(dst []byte, i int) ([]byte, error) {
	path := f.Path(i)
	fl, err := os.Open(path)
	if err != nil {
		return dst, readError(path, "", unwrapPath(err))
	}
	defer fl.Close()
	at := len(dst)
	if dst == nil {
		dst = []byte{}
	}
	for {
		if len(dst) == cap(dst) {
			dst = slices.Grow(dst, max(512, len(dst)-at))
		}
		n, err := fl.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst[:at], readError(path, "", unwrapPath(err))
		}
	}
}

// unwrapPath drops the *fs.PathError around err, whose path the message names
// already.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}
