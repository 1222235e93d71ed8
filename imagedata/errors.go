package imagedata

import (
	"errors"
	"fmt"
)

var (
	// ErrFormat is wrapped by every error about a malformed .lst file: a line
	// with fewer than three fields, an index or a label that is not a number.
	// The message names the file and the line.
	ErrFormat = errors.New("malformed .lst file")
	// ErrLabel is wrapped by the error of [OpenList] and [OpenRecords] when the
	// label function refuses an image's labels, such as a label 1.5 given to
	// [Class]; the function's error is wrapped too. The message names the file
	// and the entry or record.
	ErrLabel = errors.New("invalid label")
	// ErrRead is wrapped by the value a read of an observation panics with
	// when the image cannot be read: a file that is missing or unreadable, a
	// record that is not a valid image record. The message names the file (and
	// the record's key and offset); the cause is wrapped too (errors.Is finds
	// fs.ErrNotExist or recordio.ErrFormat).
	ErrRead = errors.New("cannot read image")
)

// readError returns the error of a failed read of where in file.
func readError(file, where string, err error) error {
	if where != "" {
		where += ": "
	}
	return fmt.Errorf("imagedata: %s: %w: %s%w", file, ErrRead, where, err)
}

// labelError returns the error of a label function about where in file,
// wrapping ErrLabel.
func labelError(file, where string, err error) error {
	return fmt.Errorf("imagedata: %s: %w: %s: %w", file, ErrLabel, where, err)
}
