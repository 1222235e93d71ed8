package idx

import (
	"errors"

	"github.com/obskit/obskit/fileio"
)

var (
	// ErrFormat is wrapped by every error about a file that is not a valid IDX
	// file: a magic number without its two zero bytes, an unknown element type,
	// rank 0, a shape that overflows, data shorter or longer than the header says,
	// a damaged gzip stream.
	ErrFormat = errors.New("malformed IDX file")
	// ErrUnsupported is wrapped by the error of [Open] for a file that cannot be
	// memory-mapped as it is: multi-byte elements (IDX stores them big-endian)
	// on a little-endian machine, or a gzip-compressed file. [Load] reads both.
	// It is the kit's one ErrUnsupported (npy.ErrUnsupported is the same value),
	// and errors.Is(err, errors.ErrUnsupported) holds too.
	ErrUnsupported = fileio.ErrUnsupported
	// ErrType is wrapped by the error of a typed reader asked for an element type
	// other than the file's, such as Load[float32] on a uint8 file. The message
	// names both. It is the kit's one ErrType (npy.ErrType is the same value).
	ErrType = fileio.ErrType
	// ErrTooLarge is wrapped by the error of [Load] and [Read] (and LoadWith,
	// ReadWith) for a gzip-compressed file or stream whose header claims more
	// decompressed data than the limit ([DefaultLimit], or [Options.Limit]).
	// The message names the claim and the limit. The file may well be valid:
	// raise the limit to read it. It is the kit's one ErrTooLarge.
	ErrTooLarge = fileio.ErrTooLarge
	// ErrFault is wrapped by the value a read or write of a memory-mapped array
	// panics with when the memory faults: the file was truncated after [Open]
	// (or its storage failed), so the pages the array views no longer exist. It
	// is the kit's one ErrFault (npy.ErrFault is the same value).
	ErrFault = fileio.ErrFault
)

// format reports errors in this package's words.
var format = fileio.Format{Pkg: "idx", Malformed: ErrFormat}
