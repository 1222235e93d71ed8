package idx

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/obskit/obskit/fileio"
)

// Element type codes of the IDX format (the third byte of the magic number).
const (
	Uint8   byte = 0x08 // unsigned byte
	Int8    byte = 0x09 // signed byte
	Int16   byte = 0x0B // 2-byte big-endian integer
	Int32   byte = 0x0C // 4-byte big-endian integer
	Float32 byte = 0x0D // 4-byte big-endian IEEE float
	Float64 byte = 0x0E // 8-byte big-endian IEEE float
)

var kinds = map[byte]fileio.Kind{
	Uint8:   {Class: 'u', Size: 1},
	Int8:    {Class: 'i', Size: 1},
	Int16:   {Class: 'i', Size: 2},
	Int32:   {Class: 'i', Size: 4},
	Float32: {Class: 'f', Size: 4},
	Float64: {Class: 'f', Size: 8},
}

// A Header describes the array of an IDX file: its magic number (two zero bytes,
// the element type, the rank) and its dimensions. MNIST images have magic
// 0x00000803 (uint8, rank 3: count, rows, columns), labels 0x00000801.
type Header struct {
	// Type is the element type code: [Uint8], [Int8], [Int16], [Int32],
	// [Float32] or [Float64].
	Type byte
	// Shape holds the dimensions, the first being the number of items.
	Shape []int
	// DataOffset is the size of the header: 4 + 4*len(Shape) bytes.
	DataOffset int64
	// Gzip reports whether the file is gzip-compressed (as MNIST is distributed);
	// DataOffset is then an offset into the decompressed stream.
	Gzip bool
}

// Magic returns the magic number of h, such as 0x00000803.
func (h Header) Magic() uint32 { return uint32(h.Type)<<8 | uint32(len(h.Shape)) }

// GoType returns the name of the Go element type of h, such as "uint8".
func (h Header) GoType() string { return kinds[h.Type].String() }

// Len returns the number of elements, the product of Shape. It returns -1 when a
// dimension is negative or the product overflows int, which no header returned
// by the readers has.
func (h Header) Len() int { return fileio.Len(h.Shape) }

// DataSize returns the number of bytes of the data. It returns -1 when that
// overflows int64, which no header returned by the readers does.
func (h Header) DataSize() int64 { return fileio.DataSize(h.Shape, kinds[h.Type].Size) }

// String returns the magic number, the element type and the shape, as in
// "0x00000803 uint8 [1797 8 8]".
func (h Header) String() string {
	s := fmt.Sprintf("%#08x %s %v", h.Magic(), h.GoType(), h.Shape)
	if h.Gzip {
		s += " (gzip)"
	}
	return s
}

// ReadHeader reads the header of an IDX stream and leaves r at the first byte of
// the data. A gzip-compressed stream is not recognized here; see [Read]. A
// malformed header returns an error wrapping [ErrFormat].
func ReadHeader(r io.Reader) (Header, error) {
	h, err := readHeader(r, -1)
	if err != nil {
		return Header{}, format.HeaderError("stream", err)
	}
	return h, nil
}

// Stat returns the header of the IDX file at path without reading its data. For a
// plain file it checks that the file holds exactly the data the header
// describes; for a gzip-compressed one it reads only the start of the stream,
// and checks that the compressed size could hold the data the header claims
// (deflate compresses at most 1032:1). It does not apply [Options.Limit].
func Stat(path string) (Header, error) {
	f, err := format.Open(path)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	h, _, rc, err := openFile(f)
	if rc != nil {
		rc.Close()
	}
	return h, err
}

// openFile reads the header of f and returns it with the file size and a reader
// positioned at the data: decompressing for a gzip file, whose compressed size
// has been checked against the claim (checkInflate); for a plain file, whose size
// has been checked against the header.
func openFile(f *os.File) (Header, int64, io.ReadCloser, error) {
	fi, err := f.Stat()
	if err != nil {
		return Header{}, 0, nil, err
	}
	size := fi.Size()
	br := bufio.NewReader(f)
	if start, _ := br.Peek(2); isGzip(start) {
		zr, err := gunzip(br, f.Name())
		if err != nil {
			return Header{}, 0, nil, err
		}
		h, err := readHeader(zr, -1)
		if err != nil {
			zr.Close()
			return Header{}, 0, nil, format.HeaderError(f.Name(), err)
		}
		h.Gzip = true
		if err := checkInflate(f.Name(), h, size); err != nil {
			zr.Close()
			return Header{}, 0, nil, err
		}
		return h, size, zr, nil
	}
	h, err := readHeader(br, size)
	if err != nil {
		return Header{}, 0, nil, format.HeaderError(f.Name(), err)
	}
	if err := format.SizeError(f.Name(), size, h.DataOffset, h.DataSize(), h); err != nil {
		return Header{}, 0, nil, err
	}
	return h, size, io.NopCloser(br), nil
}

// maxOffset is the longest header: the magic number and 255 dimensions.
const maxOffset = 4 + 4*255

// readHeader reads a header from r; size is the file size or -1.
func readHeader(r io.Reader, size int64) (Header, error) {
	var m [4]byte
	if _, err := io.ReadFull(r, m[:]); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return Header{}, fileio.Formatf("ends before the 4-byte magic number")
		}
		return Header{}, err
	}
	magic := binary.BigEndian.Uint32(m[:])
	if m[0] != 0 || m[1] != 0 {
		return Header{}, fileio.Formatf("magic number %#08x does not start with two zero bytes (not an IDX file)", magic)
	}
	h := Header{Type: m[2]}
	if _, ok := kinds[h.Type]; !ok {
		return Header{}, fileio.Formatf("magic number %#08x: element type %#02x, want one of 0x08 (uint8), 0x09 (int8), 0x0b (int16), 0x0c (int32), 0x0d (float32), 0x0e (float64)", magic, h.Type)
	}
	rank := int(m[3])
	if rank == 0 {
		return Header{}, fileio.Formatf("magic number %#08x: rank 0, want at least one dimension", magic)
	}
	h.DataOffset = 4 + 4*int64(rank)
	if size >= 0 && h.DataOffset > size {
		return Header{}, fileio.Formatf("%d dimensions need %d header bytes, the file has %d", rank, h.DataOffset, size)
	}
	var dims [4 * 255]byte
	if _, err := io.ReadFull(r, dims[:4*rank]); err != nil {
		return Header{}, err
	}
	h.Shape = make([]int, rank)
	for i := range h.Shape {
		h.Shape[i] = int(binary.BigEndian.Uint32(dims[4*i:]))
	}
	// The data must fit in an int behind the longest header (255 dimensions),
	// with zero dimensions counted as one so that every stride fits too: no file
	// that large can exist.
	if _, ok := fileio.Extent(h.Shape, kinds[h.Type].Size, maxOffset); !ok {
		return Header{}, fileio.Formatf("shape %s of %s is too large: its data would take more than %d bytes", dimsString(dims[:4*rank]), h.GoType(), fileio.MaxSize-maxOffset)
	}
	return h, nil
}

func dimsString(b []byte) string {
	var s []string
	for i := 0; i < len(b); i += 4 {
		s = append(s, fmt.Sprint(binary.BigEndian.Uint32(b[i:])))
	}
	return "[" + strings.Join(s, " ") + "]"
}
