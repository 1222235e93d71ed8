package npy

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/obskit/obskit/fileio"
)

// magic starts every .npy file.
const magic = "\x93NUMPY"

// headerLimit bounds the header length a reader accepts, so that a corrupt
// length field cannot make it allocate gigabytes. NumPy's own np.load refuses
// headers over 10,000 bytes unless told otherwise; real headers are about 128.
const headerLimit = 1 << 20

// A Header describes the array stored in a .npy file.
type Header struct {
	// Major and Minor are the format version: 1.0, 2.0 (4-byte header length)
	// or 3.0 (UTF-8 header).
	Major, Minor int
	// Dtype is the element type.
	Dtype Dtype
	// Fortran reports whether the data is stored in column-major (Fortran)
	// order; otherwise it is row-major (C order).
	Fortran bool
	// Shape is the shape of the array; empty for a 0-d array (one element).
	Shape []int
	// DataOffset is the number of bytes before the data: the magic, the version,
	// the header length and the header.
	DataOffset int64
}

// Len returns the number of elements: the product of Shape, 1 for a 0-d array.
// It returns -1 when a dimension is negative or the product overflows int, which
// no header returned by the readers has.
func (h Header) Len() int { return fileio.Len(h.Shape) }

// DataSize returns the number of bytes of the data, Len() * Dtype.Size. It
// returns -1 when that overflows int64, which no header returned by the readers
// does.
func (h Header) DataSize() int64 { return fileio.DataSize(h.Shape, h.Dtype.Size) }

// String returns the header in NumPy's notation, such as
// "{'descr': '<f4', 'fortran_order': False, 'shape': (7, 5), }".
func (h Header) String() string {
	order := "False"
	if h.Fortran {
		order = "True"
	}
	descr := h.Dtype.Descr
	if h.Dtype.Kind != 'V' || !strings.HasPrefix(descr, "[") {
		descr = "'" + descr + "'"
	}
	return "{'descr': " + descr + ", 'fortran_order': " + order + ", 'shape': " + shapeString(h.Shape) + ", }"
}

func shapeString(shape []int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, d := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(d))
	}
	if len(shape) == 1 {
		b.WriteByte(',')
	}
	b.WriteByte(')')
	return b.String()
}

// ReadHeader reads the header of a .npy stream and leaves r at the first byte of
// the data. It accepts format versions 1.0, 2.0 and 3.0 and any dtype, so that
// the header of a file the readers refuse can still be inspected. A malformed
// header, or a stream that ends inside it, returns an error wrapping [ErrFormat]
// (the latter also io.ErrUnexpectedEOF); other I/O errors keep their identity.
func ReadHeader(r io.Reader) (Header, error) {
	h, err := readHeader(r, -1)
	if err != nil {
		return Header{}, format.HeaderError("stream", err)
	}
	return h, nil
}

// Stat returns the header of the .npy file at path without reading its data. It
// checks that the file holds exactly the data the header describes.
func Stat(path string) (Header, error) {
	f, err := format.Open(path)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	h, size, err := fileHeader(f)
	if err != nil {
		return Header{}, err
	}
	if err := checkFileSize(f.Name(), h, size); err != nil {
		return Header{}, err
	}
	return h, nil
}

// fileHeader reads the header of an open file and returns it with the file size.
func fileHeader(f *os.File) (Header, int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return Header{}, 0, err
	}
	size := fi.Size()
	h, err := readHeader(f, size)
	if err != nil {
		return Header{}, 0, format.HeaderError(f.Name(), err)
	}
	return h, size, nil
}

// checkFileSize checks that a file of size bytes holds exactly the header and the
// data h describes. A dtype whose element size the descr does not give
// (structured, Python objects) cannot be checked; the readers refuse it before
// they get here.
func checkFileSize(name string, h Header, size int64) error {
	if h.Dtype.Size == 0 {
		return nil
	}
	return format.SizeError(name, size, h.DataOffset, h.DataSize(), h)
}

func sizeName(size int64) string {
	if size < 0 {
		return "stream"
	}
	return fmt.Sprintf("%d-byte file", size)
}

// readHeader reads a header from r. size is the size of the whole file, or -1
// when unknown; a known size bounds the header length before anything is
// allocated.
func readHeader(r io.Reader, size int64) (Header, error) {
	var pre [12]byte
	if _, err := io.ReadFull(r, pre[:8]); err != nil {
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			return Header{}, fileio.Formatf("%s ends before the magic string and version (8 bytes)", sizeName(size))
		}
		return Header{}, err
	}
	if string(pre[:6]) != magic {
		return Header{}, fileio.Formatf("magic %q, want %q", pre[:6], magic)
	}
	h := Header{Major: int(pre[6]), Minor: int(pre[7])}
	var hlen int64
	switch {
	case h.Major == 1 && h.Minor == 0:
		if _, err := io.ReadFull(r, pre[8:10]); err != nil {
			return Header{}, err
		}
		hlen = int64(binary.LittleEndian.Uint16(pre[8:10]))
		h.DataOffset = 10 + hlen
	case (h.Major == 2 || h.Major == 3) && h.Minor == 0:
		if _, err := io.ReadFull(r, pre[8:12]); err != nil {
			return Header{}, err
		}
		hlen = int64(binary.LittleEndian.Uint32(pre[8:12]))
		h.DataOffset = 12 + hlen
	default:
		return Header{}, fileio.Formatf("format version %d.%d, want 1.0, 2.0 or 3.0", h.Major, h.Minor)
	}
	if hlen > headerLimit {
		return Header{}, fileio.Formatf("header length %d exceeds the limit of %d bytes", hlen, headerLimit)
	}
	if size >= 0 && h.DataOffset > size {
		return Header{}, fileio.Formatf("header length %d runs past the end of the %d-byte file", hlen, size)
	}
	buf := make([]byte, hlen)
	if _, err := io.ReadFull(r, buf); err != nil {
		return Header{}, err
	}
	if err := h.parseDict(buf); err != nil {
		return Header{}, err
	}
	return h, nil
}

// parseDict fills h from the header dict.
func (h *Header) parseDict(buf []byte) error {
	if i := bytes.IndexByte(buf, 0); i >= 0 {
		return fileio.Formatf("header has a NUL byte at %d", i)
	}
	dict, err := parseDict(string(buf))
	if err != nil {
		return fileio.Formatf("header %q: %v", trim(string(buf)), err)
	}
	seen := map[string]bool{}
	tooLarge := false
	for i := 0; i < len(dict.items); i += 2 {
		key, val := dict.items[i].str, dict.items[i+1]
		if seen[key] {
			return fileio.Formatf("header key %q appears twice", key)
		}
		seen[key] = true
		switch key {
		case "descr":
			switch val.kind {
			case pyStr:
				h.Dtype, tooLarge = parseDescr(val.str)
			case pyList:
				h.Dtype = Dtype{Descr: val.raw, Kind: 'V'}
			default:
				return fileio.Formatf("header 'descr' is a %s (%s), want a string or a list", val.kind, trim(val.raw))
			}
		case "fortran_order":
			if val.kind != pyBool {
				return fileio.Formatf("header 'fortran_order' is %s, want True or False", trim(val.raw))
			}
			h.Fortran = val.num == 1
		case "shape":
			if err := h.parseShape(val); err != nil {
				return err
			}
		default:
			return fileio.Formatf("header has an unknown key %q (want 'descr', 'fortran_order' and 'shape')", key)
		}
	}
	for _, k := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			return fileio.Formatf("header has no %q key", k)
		}
	}
	return h.checkSize(tooLarge)
}

func (h *Header) parseShape(val pyValue) error {
	if val.kind != pyTuple {
		return fileio.Formatf("header 'shape' is %s, want a tuple", trim(val.raw))
	}
	h.Shape = make([]int, len(val.items))
	for i, it := range val.items {
		if it.kind != pyInt || it.num < 0 || it.num > math.MaxInt {
			return fileio.Formatf("header 'shape' %s: dimension %d is %s, want an integer >= 0", trim(val.raw), i, it.raw)
		}
		h.Shape[i] = int(it.num)
	}
	return nil
}

// maxOffset is the longest header a reader accepts: magic, version, a 4-byte
// length and headerLimit bytes of dict.
const maxOffset = 12 + headerLimit

// checkSize checks that the data h describes fits in [fileio.MaxSize] bytes
// behind the longest header a reader accepts: the product of the dimensions
// (zeros counted as ones, so that strides cannot overflow either) times the
// element size (see [fileio.Extent]). Bounding the data by the longest header
// rather than h's own keeps the check independent of the header's padding: a
// header the readers accept stays accepted when written again. tooLarge reports
// an element size that already overflows. Such a header describes no file that
// can exist, so it is malformed.
func (h *Header) checkSize(tooLarge bool) error {
	if _, ok := fileio.Extent(h.Shape, h.Dtype.Size, maxOffset); !ok || tooLarge {
		return fileio.Formatf("shape %s of %s is too large: its data would take more than %d bytes", shapeString(h.Shape), h.Dtype, fileio.MaxSize-maxOffset)
	}
	return nil
}
