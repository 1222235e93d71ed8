package resumable

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/stream"
)

// Slice returns a [Stream] of the elements of s in order. Its state is the
// position in s (a few bytes); it resumes in O(1). s is not copied: the stream
// sees later changes to its elements.
func Slice[T any](s []T) Stream[T] { return Stream[T]{sliceNode[T](s)} }

type sliceNode[T any] []T

func (s sliceNode[T]) pass(int) iterator[T] { return &sliceIter[T]{s: s} }

type sliceIter[T any] struct {
	s   []T
	pos int
}

func (it *sliceIter[T]) next() (T, error, bool) {
	if it.pos == len(it.s) {
		var zero T
		return zero, nil, false
	}
	it.pos++
	return it.s[it.pos-1], nil, true
}

func (it *sliceIter[T]) save(w *writer) {
	w.str("slice")
	w.int(len(it.s))
	w.uint(uint64(it.pos))
}

func (it *sliceIter[T]) load(r *reader) {
	r.enter("slice")
	r.setting("length", len(it.s))
	if pos := r.count(); r.err == nil {
		if pos > len(it.s) {
			r.fail("position %d past the end %d", pos, len(it.s))
			return
		}
		it.pos = pos
	}
}

func (it *sliceIter[T]) close() {}

// Seek returns a [Stream] of a source that can start anywhere: open(pos) returns
// a reader of the source's values from value number pos on (0 for the start),
// for instance the lines of a file from a known offset, or a container read from
// an index. Its state is the number of values yielded (a few bytes); it resumes
// by calling open with that number. Seek panics if open is nil.
func Seek[T any](open func(pos int) stream.Reader[T]) Stream[T] {
	container.CheckArg(open != nil, "resumable.Seek", "open function", "nil", "a function")
	return Stream[T]{seekNode[T]{open: open}}
}

// Replay returns a [Stream] of any reader: its state is the number of values
// yielded (a few bytes), and it resumes by reading r from its start again and
// skipping that many values, so resuming costs reading them once more. r must
// yield the same values on every pass (a file that does not change, a generator
// with a fixed seed). Use it for plain readers in a resumable pipeline; a source
// that can seek is faster to resume with [Seek] or [Lines]. Replay panics if r
// is nil.
func Replay[T any](r stream.Reader[T]) Stream[T] {
	container.CheckArg(r != nil, "resumable.Replay", "reader", "nil", "a Reader")
	return Stream[T]{seekNode[T]{open: func(int) stream.Reader[T] { return r }, replay: true}}
}

type seekNode[T any] struct {
	open   func(pos int) stream.Reader[T]
	replay bool // open ignores pos: skip pos values on resume
}

func (n seekNode[T]) pass(int) iterator[T] { return &seekIter[T]{n: n} }

// seekIter pulls a reader opened at pos (or at the start, then skips).
type seekIter[T any] struct {
	n    seekNode[T]
	pos  int
	pull func() (T, error, bool)
	stop func()
}

func (it *seekIter[T]) kind() string {
	if it.n.replay {
		return "replay"
	}
	return "seek"
}

func (it *seekIter[T]) start(pos int) {
	it.close()
	if it.n.replay {
		pos = 0
	}
	it.pull, it.stop = iter.Pull2(iter.Seq2[T, error](it.n.open(pos)))
}

func (it *seekIter[T]) next() (T, error, bool) {
	if it.pull == nil {
		it.start(it.pos)
	}
	v, err, ok := it.pull()
	if err != nil || !ok {
		return v, err, false
	}
	it.pos++
	return v, nil, true
}

func (it *seekIter[T]) save(w *writer) {
	w.str(it.kind())
	w.uint(uint64(it.pos))
}

func (it *seekIter[T]) load(r *reader) {
	r.enter(it.kind())
	pos := r.count()
	if r.err != nil {
		return
	}
	it.pos = pos
	if !it.n.replay {
		return // the reader opens at pos on the first next
	}
	it.start(0)
	for k := range pos {
		_, err, ok := it.pull()
		if err != nil {
			r.fail("replaying the source: %v", err)
			return
		}
		if !ok {
			r.fail("the source ended after %d values; the state is after %d", k, pos)
			return
		}
	}
}

func (it *seekIter[T]) close() {
	if it.stop != nil {
		it.stop()
		it.pull, it.stop = nil, nil
	}
}

// ErrLineTooLong is wrapped by the error a [Lines] stream yields for a line
// longer than its limit.
var ErrLineTooLong = errors.New("line too long")

// Lines returns a [Stream] of the lines of a text that can seek, such as a file
// opened with os.Open: every pass calls open, reads lines (without their
// end-of-line marker: "\n" or "\r\n", as bufio.ScanLines splits them) and closes
// what open returned. Its state is the byte offset and the number of the next
// line (a few bytes); it resumes by seeking, without reading what came before. A
// line longer than maxLine bytes ends the stream with an error wrapping
// [ErrLineTooLong] that names the line; so do errors of open, Seek, reading and
// Close, wrapped. Lines panics if open is nil or maxLine < 1.
func Lines(open func() (io.ReadSeekCloser, error), maxLine int) Stream[string] {
	container.CheckArg(open != nil, "resumable.Lines", "open function", "nil", "a function")
	container.CheckArg(maxLine >= 1, "resumable.Lines", "line limit", maxLine, ">= 1")
	return Stream[string]{linesNode{open: open, max: maxLine}}
}

type linesNode struct {
	open func() (io.ReadSeekCloser, error)
	max  int
}

func (n linesNode) pass(int) iterator[string] { return &linesIter{n: n} }

type linesIter struct {
	n          linesNode
	rc         io.ReadSeekCloser
	br         *bufio.Reader
	off        int64 // the byte offset of the next line
	line       int   // the number of the next line, from 1
	done, open bool
}

func (it *linesIter) fail(format string, args ...any) error {
	it.done = true
	it.close()
	return fmt.Errorf("resumable.Lines: "+format, args...)
}

func (it *linesIter) next() (string, error, bool) {
	if it.done {
		return "", nil, false
	}
	if !it.open {
		rc, err := it.n.open()
		if err != nil {
			return "", it.fail("open: %w", err), false
		}
		it.rc, it.open = rc, true
		if it.off > 0 {
			if _, err := rc.Seek(it.off, io.SeekStart); err != nil {
				return "", it.fail("seek to byte %d (line %d): %w", it.off, it.line+1, err), false
			}
		}
		it.br = bufio.NewReader(rc)
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
				it.done = true
				if cerr := it.rc.Close(); cerr != nil {
					it.open = false
					return "", fmt.Errorf("resumable.Lines: close: %w", cerr), false
				}
				it.open = false
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

func (it *linesIter) save(w *writer) {
	w.str("lines")
	w.uint(uint64(it.off))
	w.uint(uint64(it.line))
	w.bool(it.done)
}

func (it *linesIter) load(r *reader) {
	r.enter("lines")
	off, line, done := r.uint(), r.count(), r.bool()
	if r.err == nil && off > 1<<62 {
		r.fail("offset %d out of range", off)
	}
	it.off, it.line, it.done = int64(off), line, done
}

func (it *linesIter) close() {
	if it.open {
		it.rc.Close()
		it.open = false
	}
}
