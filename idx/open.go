package idx

import (
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/fileio"
	"github.com/obskit/obskit/obsdim"
)

// Open memory-maps the IDX file at path as an array with observations along dim,
// reading only its header: the array's storage is the file itself, and pages are
// read when observations are first touched. The mapping is copy-on-write: writes
// through the array never reach the file. There is nothing to close: the mapping
// lives while the array or a view of it is reachable, with the lifetime and fault
// handling of npy.Open (a file truncated while mapped makes the array's methods
// panic with an error wrapping [ErrFault]).
//
// Only one-byte elements can be mapped on a little-endian machine, since IDX
// stores numbers big-endian: MNIST images and labels (uint8) map; for other
// element types, and for gzip-compressed files, Open returns an error wrapping
// [ErrUnsupported] that points to [Load]. On platforms without mmap support the
// file is read into memory. Other errors are those of Load.
func Open[E arraycontainer.Number](path string, dim obsdim.Dim) (*arraycontainer.Array[E], error) {
	f, err := format.Open(path)
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
		return nil, format.ByteOrderError(name, "big-endian "+h.GoType())
	}
	return fileio.MapArray(format, f, size, h.DataOffset, h.Len(), func(data []E) (*arraycontainer.Array[E], error) {
		return newArray(name, data, h, dim)
	})
}
