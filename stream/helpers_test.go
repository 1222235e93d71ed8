package stream_test

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"iter"
	"strings"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/state"
	"github.com/obskit/obskit/stream"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var errSource = errors.New("source failed")

// seq returns 0..n-1.
func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// ints returns a stream of 0..n-1.
func ints(n int) stream.Stream[int] { return stream.FromSlice(seq(n)) }

// failing returns a stream of 0..n-1 followed by errSource. It fails the test
// if a stage asks for more after its error.
func failing(t *testing.T, n int) stream.Stream[int] {
	return stream.Replay(func(yield func(int, error) bool) {
		for i := range n {
			if !yield(i, nil) {
				return
			}
		}
		if yield(0, errSource) {
			t.Errorf("a stage asked for more after the source's error")
		}
	})
}

// counting returns a stream of 0..n-1 (n < 0: endless) that counts the values
// taken from it in *reads. It can seek: a pass restored at value k counts from
// there.
func counting(n int, reads *int) stream.Stream[int] {
	return stream.Seek(func(pos int) iter.Seq2[int, error] {
		return func(yield func(int, error) bool) {
			for i := pos; n < 0 || i < n; i++ {
				*reads++
				if !yield(i, nil) {
					return
				}
			}
		}
	})
}

// endlessInts is a stream of 0, 1, 2, ... without end.
func endlessInts() stream.Stream[int] {
	return stream.Seek(func(pos int) iter.Seq2[int, error] {
		return func(yield func(int, error) bool) {
			for i := pos; yield(i, nil); i++ {
			}
		}
	})
}

// read ranges over a new pass of s (Stream.All) and returns the values and the
// error, failing the test if anything comes after an error.
func read[T any](t *testing.T, s stream.Stream[T]) ([]T, error) {
	t.Helper()
	var out []T
	var failed error
	for v, err := range s.All() {
		if failed != nil {
			t.Fatalf("a value came after the error %v", failed)
		}
		if err != nil {
			failed = err
			continue
		}
		out = append(out, v)
	}
	return out, failed
}

// wantPanic calls f and checks it panics with a *container.ArgError of op for
// arg, whose message starts with op and contains want.
func wantPanic(t *testing.T, op, arg, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		var ae *container.ArgError
		if err, ok := r.(error); !ok || !errors.As(err, &ae) {
			t.Errorf("panic %v (%T), want a *container.ArgError", r, r)
			return
		}
		if ae.Op != op || ae.Arg != arg || !strings.HasPrefix(ae.Error(), op+": ") || !strings.Contains(ae.Error(), want) {
			t.Errorf("panic %q (Op %q, Arg %q), want Op %q, Arg %q and a message containing %q", ae, ae.Op, ae.Arg, op, arg, want)
		}
	}()
	f()
}

// takeN pulls up to n values of it and returns them, failing the test on an
// error.
func takeN[T any](t *testing.T, it *stream.Iter[T], n int) []T {
	t.Helper()
	var out []T
	for range n {
		v, ok := it.Next()
		if !ok {
			break
		}
		out = append(out, v)
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// savedAfter starts a pass of s, takes n values and returns its state, closing
// the pass.
func savedAfter[T any](t *testing.T, s stream.Stream[T], n int) []byte {
	t.Helper()
	it := s.Iter()
	defer it.Close()
	takeN(t, it, n)
	st, err := it.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// restored returns a pass of s restored to st, failing the test if it cannot.
func restored[T any](t *testing.T, s stream.Stream[T], st []byte) *stream.Iter[T] {
	t.Helper()
	it := s.Iter()
	if err := it.UnmarshalBinary(st); err != nil {
		it.Close()
		t.Fatal(err)
	}
	return it
}

// rest reads a pass to its end and returns the values and the error.
func rest[T any](it *stream.Iter[T]) ([]T, error) {
	defer it.Close()
	var out []T
	for v, ok := it.Next(); ok; v, ok = it.Next() {
		out = append(out, v)
	}
	return out, it.Err()
}

// reseal returns a copy of a saved state whose checksum is computed again over
// its bytes (internal/state's encoding: a CRC-32C of everything before it, 4
// bytes little-endian), so that a test can reach the checks behind the
// checksum with a state it damaged on purpose. A state shorter than its magic
// and a checksum is returned as it is.
func reseal(st []byte) []byte {
	if len(st) < len(state.Magic)+4 {
		return append([]byte(nil), st...)
	}
	body := append([]byte(nil), st[:len(st)-4]...)
	return binary.LittleEndian.AppendUint32(body, crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
}
