package stream

import (
	"bufio"
	"fmt"
	"io"
	"iter"
)

// A Reader is a stream of values that may fail: an iterator yielding each value
// with a nil error, and, if the stream fails, a zero value with the error as its
// last element. It is PaddlePaddle's reader (a function returning an iterable of
// single entries) in Go: ranging over it starts a pass, and a Reader built from
// functions restarts at every range.
//
//	for v, err := range r {
//		if err != nil {
//			return err
//		}
//		use(v)
//	}
//
// Every decorator in this package forwards an error as soon as it reaches it and
// then stops, so an error is always the last element a consumer sees. Reader is
// an alias: any iter.Seq2[T, error] is a Reader, and [From] turns an iter.Seq[T]
// into one.
type Reader[T any] = iter.Seq2[T, error]

// From returns seq as a [Reader] that never fails. The reader ranges over seq
// once per pass, so it restarts when seq does. From panics if seq is nil.
func From[T any](seq iter.Seq[T]) Reader[T] {
	mustFunc("stream.From", "sequence", seq == nil)
	return func(yield func(T, error) bool) {
		for v := range seq {
			if !yield(v, nil) {
				return
			}
		}
	}
}

// FromSlice returns a [Reader] that yields the elements of s in order, every
// pass. s is not copied: the reader sees later changes to its elements, and
// elements that hold references (slices, pointers) are shared with the consumer.
func FromSlice[T any](s []T) Reader[T] {
	return func(yield func(T, error) bool) {
		for _, v := range s {
			if !yield(v, nil) {
				return
			}
		}
	}
}

// Defer returns a [Reader] that calls create at the start of every pass and
// ranges over the reader it returns: PaddlePaddle's reader creator. Use it for a
// source with per-pass state, such as a single-use iterator over an opened
// resource. Defer panics if create is nil.
func Defer[T any](create func() Reader[T]) Reader[T] {
	mustFunc("stream.Defer", "create function", create == nil)
	return func(yield func(T, error) bool) {
		for v, err := range create() {
			if !yield(v, err) || err != nil {
				return
			}
		}
	}
}

// Collect ranges over r once and returns its values in a new slice. At the first
// error it returns the values read so far and that error.
func Collect[T any](r Reader[T]) ([]T, error) {
	var out []T
	for v, err := range r {
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Lines returns a [Reader] of the lines of a text: every pass calls open, reads
// lines (without their end-of-line marker, as [bufio.ScanLines] splits them) and
// closes what open returned, also when the consumer stops early. An error from
// open, from reading (a line longer than [bufio.MaxScanTokenSize] is
// [bufio.ErrTooLong]) or from Close ends the pass; it is wrapped, so errors.Is
// finds the original. Lines panics if open is nil.
//
//	r := stream.Lines(func() (io.ReadCloser, error) { return os.Open("train.txt") })
func Lines(open func() (io.ReadCloser, error)) Reader[string] {
	mustFunc("stream.Lines", "open function", open == nil)
	return func(yield func(string, error) bool) {
		rc, err := open()
		if err != nil {
			yield("", fmt.Errorf("stream.Lines: open: %w", err))
			return
		}
		closed := false
		defer func() { // on a break, an error, or a panic in the loop body
			if !closed {
				rc.Close()
			}
		}()
		sc := bufio.NewScanner(rc)
		line := 0
		for sc.Scan() {
			line++
			if !yield(sc.Text(), nil) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			yield("", fmt.Errorf("stream.Lines: after line %d: %w", line, err))
			return
		}
		closed = true
		if err := rc.Close(); err != nil {
			yield("", fmt.Errorf("stream.Lines: close: %w", err))
		}
	}
}
