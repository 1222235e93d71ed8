package idx

import (
	"os"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/internal/fileio"
	"github.com/obskit/obskit/internal/mmap"
	"github.com/obskit/obskit/obsdim"
)

// Mapped is an array whose storage is a memory-mapped IDX file, returned by
// [Open]: an [*arraycontainer.Array] (every method is promoted) plus
// [Mapped.Close]. Pages are read when observations are first touched. The
// mapping is copy-on-write: writes through the array never reach the file.
//
// The array and its views share the mapping and each keeps it mapped: the file is
// unmapped once none of them is reachable, so views stay valid after Close.
// Batches from GetObsInto, observations from GetObs and Clone copies are Go
// memory; a slice from Data does not keep the mapping (see
// arraycontainer.Array.Data). If the file shrinks while mapped, the array's
// methods panic with an error wrapping [ErrFault] naming the file and the offset
// instead of the program dying of SIGBUS; reads through Data are not guarded.
type Mapped[E arraycontainer.Number] struct {
	*arraycontainer.Array[E]
	// Header is the header of the file.
	Header Header
}

// Close drops the Mapped's own hold on the mapping: it sets m.Array to nil, and
// the mapping is released once the arrays taken from m (m.Array, views) are
// unreachable, by a cleanup after a garbage collection (the next one if there
// are none). Arrays taken before Close stay valid; the methods of m itself must
// not be called after Close. Close must not run concurrently with other uses of
// m. It returns nil; calling it again does nothing.
func (m *Mapped[E]) Close() error {
	m.Array = nil
	return nil
}

// Open memory-maps the IDX file at path as an array with observations along dim,
// reading only its header. Only one-byte elements can be mapped on a
// little-endian machine, since IDX stores numbers big-endian: MNIST images and
// labels (uint8) map; for other element types, and for gzip-compressed files,
// Open returns an error wrapping [ErrUnsupported] that points to [Load]. On
// platforms without mmap support the file is read into memory. The file must not
// be truncated or rewritten while mapped (see [Mapped]). Call [Mapped.Close]
// when done. Other errors are those of Load.
func Open[E arraycontainer.Number](path string, dim obsdim.Dim) (*Mapped[E], error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h, size, rc, err := openFile(f)
	if err != nil {
		return nil, err
	}
	rc.Close()
	name := f.Name()
	if err := checkType[E](name, h); err != nil {
		return nil, err
	}
	if h.Gzip {
		return nil, format.Errorf(name, ErrUnsupported, "gzip-compressed; use Load, which decompresses, or gunzip the file to map it")
	}
	if kinds[h.Type].Size > 1 && fileio.LittleEndian {
		return nil, format.Errorf(name, ErrUnsupported, "big-endian %s data cannot be mapped on this little-endian machine (a mapping is the file's bytes and cannot be converted in place); use Load, which converts", h.GoType())
	}
	r, data, err := fileio.MapElems[E](format, ErrUnsupported, ErrFault, f, size, h.DataOffset, h.Len())
	if err != nil {
		return nil, err
	}
	a, err := newArray(name, data, h, dim)
	if err != nil {
		r.Release()
		return nil, err
	}
	mmap.Attach(a, r)
	return &Mapped[E]{Array: a, Header: h}, nil
}
