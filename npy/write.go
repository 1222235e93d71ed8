package npy

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"unsafe"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/fileio"
	"github.com/obskit/obskit/fileio/mmap"
	"github.com/obskit/obskit/obsdim"
)

// dataAlign is the alignment of the data offset NumPy (1.14 and later) writes and
// the writer keeps: 64 bytes, so that mapped data is aligned for every element
// type and for vector loads.
const dataAlign = 64

// encodeHeader returns the bytes before the data for h: magic, version, header
// length and the dict padded with spaces and a final newline so that the data
// starts at a multiple of 64 bytes. It writes version 1.0, or 2.0 when the dict
// does not fit 65535 bytes. h.Major, h.Minor and h.DataOffset are ignored.
func encodeHeader(h Header) []byte {
	dict := h.String()
	for _, v := range []struct {
		major  byte
		prefix int
		max    int
	}{{1, 10, 0xffff}, {2, 12, 0xffffffff}} {
		total := v.prefix + len(dict) + 1 // + '\n'
		pad := (dataAlign - total%dataAlign) % dataAlign
		hlen := len(dict) + pad + 1
		if hlen > v.max {
			continue
		}
		b := make([]byte, 0, v.prefix+hlen)
		b = append(b, magic...)
		b = append(b, v.major, 0)
		if v.major == 1 {
			b = binary.LittleEndian.AppendUint16(b, uint16(hlen))
		} else {
			b = binary.LittleEndian.AppendUint32(b, uint32(hlen))
		}
		b = append(b, dict...)
		for range pad {
			b = append(b, ' ')
		}
		return append(b, '\n')
	}
	panic("npy: header longer than 4 GiB") // unreachable: shapes are at most a few dozen axes
}

// AppendHeader appends to dst the bytes a .npy file holds before the data of
// an array of h.Dtype, h.Shape and h.Fortran (magic, version, header length,
// the dict, padded so that the data starts at a multiple of 64 bytes, as
// [Write] writes them) and returns the extended slice: with the array's data
// after them, the bytes are a .npy file. h's other fields are ignored. For
// writers of .npy data that they have as bytes, such as the rows of a shard.
func AppendHeader(dst []byte, h Header) []byte { return append(dst, encodeHeader(h)...) }

// writeHeader writes the header of h to w (see encodeHeader).
func writeHeader(w io.Writer, h Header) error {
	_, err := w.Write(encodeHeader(h))
	return err
}

// Write writes a to w as a .npy file (format version 1.0, little-endian on a
// little-endian machine) that np.load reads back with the same shape, dtype and
// values. A row-major array is written as it is, a Fortran-ordered one (such as
// an array read from a Fortran-ordered file) with fortran_order True, and any
// other layout (a transposed or strided view) in row-major order, gathered a few
// megabytes at a time. The observation axis is not stored: .npy files have none.
// Write returns the first error of w, and for an array over a memory-mapped file
// whose pages are gone (the file was truncated after [Open]) an error wrapping
// [ErrFault].
func Write[E arraycontainer.Number](w io.Writer, a *arraycontainer.Array[E]) (err error) {
	if r := mmap.Of(a); r != nil {
		// w reads the mapped bytes; a fault in them, here or in an inner
		// guard of GetObsInto, becomes the returned error.
		defer r.RecoverError(r.Guard(), &err)
	}
	h := Header{Dtype: dtypeOf(fileio.KindOf[E]()), Shape: a.Shape()}
	var contiguous *arraycontainer.Array[E]
	switch {
	case a.IsContiguous():
		contiguous = a
	case a.Rank() > 1 && a.Transpose().IsContiguous():
		h.Fortran = true
		contiguous = a.Transpose()
	}
	if err := writeHeader(w, h); err != nil {
		return err
	}
	if contiguous != nil {
		off := contiguous.Offset()
		_, err := w.Write(fileio.Bytes(contiguous.Data()[off : off+a.Len()]))
		return err
	}
	// Any other layout: gather whole sub-arrays along the first axis, in order,
	// into one reused row-major buffer.
	rows, err := a.WithDim(obsdim.First)
	if err != nil {
		return err // unreachable: a non-contiguous array has rank >= 1
	}
	per := max(1, (4<<20)/max(1, rows.ObsLen()*int(unsafe.Sizeof(E(0)))))
	idx := make([]int, 0, per)
	var buf *arraycontainer.Array[E]
	for lo := 0; lo < rows.Nobs(); lo += per {
		idx = idx[:0]
		for i := lo; i < min(lo+per, rows.Nobs()); i++ {
			idx = append(idx, i)
		}
		buf = rows.GetObsInto(buf, idx)
		if _, err := w.Write(fileio.Bytes(buf.Data()[:buf.Len()])); err != nil {
			return err
		}
	}
	return nil
}

// Save writes a to a new file at path (truncating an existing one) with [Write].
func Save[E arraycontainer.Number](path string, a *arraycontainer.Array[E]) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	err = Write(bw, a)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("npy: saving %s: %w", path, err)
	}
	return nil
}
