package fileio

import (
	"io"
	"unsafe"

	"github.com/obskit/obskit/internal/hugemem"
)

// untrustedChunk is the most ReadElems allocates before the data it reads shows
// that the source holds more.
const untrustedChunk = 1 << 20

// Unknown is the avail of [ReadElems] for a source whose size is not known.
const Unknown = -1

// ReadElems reads n elements of E from r, in the byte order of the stream, into a
// new slice. avail is the number of bytes r is known to hold (the size of a file
// checked against its header, [Remaining] of a seekable stream, the decompressed
// size a caller has checked against its limit), or [Unknown].
//
// When avail covers the n elements, the slice is allocated once, at its full
// size. Otherwise the header's count is not trusted for memory: the slice starts
// at no more than 1 MiB (and no more than avail when it is known) and doubles,
// never beyond n, only as the data actually arrives. A header that claims
// terabytes then costs at most 1 MiB before the short read is reported.
//
// A short read returns the count of whole elements read and io.ErrUnexpectedEOF
// (io.EOF when r was empty and n > 0). The caller has checked that n elements of
// E fit in an int ([Extent]).
func ReadElems[E Elem](r io.Reader, n int, avail int64) ([]E, int, error) {
	var z E
	size := int(unsafe.Sizeof(z))
	first := n
	if avail < int64(n)*int64(size) {
		first = min(n, untrustedChunk/size)
		if avail >= 0 {
			first = min(first, int(avail/int64(size))+1)
		}
	}
	s := hugemem.Make[E](first)
	got := 0
	for {
		k, err := io.ReadFull(r, Bytes(s[got:]))
		got += k / size
		if err != nil {
			if err == io.EOF && got > 0 {
				err = io.ErrUnexpectedEOF
			}
			return nil, got, err
		}
		if got == n {
			return s, n, nil
		}
		// The data filled the slice: double it, but never beyond n.
		t := hugemem.Make[E](min(n, 2*len(s)))
		copy(t, s)
		s = t
	}
}

// ReadSwapped is [ReadElems] followed, when swap is true, by a byte swap of every
// element: it reads data stored in the other byte order than the machine's.
func ReadSwapped[E Elem](r io.Reader, n int, avail int64, swap bool) ([]E, int, error) {
	s, got, err := ReadElems[E](r, n, avail)
	if err == nil && swap {
		var z E
		Swap(Bytes(s), int(unsafe.Sizeof(z)))
	}
	return s, got, err
}
