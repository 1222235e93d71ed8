package npy

import (
	"os"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/internal/fileio"
	"github.com/obskit/obskit/internal/mmap"
	"github.com/obskit/obskit/obsdim"
)

// Mapped is an array whose storage is a memory-mapped .npy file, returned by
// [Open]. It is an [*arraycontainer.Array] (every method of the array is promoted)
// plus [Mapped.Close].
//
// Pages of the file are read by the operating system when an observation is first
// touched and stay in its page cache, so a file larger than memory can be used.
// The mapping is copy-on-write: writes through the array (Set, Data) change
// private copies of the touched pages, never the file.
//
// The array and every view of it (Slice, SliceInto, Range, Transpose, WithDim...)
// share the mapping, and each keeps it mapped: the file is unmapped only when
// none of them is reachable any more, by a cleanup after a garbage collection.
// So a view stays valid after [Mapped.Close], and no use of an array can touch
// unmapped memory. Batches from GetObsInto, observations from GetObs and copies
// from Clone are Go memory and do not keep the mapping. A slice from Data does
// not keep it either: keep an array alive while using one (see
// arraycontainer.Array.Data).
//
// If the file shrinks while it is mapped, its lost pages cannot be read: the
// array's methods (GetObs, GetObsInto, Clone, At, Set, Fill, Equal, String...)
// then panic with an error wrapping [ErrFault] that names the file and the
// offset, and [Write] returns one, where the program would otherwise die of
// SIGBUS. Reads through Data are not guarded and still crash. Do not change a
// file while it is mapped.
type Mapped[E arraycontainer.Number] struct {
	*arraycontainer.Array[E]
	// Header is the header of the file.
	Header Header
}

// Close drops the Mapped's own hold on the mapping: it sets m.Array to nil, so
// that the mapping is released once the arrays taken from m (m.Array itself,
// views) are unreachable, by a cleanup after a garbage collection (the next one
// if there are none). Arrays taken before Close stay valid; the methods of m
// itself must not be called after Close (m.Array is nil). Close must not run
// concurrently with other uses of m. It returns nil, and calling it again does
// nothing.
func (m *Mapped[E]) Close() error {
	m.Array = nil
	return nil
}

// Open memory-maps the .npy file at path as an array with observations along dim.
// It reads the header only: opening costs the same for any file size, and the data
// is read on demand as observations are touched. Fortran order becomes strides.
// The file may be removed or renamed after Open; it must not be truncated or
// rewritten while mapped (reads of lost pages panic with [ErrFault], see
// [Mapped]). Call [Mapped.Close] when done: the mapping lives until neither the
// Mapped nor any array viewing it is reachable.
//
// Mapping needs the data in the machine's byte order and aligned for E (NumPy
// aligns it to 64 bytes): otherwise Open returns an error wrapping
// [ErrUnsupported] that says why; [Load] converts such files in memory. On
// platforms without mmap support the file is read into memory.
//
// Open returns the errors of [Load] otherwise.
func Open[E arraycontainer.Number](path string, dim obsdim.Dim) (*Mapped[E], error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h, size, err := fileHeader(f)
	if err != nil {
		return nil, err
	}
	name := f.Name()
	if err := checkType[E](name, h); err != nil {
		return nil, err
	}
	if err := checkFileSize(name, h, size); err != nil {
		return nil, err
	}
	if h.Dtype.swapped() {
		order := "little"
		if !fileio.LittleEndian {
			order = "big"
		}
		return nil, format.Errorf(name, ErrUnsupported, "%s data cannot be memory-mapped on this %s-endian machine (a mapping is the file's bytes and cannot be converted in place); use Load, which converts", h.Dtype, order)
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
