package npy

import (
	"errors"

	"github.com/obskit/obskit/fileio"
)

var (
	// ErrFormat is wrapped by every error about a file that is not a valid .npy
	// file: a bad magic string or version, a header that does not parse, a shape
	// that is negative or overflows, data shorter or longer than the header says.
	ErrFormat = errors.New("malformed .npy file")
	// ErrUnsupported is wrapped by errors about valid .npy files the kit does not
	// read: dtypes other than bool, integers and float32/float64 (complex,
	// float16, strings, objects, structured records), and files that cannot be
	// memory-mapped as they are (non-native byte order, misaligned data, a 0-d
	// array as a container). It is the kit's one ErrUnsupported, shared by every
	// file-format package (idx.ErrUnsupported is the same value), and
	// errors.Is(err, errors.ErrUnsupported) holds too.
	ErrUnsupported = fileio.ErrUnsupported
	// ErrType is wrapped by the error of a typed reader asked for an element
	// type other than the file's, such as Open[float64] on a float32 file. The
	// message names both. It is the kit's one ErrType (idx.ErrType is the same
	// value).
	ErrType = fileio.ErrType
	// ErrFault is wrapped by the value a read or write of a memory-mapped array
	// panics with when the memory faults: the file was truncated after [Open]
	// (or its storage failed), so the pages the array views no longer exist. It
	// is the kit's one ErrFault (idx.ErrFault is the same value).
	ErrFault = fileio.ErrFault
)

// format reports errors in this package's words.
var format = fileio.Format{Pkg: "npy", Malformed: ErrFormat}
