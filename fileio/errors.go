package fileio

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// The sentinels every file-format package of the kit shares. A package
// re-exports those it returns under the same names (var ErrType =
// fileio.ErrType), so that npy.ErrType, idx.ErrType and the others are one
// value: errors.Is(err, npy.ErrType) holds for an idx error too, and a program
// that reads several formats tests once. A package defines its own sentinel
// only for what names its format, such as its ErrFormat ("malformed .npy
// file").
var (
	// ErrType is wrapped by the error of a typed reader asked for an element
	// type other than the file's (Open[float64] on a float32 file); the message
	// names both.
	ErrType = errors.New("element type mismatch")
	// ErrUnsupported is wrapped by errors about a valid file the package does not
	// read, or cannot read the way it was asked (map it, decode it): a dtype or
	// codec it lacks, data that cannot be mapped as it is. The message says why
	// and what to use instead. errors.Is(err, errors.ErrUnsupported) holds too.
	ErrUnsupported error = unsupported{}
	// ErrFault is wrapped by the value a read or write of a memory-mapped
	// container panics with when the memory faults: the file was truncated after
	// it was opened (or its storage failed), so the pages it views are gone.
	ErrFault = errors.New("memory-mapped file fault")
	// ErrTooLarge is wrapped by the error about a file or stream that claims more
	// data than the reader's limit (a decompressed size, a record length, an
	// image's pixels); the file may be valid, and the message names the claim and
	// the limit to raise.
	ErrTooLarge = errors.New("data over the size limit")
)

// unsupported is ErrUnsupported: its own words, and errors.ErrUnsupported behind.
type unsupported struct{}

func (unsupported) Error() string { return "unsupported file" }
func (unsupported) Unwrap() error { return errors.ErrUnsupported }

// A FormatError is a problem with the bytes of a file found by a header reader.
// [Format.HeaderError] wraps it with the package's malformed-file sentinel.
type FormatError struct{ msg string }

// Error returns the description of the problem.
func (e *FormatError) Error() string { return e.msg }

// Formatf returns a [*FormatError].
func Formatf(format string, args ...any) error {
	return &FormatError{fmt.Sprintf(format, args...)}
}

// Name returns the name errors give the stream r: r.Name() when r has that
// method (an *os.File) and "stream" otherwise.
func Name(r io.Reader) string {
	if n, ok := r.(interface{ Name() string }); ok {
		return n.Name()
	}
	return "stream"
}

// A Format names a file-format package and its malformed-file sentinel, so that
// shared code reports errors in the package's words: "npy: x.npy: malformed
// .npy file: truncated: ...".
type Format struct {
	Pkg       string // the package name, the first word of every message
	Malformed error  // the package's ErrFormat
}

// Errorf returns the error "pkg: name: sentinel: message", wrapping sentinel.
func (f Format) Errorf(name string, sentinel error, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %w: %s", f.Pkg, name, sentinel, fmt.Sprintf(format, args...))
}

// Open opens the file at path for reading; its error is the *os.PathError of
// os.Open (which names the file and the operation) behind the package prefix:
// "npy: open x.npy: no such file or directory", and errors.Is(err,
// fs.ErrNotExist) holds.
func (f Format) Open(path string) (*os.File, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Pkg, err)
	}
	return file, nil
}

// Wrap returns the error "pkg: name: err", wrapping err.
func (f Format) Wrap(name string, err error) error {
	return fmt.Errorf("%s: %s: %w", f.Pkg, name, err)
}

// HeaderError reports an error of reading a header: a [*FormatError] or an early
// end wraps Malformed (an early end also io.ErrUnexpectedEOF); an error that
// already wraps Malformed is returned as it is; any other I/O error keeps its
// identity and gains the prefix.
func (f Format) HeaderError(name string, err error) error {
	var fe *FormatError
	switch {
	case errors.As(err, &fe):
		return f.Errorf(name, f.Malformed, "%s", fe.msg)
	case errors.Is(err, f.Malformed):
		return err
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return fmt.Errorf("%s: %s: %w: header: %w", f.Pkg, name, f.Malformed, io.ErrUnexpectedEOF)
	}
	return f.Wrap(name, err)
}

// SizeError returns nil when a file of size bytes holds exactly the offset bytes
// of header and data bytes of data its header describes, and otherwise an error
// wrapping Malformed that says whether the file is truncated or has trailing
// bytes.
func (f Format) SizeError(name string, size, offset, data int64, header any) error {
	want := offset + data
	if size == want {
		return nil
	}
	what := "truncated"
	if size > want {
		what = "trailing bytes after the data"
	}
	return f.Errorf(name, f.Malformed, "%s: file has %d bytes, header %v says %d (%d of header and %d of data)",
		what, size, header, want, offset, data)
}

// DataError reports an error of [ReadElems] that read got of n elements: an early
// end wraps Malformed and io.ErrUnexpectedEOF, an error that already wraps
// Malformed is returned as it is, others gain the prefix.
func (f Format) DataError(name string, err error, got, n int, header any) error {
	switch {
	case errors.Is(err, f.Malformed):
		return err
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s: %s: %w: truncated: %d of the %d elements of %v: %w", f.Pkg, name, f.Malformed, got, n, header, io.ErrUnexpectedEOF)
	}
	return f.Wrap(name, err)
}
