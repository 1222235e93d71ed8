package fileio

import (
	"os"
	"unsafe"

	"github.com/obskit/obskit/fileio/mmap"
)

// MapElems maps the size-byte file f and returns the region and the count
// elements of E that start at byte off, viewed without copying. The caller has
// checked that off + count*sizeof(E) <= size, and attaches the region to the
// array it makes of the elements (mmap.Attach), which keeps the mapping alive.
//
// Errors are in fm's words and name f: when off is not a multiple of E's
// alignment MapElems unmaps and returns an error wrapping [ErrUnsupported] that
// points to Load, which reads such files; a failure to map keeps its identity
// behind the prefix. Faults in the region wrap [ErrFault] (see
// mmap.Region.Guard).
func MapElems[E Elem](fm Format, f *os.File, size, off int64, count int) (*mmap.Region, []E, error) {
	r, err := mmap.Map(f, size, fm.Pkg, ErrFault)
	if err != nil {
		return nil, nil, fm.Wrap(f.Name(), err)
	}
	var z E
	data, ok := View[E](r.Bytes()[off : off+int64(count)*int64(unsafe.Sizeof(z))])
	if !ok {
		r.Release()
		return nil, nil, fm.Errorf(f.Name(), ErrUnsupported, "data at byte %d is not aligned for %s and cannot be memory-mapped; use Load", off, TypeName[E]())
	}
	return r, data, nil
}

// MapArray maps count elements of E at byte off of f as [MapElems] does, makes
// the array A of them with build, and attaches the mapping to it (mmap.Attach),
// so that the mapping lives while the array or a view of it is reachable. When
// build fails the mapping is released and its error returned as it is.
func MapArray[E Elem, A any](fm Format, f *os.File, size, off int64, count int, build func([]E) (A, error)) (A, error) {
	r, data, err := MapElems[E](fm, f, size, off, count)
	if err != nil {
		var zero A
		return zero, err
	}
	a, err := build(data)
	if err != nil {
		r.Release()
		return a, err
	}
	mmap.Attach(a, r)
	return a, nil
}

// ByteOrderError returns the error, wrapping [ErrUnsupported], that refuses to
// map the data of the file name, described by what (such as ">f4" or
// "big-endian int32"), because its byte order is not the machine's: a mapping is
// the file's bytes and cannot be converted in place, and the package's Load
// converts.
func (fm Format) ByteOrderError(name, what string) error {
	order := "little"
	if !LittleEndian {
		order = "big"
	}
	return fm.Errorf(name, ErrUnsupported, "%s data cannot be memory-mapped on this %s-endian machine (a mapping is the file's bytes and cannot be converted in place); use Load, which converts", what, order)
}
