package stream

import (
	"errors"
	"fmt"
	"iter"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/tuples"
)

// ErrNotAligned is wrapped by the error [Zip] and [ZipN] yield when, in [Strict]
// mode, one reader ends before another.
var ErrNotAligned = errors.New("readers have different lengths")

// Align says what [Zip] and [ZipN] do when their readers have different lengths.
type Align int

const (
	// Strict ends the stream with an error wrapping [ErrNotAligned] when one
	// reader ends before another (PaddlePaddle's compose with
	// check_alignment=True, Python's zip(strict=True)).
	Strict Align = iota
	// Truncate ends the stream quietly with the shortest reader.
	Truncate
)

// Zip returns a [Reader] of pairs of the values of a and b in step (X from a, Y
// from b, the pair of package tuples):
// PaddlePaddle's compose, Fuel's Merge of two streams. An error of either reader
// ends the stream; so does, in Strict mode, one reader ending before the other.
//
// Zip pulls the readers with [iter.Pull2]; every pass releases them when it
// returns. Zip panics with a [*container.ArgError] if a or b is nil or align is
// unknown.
func Zip[A, B any](a Reader[A], b Reader[B], align Align) Reader[tuples.Pair[A, B]] {
	mustReader("stream.Zip", a)
	mustReader("stream.Zip", b)
	mustAlign("stream.Zip", align)
	return func(yield func(tuples.Pair[A, B], error) bool) {
		nextA, stopA := iter.Pull2(a)
		defer stopA()
		nextB, stopB := iter.Pull2(b)
		defer stopB()
		for n := 0; ; n++ {
			va, errA, okA := nextA()
			if errA != nil {
				yield(tuples.Pair[A, B]{}, errA)
				return
			}
			vb, errB, okB := nextB()
			if errB != nil {
				yield(tuples.Pair[A, B]{}, errB)
				return
			}
			if !okA || !okB {
				if okA != okB && align == Strict {
					yield(tuples.Pair[A, B]{}, notAligned("stream.Zip", n, okA, okB))
				}
				return
			}
			if !yield(tuples.Pair[A, B]{X: va, Y: vb}, nil) {
				return
			}
		}
	}
}

// ZipN returns a [Reader] of slices holding one value of each reader, in step:
// Fuel's Merge, for any number of streams of one type. Each slice is newly
// allocated, with one element per reader in the order given. An error of any
// reader ends the stream; so does, in Strict mode, one reader ending before
// another. With no readers the stream is empty. ZipN panics if a reader is nil
// or align is unknown.
func ZipN[T any](align Align, rs ...Reader[T]) Reader[[]T] {
	for _, r := range rs {
		mustReader("stream.ZipN", r)
	}
	mustAlign("stream.ZipN", align)
	rs = append([]Reader[T](nil), rs...)
	return func(yield func([]T, error) bool) {
		if len(rs) == 0 {
			return
		}
		next := make([]func() (T, error, bool), len(rs))
		for i, r := range rs {
			n, stop := iter.Pull2(r)
			defer stop()
			next[i] = n
		}
		for n := 0; ; n++ {
			row := make([]T, len(rs))
			ended := -1 // a reader that has ended, or -1
			going := -1 // a reader that has a value, or -1
			for i, nx := range next {
				v, err, ok := nx()
				if err != nil {
					yield(nil, err)
					return
				}
				if ok {
					row[i], going = v, i
				} else {
					ended = i
				}
			}
			if ended >= 0 {
				if going >= 0 && align == Strict {
					yield(nil, fmt.Errorf("stream.ZipN: reader %d ended after %d values, reader %d has more: %w", ended, n, going, ErrNotAligned))
				}
				return
			}
			if !yield(row, nil) {
				return
			}
		}
	}
}

func notAligned(op string, n int, okA, okB bool) error {
	ended, going := 0, 1
	if okA && !okB {
		ended, going = 1, 0
	}
	return fmt.Errorf("%s: reader %d ended after %d values, reader %d has more: %w", op, ended, n, going, ErrNotAligned)
}

func mustAlign(op string, a Align) {
	container.CheckArg(a == Strict || a == Truncate, op, "alignment", a, "Strict or Truncate")
}
