package recordio

import (
	"encoding/binary"
	"io"
)

// A Writer writes records to an io.Writer in dmlc-core's RecordIO format,
// byte for byte as dmlc::RecordIOWriter (and so MXNet's MXRecordIO and
// im2rec) writes them.
//
// A Writer does not buffer: each record is a few writes to the underlying
// writer (a part header, the payload, the padding), so wrap a file in a
// bufio.Writer and flush it when done. A Writer must not be used from several
// goroutines at once.
type Writer struct {
	w    io.Writer
	name string
	off  int64
	err  error
	hdr  [headerSize]byte
}

// NewWriter returns a Writer that writes records to w. Offsets count from
// where w is when the Writer starts: 0 for a new file.
func NewWriter(w io.Writer) *Writer {
	name := "stream"
	if n, ok := w.(interface{ Name() string }); ok {
		name = n.Name()
	}
	return &Writer{w: w, name: name}
}

// Offset returns the offset the next record will start at: the offset of the
// bytes written so far, MXIndexedRecordIO.tell.
func (w *Writer) Offset() int64 { return w.off }

// Write writes p as one record and returns the offset of its first byte, the
// value an index line records for it. p is not retained.
//
// Where p holds the magic number at an offset that is a multiple of 4, the
// record is written as several parts, the magic numbers left out (a reader puts
// them back), so that a reader can find record boundaries by looking for the
// magic number; the record is then padded with zero bytes to a multiple of 4.
//
// Write returns an error wrapping [ErrTooLarge] for a p of 2^29 bytes or more
// ([MaxSize]), writing nothing. An error of the underlying writer is returned
// with the name of the file, and returned again by every later Write: the file
// then ends with part of a record.
func (w *Writer) Write(p []byte) (int64, error) {
	if w.err != nil {
		return 0, w.err
	}
	if len(p) > MaxSize {
		return 0, format.Errorf(w.name, ErrTooLarge, "record of %d bytes at offset %d: at most %d bytes fit a record", len(p), w.off, MaxSize)
	}
	off := w.off
	// The parts end where p holds the magic at an aligned offset: dmlc-core
	// checks every aligned word that lies wholly inside p.
	start := 0
	for i := 0; i+4 <= len(p); i += 4 {
		if !isMagic(p, i) {
			continue
		}
		flag := uint32(middle)
		if start == 0 {
			flag = first
		}
		if err := w.part(flag, p[start:i]); err != nil {
			return 0, err
		}
		start = i + 4
	}
	flag := uint32(whole)
	if start != 0 {
		flag = last
	}
	if err := w.part(flag, p[start:]); err != nil {
		return 0, err
	}
	if n := pad4(int64(len(p))) - int64(len(p)); n > 0 {
		if err := w.write(zeros[:n]); err != nil {
			return 0, err
		}
	}
	return off, nil
}

// zeros pads records; it is never written to.
var zeros [4]byte

// part writes the header of a part and its data.
func (w *Writer) part(flag uint32, data []byte) error {
	binary.LittleEndian.PutUint32(w.hdr[0:], Magic)
	binary.LittleEndian.PutUint32(w.hdr[4:], lengthWord(flag, uint32(len(data))))
	if err := w.write(w.hdr[:]); err != nil {
		return err
	}
	if len(data) == 0 {
		return nil
	}
	return w.write(data)
}

func (w *Writer) write(b []byte) error {
	n, err := w.w.Write(b)
	w.off += int64(n)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	if err != nil {
		w.err = format.Wrap(w.name, err)
	}
	return w.err
}
