package stream

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/state"
)

// ErrLineTooLong is wrapped by the error a [Lines] stream yields for a line
// longer than its limit.
var ErrLineTooLong = errors.New("line too long")

// Lines returns a [Stream] of the lines of a text: every pass calls open, reads
// lines (without their end-of-line marker: "\n" or "\r\n", as bufio.ScanLines
// splits them) and closes what open returned when the pass ends, fails or is
// closed. Its state is the byte offset and the number of the next line (a few
// bytes). It resumes by seeking to the offset when what open returns is an
// io.Seeker (a file opened with os.Open), without reading what came before, and
// otherwise (a decompressing reader, a pipe) by reading and discarding the
// bytes before the offset.
//
// A line longer than maxLine bytes ends the stream with an error wrapping
// [ErrLineTooLong] that names the line; so do errors of open, of seeking, of
// reading and of Close, wrapped. A pass restored to an offset past the end of
// the text (a text that has become shorter) fails at its first value with an
// error wrapping io.EOF that names the offset, the line and the text's end. Lines panics with a [*container.ArgError] if
// open is nil or maxLine < 1.
//
//	s := stream.Lines(func() (io.ReadCloser, error) { return os.Open("train.txt") }, 1<<20)
func Lines(open func() (io.ReadCloser, error), maxLine int) Stream[string] {
	container.CheckArg(open != nil, "stream.Lines", "open function", "nil", "a function")
	container.CheckArg(maxLine >= 1, "stream.Lines", "line limit", maxLine, ">= 1")
	return Stream[string]{linesNode{open: open, max: maxLine}}
}

type linesNode struct {
	open func() (io.ReadCloser, error)
	max  int
}

func (linesNode) ordered() bool               { return true }
func (n linesNode) iter(int) iterator[string] { return &linesIter{n: n} }

type linesIter struct {
	n          linesNode
	rc         io.ReadCloser
	br         *bufio.Reader
	off        int64 // the byte offset of the next line
	line       int   // the number of the next line, from 1
	done, open bool
}

func (it *linesIter) fail(format string, args ...any) error {
	it.done = true
	it.close()
	return fmt.Errorf("stream.Lines: "+format, args...)
}

// start opens the text at the offset of the next line.
func (it *linesIter) start() error {
	rc, err := it.n.open()
	if err != nil {
		return it.fail("open: %w", err)
	}
	it.rc, it.open = rc, true
	if it.off > 0 {
		if s, ok := rc.(io.Seeker); ok {
			// A seek past the end succeeds and reads nothing: a text that has
			// become shorter would end the pass quietly.
			if end, err := s.Seek(0, io.SeekEnd); err == nil && end < it.off {
				return it.fail("seek to byte %d (line %d): the text ends at byte %d: %w", it.off, it.line+1, end, io.EOF)
			}
			if _, err := s.Seek(it.off, io.SeekStart); err != nil {
				return it.fail("seek to byte %d (line %d): %w", it.off, it.line+1, err)
			}
		} else if n, err := io.CopyN(io.Discard, rc, it.off); err != nil {
			return it.fail("reading again to byte %d (line %d): the text ends at byte %d: %w", it.off, it.line+1, n, err)
		}
	}
	it.br = bufio.NewReader(rc)
	return nil
}

func (it *linesIter) next() (string, error, bool) {
	if it.done {
		return "", nil, false
	}
	if !it.open {
		if err := it.start(); err != nil {
			return "", err, false
		}
	}
	var buf []byte
	for {
		frag, err := it.br.ReadSlice('\n')
		if len(buf)+len(frag) > it.n.max+2 { // room for "\r\n"
			return "", it.fail("line %d (byte %d) is longer than %d bytes: %w", it.line+1, it.off, it.n.max, ErrLineTooLong), false
		}
		buf = append(buf, frag...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			if len(buf) == 0 {
				it.done, it.open = true, false
				if cerr := it.rc.Close(); cerr != nil {
					return "", fmt.Errorf("stream.Lines: close: %w", cerr), false
				}
				return "", nil, false
			}
		} else if err != nil {
			return "", it.fail("after line %d: %w", it.line, err), false
		}
		it.off += int64(len(buf))
		it.line++
		s := bytes.TrimSuffix(buf, []byte{'\n'})
		s = bytes.TrimSuffix(s, []byte{'\r'})
		if len(s) > it.n.max {
			return "", it.fail("line %d is longer than %d bytes: %w", it.line, it.n.max, ErrLineTooLong), false
		}
		return string(s), nil, true
	}
}

func (it *linesIter) save(w *state.Writer) {
	w.String("lines")
	w.Uint(uint64(it.off))
	w.Uint(uint64(it.line))
	w.Bool(it.done)
}

func (it *linesIter) load(r *state.Reader) {
	r.Enter("lines")
	off, line, done := r.Uint(), r.Count(), r.Bool()
	if r.Err() == nil && off > 1<<62 {
		r.Fail("offset %d out of range", off)
	}
	it.off, it.line, it.done = int64(off), line, done
}

func (it *linesIter) pause() {}

func (it *linesIter) close() {
	if it.open {
		it.rc.Close()
		it.open = false
	}
}
