package npy

import (
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/fileio"
	"github.com/obskit/obskit/obsdim"
)

// Open memory-maps the .npy file at path as an array with observations along dim:
// the array's storage is the file itself. It reads the header only: opening costs
// the same for any file size, and the operating system reads pages when
// observations are first touched and keeps them in its page cache, so a file
// larger than memory can be used. Fortran order becomes strides. The mapping is
// copy-on-write: writes through the array (Set, Data) change private copies of the
// touched pages, never the file.
//
// There is nothing to close. The mapping lives as long as the array or any view of
// it (ObsRange, Range, Transpose, WithDim...) is reachable, and is released by a
// cleanup after a garbage collection, as numpy.memmap's is: return the array from a
// helper, keep only a view, or put it in a tuple, and it stays valid. Batches from
// GetObsInto, observations from GetObs and copies from Clone are Go memory and do
// not keep the mapping; neither does a slice from Data (keep the array alive while
// using one, see arraycontainer.Array.Data). The file may be removed or renamed
// after Open.
//
// The file must not be truncated or rewritten while mapped: the pages it loses
// cannot be read, and the array's methods (GetObs, GetObsInto, Clone, At, Set,
// Fill, Equal, String...) then panic with an error wrapping [ErrFault] that names
// the file and the offset, and [Write] returns one, where the program would
// otherwise die of SIGBUS. Reads through Data are not guarded and still crash.
//
// Mapping needs the data in the machine's byte order and aligned for E (NumPy
// aligns it to 64 bytes): otherwise Open returns an error wrapping
// [ErrUnsupported] that says why; [Load] converts such files in memory. On
// platforms without mmap support the file is read into memory.
//
// Open returns the errors of [Load] otherwise.
func Open[E arraycontainer.Number](path string, dim obsdim.Dim) (*arraycontainer.Array[E], error) {
	f, err := format.Open(path)
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
		return nil, format.ByteOrderError(name, h.Dtype.String())
	}
	return fileio.MapArray(format, f, size, h.DataOffset, h.Len(), func(data []E) (*arraycontainer.Array[E], error) {
		return newArray(name, data, h, dim)
	})
}
