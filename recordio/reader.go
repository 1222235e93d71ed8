package recordio

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"slices"
	"strconv"

	"github.com/obskit/obskit/fileio"
)

// A Reader reads the records of a RecordIO stream in order, as
// dmlc::RecordIOReader does, without an index: the sequential scan. It needs
// no seeking, so a pipe or a decompressor will do; [Open] reads a file at
// random instead.
//
//	r := recordio.NewReader(f)
//	for {
//		rec, err := r.Next()
//		if err == io.EOF {
//			break
//		}
//		if err != nil { ... }
//		// rec is valid until the next call of Next
//	}
//
// A Reader buffers its input and must not be used from several goroutines at
// once.
type Reader struct {
	r     *bufio.Reader
	name  string
	off   int64 // bytes consumed
	start int64 // offset of the last record returned
	size  int64 // the size of the stream when known, else fileio.Unknown
	buf   []byte
	err   error
	hdr   [headerSize]byte
}

// NewReader returns a Reader of the records of r. When r is a seekable stream
// that can tell its size (an *os.File, a bytes.Reader), lengths are checked
// against it before any memory is allocated for them; otherwise memory grows
// with the data that actually arrives (at most 1 MiB ahead of it), so a corrupt
// length cannot make the Reader allocate what the stream does not hold.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10), name: fileio.Name(r), size: fileio.Remaining(r)}
}

// Offset returns the offset in the stream of the record Next returned last
// (of its first part's magic number), counted from where the stream was when
// the Reader started.
func (r *Reader) Offset() int64 { return r.start }

// Next returns the payload of the next record, its parts joined with the magic
// numbers the writer left out between them. The slice is valid until the next
// call of Next, which reuses its memory; an empty record is an empty, non-nil
// slice.
//
// At the end of the stream, between two records, Next returns io.EOF. Bytes
// that do not form a record (a bad magic number, a part that starts a record
// with the flag of a middle or last part, a length past the end, a record cut
// short, a split record with a part missing) return an error wrapping
// [ErrFormat] that names the stream and the offset; a stream that ends inside a
// record also wraps io.ErrUnexpectedEOF. Any error is returned again by every
// later call.
func (r *Reader) Next() ([]byte, error) {
	if r.err != nil {
		return nil, r.err
	}
	rec, err := r.next()
	if err != nil {
		r.err = err
		return nil, err
	}
	return rec, nil
}

func (r *Reader) next() ([]byte, error) {
	r.start = r.off
	r.buf = r.buf[:0]
	flag, n, err := r.header(true)
	if err != nil {
		return nil, err
	}
	if flag != whole && flag != first {
		return nil, r.flagError(r.start, flag)
	}
	for {
		if err := r.data(flag, n); err != nil {
			return nil, err
		}
		if flag == whole || flag == last {
			break
		}
		at := r.off
		if flag, n, err = r.header(false); err != nil {
			return nil, err
		}
		if flag != middle && flag != last {
			return nil, format.Errorf(r.name, ErrFormat, "offset %d: split record from offset %d: part with flag %d where a middle or last part belongs", at, r.start, flag)
		}
		r.buf = binary.LittleEndian.AppendUint32(r.buf, Magic)
	}
	if r.buf == nil {
		r.buf = []byte{}
	}
	return r.buf, nil
}

// header reads the header of a part and returns its flag and length. At the
// start of a record (atStart), a stream that ends before the first byte is
// io.EOF.
func (r *Reader) header(atStart bool) (uint32, uint32, error) {
	at := r.off
	k, err := io.ReadFull(r.r, r.hdr[:])
	r.off += int64(k)
	switch {
	case err == io.EOF && atStart:
		return 0, 0, io.EOF
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		what := "a record"
		if !atStart {
			what = "the split record from offset " + strconv.FormatInt(r.start, 10)
		}
		return 0, 0, truncated(r.name, "offset %d: %s ends after %d of the 8 bytes of a part header", at, what, k)
	case err != nil:
		return 0, 0, format.Wrap(r.name, err)
	}
	if m := binary.LittleEndian.Uint32(r.hdr[0:]); m != Magic {
		return 0, 0, format.Errorf(r.name, ErrFormat, "offset %d: bad magic number 0x%08x (want 0x%08x)", at, m, Magic)
	}
	w := binary.LittleEndian.Uint32(r.hdr[4:])
	flag, n := partFlag(w), partLen(w)
	if flag > last {
		return 0, 0, format.Errorf(r.name, ErrFormat, "offset %d: invalid part flag %d (length word 0x%08x)", at, flag, w)
	}
	if r.size != fileio.Unknown && r.off+pad4(int64(n)) > r.size {
		of := ""
		if !atStart {
			of = " of the split record from offset " + strconv.FormatInt(r.start, 10)
		}
		return 0, 0, truncated(r.name, "offset %d: part of %d bytes (%d padded)%s runs past the end of the stream at %d", at, n, pad4(int64(n)), of, r.size)
	}
	return flag, n, nil
}

// data appends the n bytes of a part flagged flag to r.buf and skips its
// padding. A stream that ends before them is an error that says where the
// part (and its record) started, how long the part said it was, and where the
// stream ended.
func (r *Reader) data(flag, n uint32) error {
	at := r.off
	had := len(r.buf)
	var err error
	r.buf, err = appendFull(r.r, r.buf, int(n))
	r.off = at + int64(len(r.buf)-had)
	if err == nil {
		pad := int(pad4(int64(n)) - int64(n))
		var k int
		k, err = r.r.Discard(pad)
		r.off += int64(k)
	}
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		what := "a record"
		switch {
		case flag == first:
			what = "the first part of a split record"
		case flag != whole:
			what = "a part of the split record from offset " + strconv.FormatInt(r.start, 10)
		}
		return truncated(r.name, "offset %d: %s of %d bytes (%d with padding) cut short by the end of the stream at %d, after %d of its bytes",
			at-headerSize, what, n, pad4(int64(n)), r.off, r.off-at)
	case err != nil:
		return format.Wrap(r.name, err)
	}
	return nil
}

// flagError reports a part that starts a record with the flag of a middle or
// last part.
func (r *Reader) flagError(at int64, flag uint32) error {
	return format.Errorf(r.name, ErrFormat, "offset %d: a record starts with a part flagged %d (%s); a record starts with flag 0 (whole) or 1 (first part)", at, flag, flagName(flag))
}

func flagName(flag uint32) string {
	switch flag {
	case whole:
		return "whole"
	case first:
		return "first part"
	case middle:
		return "middle part"
	}
	return "last part"
}

// chunk bounds how far memory grows ahead of the data read (see appendFull).
const chunk = 1 << 20

// appendFull appends n bytes read from r to dst. Memory grows with the data
// that actually arrives, at most chunk bytes (or as many as already read) ahead
// of it, so a corrupt length costs at most about twice what the stream holds.
// A stream that ends early returns io.ErrUnexpectedEOF (io.EOF when nothing was
// read) and dst with what arrived.
func appendFull(r io.Reader, dst []byte, n int) ([]byte, error) {
	for n > 0 {
		step := n
		if cap(dst)-len(dst) < n {
			step = min(n, max(chunk, len(dst)))
			dst = slices.Grow(dst, step)
		}
		k, err := io.ReadFull(r, dst[len(dst):len(dst)+step])
		dst = dst[:len(dst)+k]
		n -= k
		if err != nil {
			if errors.Is(err, io.EOF) && k > 0 {
				err = io.ErrUnexpectedEOF
			}
			return dst, err
		}
	}
	return dst, nil
}
