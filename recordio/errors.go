package recordio

import (
	"errors"
	"fmt"
	"io"

	"github.com/obskit/obskit/fileio"
)

var (
	// ErrFormat is wrapped by every error about bytes that are not valid
	// RecordIO: a bad magic number, a part flag out of place, a length past the
	// end of the file, a split record cut short, trailing bytes that are no
	// record, an image record shorter than its header and labels, a malformed
	// index line, an index offset that is not the start of a record.
	ErrFormat = errors.New("malformed RecordIO file")
	// ErrTooLarge is wrapped by the error of writing a record of 2^29 bytes or
	// more, which the format cannot hold (dmlc-core refuses them too). It is
	// the kit's one ErrTooLarge of file formats (fileio's).
	ErrTooLarge = fileio.ErrTooLarge
	// ErrFault is wrapped by the value a read of a memory-mapped [File]
	// panics with when the memory faults: the file was truncated after [Open]
	// (or its storage failed), so the pages of the record no longer exist. It
	// is the kit's one ErrFault of file formats (fileio's).
	ErrFault = fileio.ErrFault
)

// format reports errors in this package's words.
var format = fileio.Format{Pkg: "recordio", Malformed: ErrFormat}

// truncated returns an error about bytes cut short by the end of a file,
// wrapping both ErrFormat and io.ErrUnexpectedEOF.
func truncated(name, msg string, args ...any) error {
	return fmt.Errorf("recordio: %s: %w: %s: %w", name, ErrFormat, fmt.Sprintf(msg, args...), io.ErrUnexpectedEOF)
}
