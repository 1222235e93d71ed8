package idx

import (
	"bytes"
	"errors"
	"io"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/fileio"
	"github.com/obskit/obskit/obsdim"
)

// Load reads the IDX file at path into memory as a row-major array with
// observations along dim (obsdim.First makes each image of an MNIST file one
// observation). Multi-byte elements are converted from big-endian. A
// gzip-compressed file (train-images-idx3-ubyte.gz as downloaded) is decompressed
// on the fly, up to [DefaultLimit] bytes of data; [LoadWith] sets another limit.
// The data is allocated once: a plain file's size is checked against its header
// first, a gzip file's claim against its compressed size and the limit.
//
// Load returns an error naming the file that wraps [ErrFormat] for a malformed
// or truncated file, [ErrTooLarge] for gzip data over the limit, [ErrType] when
// the file's element type is not E (use [Stat] first when it is only known at
// run time), [arraycontainer.ErrShape] for more axes than an array may have and
// [obsdim.ErrAxis] when dim names no axis.
func Load[E arraycontainer.Number](path string, dim obsdim.Dim) (*arraycontainer.Array[E], error) {
	return LoadWith[E](path, dim, Options{})
}

// LoadWith is [Load] with options: opts.Limit bounds the decompressed size of a
// gzip-compressed file (see [Options]).
func LoadWith[E arraycontainer.Number](path string, dim obsdim.Dim, opts Options) (*arraycontainer.Array[E], error) {
	f, err := format.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h, _, r, err := openFile(f)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	name := f.Name()
	if err := checkType[E](name, h); err != nil {
		return nil, err
	}
	if h.Gzip {
		if err := opts.checkLimit(name, h); err != nil {
			return nil, err
		}
	}
	// A plain file holds the data (openFile checked its size); gzip data was
	// checked against the limit: both are allocated once.
	a, err := readData[E](r, name, h, h.DataSize(), dim)
	if err == nil && h.Gzip {
		err = checkEnd(r, name)
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

// Read reads one IDX array from r into memory, as [Load] does, gzip included.
// Memory is not trusted to a header: plain data is allocated once when r is an
// io.Seeker that can tell its size (a file, a bytes.Reader) and holds it, and
// otherwise grows with the data actually read, from 1 MiB, so that a header that
// claims more than the stream holds fails having allocated at most 1 MiB. Gzip
// data is allocated once at the size its header claims, after checking the claim
// against [DefaultLimit] ([ReadWith] sets another limit) and, when r can tell its
// size, against what the compressed bytes can hold. A plain stream is left just
// after the data; a gzip stream must end with it. Errors are those of Load,
// naming r.Name() when r has that method and "stream" otherwise.
func Read[E arraycontainer.Number](r io.Reader, dim obsdim.Dim) (*arraycontainer.Array[E], error) {
	return ReadWith[E](r, dim, Options{})
}

// ReadWith is [Read] with options: opts.Limit bounds the decompressed size of a
// gzip-compressed stream (see [Options]).
func ReadWith[E arraycontainer.Number](r io.Reader, dim obsdim.Dim, opts Options) (*arraycontainer.Array[E], error) {
	name := fileio.Name(r)
	rest := fileio.Remaining(r) // before anything is read: the whole stream
	var start [2]byte
	n, err := io.ReadFull(r, start[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, format.Wrap(name, err)
	}
	r = io.MultiReader(bytes.NewReader(start[:n]), r)
	gz := isGzip(start[:n])
	if gz {
		zr, err := gunzip(r, name)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		r = zr
	}
	h, err := readHeader(r, -1)
	if err != nil {
		return nil, format.HeaderError(name, err)
	}
	h.Gzip = gz
	if err := checkType[E](name, h); err != nil {
		return nil, err
	}
	avail := int64(fileio.Unknown)
	switch {
	case gz:
		if err := checkInflate(name, h, rest); err != nil {
			return nil, err
		}
		if err := opts.checkLimit(name, h); err != nil {
			return nil, err
		}
		avail = h.DataSize()
	case rest != fileio.Unknown:
		avail = rest - h.DataOffset
	}
	a, err := readData[E](r, name, h, avail, dim)
	if err == nil && gz {
		err = checkEnd(r, name)
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

// checkEnd checks that a gzip stream ends right after the data, with a valid
// trailer: gzip verifies its checksum and length only on reaching the end.
func checkEnd(r io.Reader, name string) error {
	var b [1]byte
	n, err := io.ReadFull(r, b[:])
	switch {
	case n != 0:
		return format.Errorf(name, ErrFormat, "trailing bytes after the data in the gzip stream")
	case errors.Is(err, ErrFormat):
		return err
	case err != io.EOF:
		return format.Errorf(name, ErrFormat, "gzip stream after the data: %v", err)
	}
	return nil
}

// readData reads the data h describes from r, which is at its first byte and
// holds avail more bytes (or [fileio.Unknown]); h's element type is E.
func readData[E arraycontainer.Number](r io.Reader, name string, h Header, avail int64, dim obsdim.Dim) (*arraycontainer.Array[E], error) {
	data, got, err := fileio.ReadSwapped[E](r, h.Len(), avail, fileio.LittleEndian)
	if err != nil {
		return nil, format.DataError(name, err, got, h.Len(), h)
	}
	return newArray(name, data, h, dim)
}

func checkType[E arraycontainer.Number](name string, h Header) error {
	if got, want := kinds[h.Type], fileio.KindOf[E](); got != want {
		return format.Errorf(name, ErrType, "file holds %s, not %s", got, fileio.TypeName[E]())
	}
	return nil
}

func newArray[E arraycontainer.Number](name string, data []E, h Header, dim obsdim.Dim) (*arraycontainer.Array[E], error) {
	a, err := arraycontainer.New(data, h.Shape, dim)
	if err != nil {
		return nil, format.Wrap(name, err)
	}
	return a, nil
}
