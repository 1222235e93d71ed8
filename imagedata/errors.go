package imagedata

import (
	"errors"
	"fmt"
)

var (
	// ErrFormat is wrapped by every error about a malformed .lst file: a line
	// with fewer than three fields, an index or a label that is not a number.
	// The message names the file and the line.
	ErrFormat = errors.New("malformed image list")
	// ErrLabel is wrapped by the error of a label the caller's label function
	// refuses, such as a label 1.5 given to [Class]. The message names the
	// file and the line or record.
	ErrLabel = errors.New("invalid label")
	// ErrEmpty is wrapped by the error of [OpenFolder] for a folder without
	// class folders, or with a class folder that holds no image (unless
	// [FolderOptions].AllowEmpty).
	ErrEmpty = errors.New("no images")
	// ErrRead is wrapped by the value a read of an observation panics with
	// when the image cannot be read: a file that is missing or unreadable, a
	// record that is not a valid image record. The message names the file (and
	// the record's key and offset); the cause is wrapped too (errors.Is finds
	// fs.ErrNotExist or recordio.ErrFormat).
	ErrRead = errors.New("cannot read image")
)

// readError returns the error of a failed read of where.
func readError(where string, err error) error {
	return fmt.Errorf("imagedata: %s: %w: %w", where, ErrRead, err)
}

// labelError returns the error of a label function about where, wrapping
// ErrLabel.
func labelError(where string, err error) error {
	if errors.Is(err, ErrLabel) {
		return fmt.Errorf("imagedata: %s: %w", where, err)
	}
	return fmt.Errorf("imagedata: %s: %w: %w", where, ErrLabel, err)
}
