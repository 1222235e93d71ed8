package columnar

import (
	"errors"

	"github.com/obskit/obskit/fileio"
)

// The errors the column accessors of the format packages (arrowipc, parquet)
// wrap, so that one errors.Is works whatever the file's format. Each format
// package re-exports them under the same names.
var (
	// ErrColumn is wrapped by the error for a column name the file does not have.
	ErrColumn = errors.New("no such column")
	// ErrType is wrapped by the error for a column whose type the accessor cannot
	// read as asked: Numbers[float32] of an int64 column, Strings of a list. It is
	// the kit's one ErrType of file formats (npy.ErrType is the same value).
	ErrType = fileio.ErrType
	// ErrNull is wrapped by the error for a column that holds nulls, read without
	// saying what a null becomes (a fill value, or empty): the kit never reads a
	// null as a silent zero.
	ErrNull = errors.New("column holds nulls")
)
