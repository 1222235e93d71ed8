package npy

import (
	"io"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/fileio"
	"github.com/obskit/obskit/obsdim"
)

// Load reads the .npy file at path into memory as an array with observations
// along dim. Big-endian data is converted to the machine's byte order; Fortran
// order becomes strides, with no copy. Load checks the header against the file
// size before allocating, and allocates the data once.
//
// Load returns an error naming the file that wraps [ErrFormat] for a malformed or
// truncated file, [ErrUnsupported] for a dtype the kit does not read, [ErrType]
// when the file's dtype is not E (use [Stat] first when the dtype is only known at
// run time), [arraycontainer.ErrShape] for more axes than an array may have, and
// [obsdim.ErrAxis] when dim names no axis of the array. A bool file reads as uint8.
func Load[E arraycontainer.Number](path string, dim obsdim.Dim) (*arraycontainer.Array[E], error) {
	f, err := format.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h, size, err := fileHeader(f)
	if err != nil {
		return nil, err
	}
	if err := checkType[E](f.Name(), h); err != nil {
		return nil, err
	}
	if err := checkFileSize(f.Name(), h, size); err != nil {
		return nil, err
	}
	return readData[E](f, f.Name(), h, h.DataSize(), dim)
}

// Read reads one .npy array from r into memory, as [Load] does, and leaves r just
// after its data, so several arrays written one after another to one stream are
// read by calling Read again. A header is not trusted with memory before the
// stream shows it holds the data: when r is an io.Seeker that can tell its size
// (a file, a bytes.Reader) the data is allocated once if the rest of r holds it;
// otherwise memory grows with the data actually read, from 1 MiB. A header that
// claims more data than the stream holds costs at most 1 MiB before the error,
// and a short seekable stream no more than its size. Errors are
// those of Load, naming r.Name() when r has that method (an *os.File) and
// "stream" otherwise; a stream that ends early gives an error wrapping both
// [ErrFormat] and [io.ErrUnexpectedEOF].
func Read[E arraycontainer.Number](r io.Reader, dim obsdim.Dim) (*arraycontainer.Array[E], error) {
	name := fileio.Name(r)
	h, err := readHeader(r, -1)
	if err != nil {
		return nil, format.HeaderError(name, err)
	}
	if err := checkType[E](name, h); err != nil {
		return nil, err
	}
	return readData[E](r, name, h, fileio.Remaining(r), dim)
}

// readData reads the data h describes from r, which is at its first byte and is
// known to hold avail more bytes (or [fileio.Unknown]); h's dtype is E.
func readData[E arraycontainer.Number](r io.Reader, name string, h Header, avail int64, dim obsdim.Dim) (*arraycontainer.Array[E], error) {
	data, got, err := fileio.ReadSwapped[E](r, h.Len(), avail, h.Dtype.swapped())
	if err != nil {
		return nil, format.DataError(name, err, got, h.Len(), h)
	}
	return newArray(name, data, h, dim)
}

// checkType checks that the readers support h's dtype and that it is E.
func checkType[E arraycontainer.Number](name string, h Header) error {
	if !h.Dtype.supported() {
		return format.Errorf(name, ErrUnsupported, "dtype %s (want bool, int8 to int64, uint8 to uint64, float32 or float64)", h.Dtype)
	}
	if got, want := h.Dtype.kind(), fileio.KindOf[E](); got != want {
		return format.Errorf(name, ErrType, "file holds %s (Go %s), not %s", h.Dtype, got, fileio.TypeName[E]())
	}
	return nil
}

// newArray views data with h's shape and order: Fortran order becomes strides.
func newArray[E arraycontainer.Number](name string, data []E, h Header, dim obsdim.Dim) (*arraycontainer.Array[E], error) {
	var a *arraycontainer.Array[E]
	var err error
	if h.Fortran && len(h.Shape) > 1 {
		strides := make([]int, len(h.Shape))
		s := 1
		for i, d := range h.Shape {
			strides[i] = s
			s *= max(d, 1)
		}
		a, err = arraycontainer.NewStrided(data, h.Shape, strides, 0, dim)
	} else {
		a, err = arraycontainer.New(data, h.Shape, dim)
	}
	if err != nil {
		return nil, format.Wrap(name, err)
	}
	return a, nil
}
