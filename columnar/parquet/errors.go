package parquet

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/fileio"
)

var (
	// ErrFormat is wrapped by every error about a file that is not valid
	// Parquet: a bad magic, a truncated footer, a footer whose counts disagree
	// with each other or with the data, a page that does not decode.
	ErrFormat = errors.New("malformed Parquet file")
	// ErrSchema is wrapped by the error of Open for files of one table whose
	// schemas differ.
	ErrSchema = errors.New("schemas differ")
	// ErrUnsupported is wrapped by errors about columns the package has no
	// container for (structs, maps, nested lists, decimals, INT96).
	// ErrUnsupported, ErrFault and ErrType are the kit's shared sentinels of
	// file formats (npy.ErrFault is the same value).
	ErrUnsupported = fileio.ErrUnsupported
	// ErrFault is wrapped by the panic value of a read of a mapped file that
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

var fmtErr = fileio.Format{Pkg: "parquet", Malformed: ErrFormat}

// pathErr returns an error of the file system about path with the package's
// prefix, naming the path once: "parquet: open x.parquet: no such file or
// directory".
func pathErr(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("parquet: %w", err)
	}
	return fmtErr.Wrap(path, err)
}
