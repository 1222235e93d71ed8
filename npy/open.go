package npy

import (
	"fmt"
	"os"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/internal/fileio"
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
// The array, every view of it (Slice, Range, Transpose...) and every slice from
// Data are the mapped memory: they must not be used after Close. Doing so is not a
// Go panic but a fault that crashes the program. Batches from GetObsInto and
// observations from GetObs are copies and stay valid.
type Mapped[E arraycontainer.Number] struct {
	*arraycontainer.Array[E]
	// Header is the header of the file.
	Header Header
	m      *fileio.Mapping
}

// Close unmaps the file. The array and its views must not be used afterwards.
// Calling Close again does nothing and returns nil.
func (m *Mapped[E]) Close() error {
	if err := m.m.Close(); err != nil {
		return fmt.Errorf("npy: closing a mapped array: %w", err)
	}
	return nil
}

// Open memory-maps the .npy file at path as an array with observations along dim.
// It reads the header only: opening costs the same for any file size, and the data
// is read on demand as observations are touched. Fortran order becomes strides.
// The file may be changed or removed after Open without affecting pages already
// read; changing it while mapped is not supported. Call [Mapped.Close] when done.
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
	m, data, err := fileio.MapElems[E](format, ErrUnsupported, f, size, h.DataOffset, h.Len())
	if err != nil {
		return nil, err
	}
	a, err := newArray(name, data, h, dim)
	if err != nil {
		m.Close()
		return nil, err
	}
	return &Mapped[E]{Array: a, Header: h, m: m}, nil
}
