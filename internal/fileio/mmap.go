package fileio

import (
	"os"
	"unsafe"

	"github.com/obskit/obskit/internal/mmap"
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
