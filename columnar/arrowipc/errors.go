package arrowipc

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/fileio"
)

var (
	// ErrFormat is wrapped by every error about a file that is not a valid Arrow
	// IPC file or stream: a bad magic, a truncated message or footer, a buffer
	// outside its batch, offsets that run backwards.
	ErrFormat = errors.New("malformed Arrow IPC file")
	// ErrUnsupported is wrapped by errors about valid files the package does not
	// read: big-endian data, delta dictionaries, column types it has no
	// container for. ErrUnsupported, ErrFault and ErrType are the kit's shared
	// sentinels of file formats (npy.ErrFault is the same value).
	ErrUnsupported = fileio.ErrUnsupported
	// ErrFault is wrapped by the panic value of a read of the mapping that
	// faulted (the file was truncated while mapped).
	ErrFault = fileio.ErrFault

	// ErrColumn is wrapped by the error for a column the file lacks
	// (columnar.ErrColumn, shared by the formats).
	ErrColumn = columnar.ErrColumn
	// ErrType is wrapped by the error for a column read as a type it does not
	// hold (the kit's one ErrType of file formats).
	ErrType = columnar.ErrType
	// ErrNull is wrapped by the error for a column holding nulls read without
	// saying what a null becomes (columnar.ErrNull).
	ErrNull = columnar.ErrNull
)

var fmtErr = fileio.Format{Pkg: "arrowipc", Malformed: ErrFormat}

// pathErr returns an error of the file system about path with the package's
// prefix, naming the path once: "arrowipc: open x.arrow: no such file or
// directory".
func pathErr(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("arrowipc: %w", err)
	}
	return fmtErr.Wrap(path, err)
}
