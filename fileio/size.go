package fileio

import (
	"io"
	"math"
	"math/bits"
)

// MaxSize is the largest number of bytes a file's header and data may take
// together: the largest size of a Go slice and of a file offset on 64-bit
// machines.
const MaxSize = math.MaxInt

// Extent returns offset plus the size in bytes of the data of shape at size
// bytes per element, with zero dimensions counted as one, and false when a
// dimension or size is negative or the result exceeds [MaxSize]. Counting zeros
// as ones keeps every stride of the shape within int as well, so that a header
// Extent accepts cannot overflow any size or index arithmetic done with it. The
// product is computed with full 128-bit products: no intermediate result wraps.
func Extent(shape []int, size int, offset int64) (int64, bool) {
	if size < 0 || offset < 0 {
		return 0, false
	}
	n := uint64(max(size, 1))
	for _, d := range shape {
		if d < 0 {
			return 0, false
		}
		hi, lo := bits.Mul64(n, uint64(max(d, 1)))
		if hi != 0 || lo > MaxSize {
			return 0, false
		}
		n = lo
	}
	if n > MaxSize-uint64(offset) {
		return 0, false
	}
	return offset + int64(n), true
}

// Len returns the number of elements of shape, 1 for rank 0, and -1 when a
// dimension is negative or the count exceeds math.MaxInt.
func Len(shape []int) int {
	n := 1
	for _, d := range shape {
		if d < 0 {
			return -1
		}
	}
	for _, d := range shape {
		if d == 0 {
			return 0
		}
		if n > math.MaxInt/d {
			return -1
		}
		n *= d
	}
	return n
}

// DataSize returns the size in bytes of the data of shape at size bytes per
// element, and -1 when a dimension or size is negative or the size exceeds
// math.MaxInt.
func DataSize(shape []int, size int) int64 {
	n := Len(shape)
	if n < 0 || size < 0 {
		return -1
	}
	if size > 0 && n > math.MaxInt/size {
		return -1
	}
	return int64(n) * int64(size)
}

// Remaining returns the number of bytes from the current position of r to its
// end when r is an io.Seeker that can tell (a regular file, a bytes.Reader, an
// io.SectionReader), leaving the position where it was, and [Unknown] otherwise (a pipe,
// a network connection, a decompressor). A reader can then allocate what a
// header claims once the source is known to hold it, and grow with the data
// otherwise.
func Remaining(r io.Reader) int64 {
	s, ok := r.(io.Seeker)
	if !ok {
		return Unknown
	}
	cur, err := s.Seek(0, io.SeekCurrent)
	if err != nil {
		return Unknown
	}
	end, err := s.Seek(0, io.SeekEnd)
	if err != nil {
		return Unknown
	}
	if _, err := s.Seek(cur, io.SeekStart); err != nil || end < cur {
		return Unknown
	}
	return end - cur
}
