//go:build !linux

package imagedata

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// readFile appends the contents of file i, which the caller has checked, to
// dst: [Files.AppendObs]. os.Open allocates a File for every file (the Linux
// build reads with system calls instead).
func (f *Files) readFile(dst []byte, i int) ([]byte, error) {
	path := f.Path(i)
	fl, err := os.Open(path)
	if err != nil {
		return dst, readError(path, "", unwrapPath(err))
	}
	defer fl.Close()
	at := len(dst)
	if dst == nil {
		dst = []byte{}
	}
	for {
		if len(dst) == cap(dst) {
			dst = slices.Grow(dst, max(512, len(dst)-at))
		}
		n, err := fl.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst[:at], readError(path, "", unwrapPath(err))
		}
	}
}

// unwrapPath drops the *fs.PathError around err, whose path the message names
// already.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}
