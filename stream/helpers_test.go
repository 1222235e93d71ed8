package stream_test

import (
	"errors"
	"iter"
	"strings"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/stream"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var errSource = errors.New("source failed")

// ints returns a reader of 0..n-1.
func ints(n int) stream.Reader[int] {
	return func(yield func(int, error) bool) {
		for i := range n {
			if !yield(i, nil) {
				return
			}
		}
	}
}

// failing returns a reader of 0..n-1 followed by errSource. It fails the test if
// a decorator asks for more after its error.
func failing(t *testing.T, n int) stream.Reader[int] {
	return func(yield func(int, error) bool) {
		for i := range n {
			if !yield(i, nil) {
				return
			}
		}
		if yield(0, errSource) {
			t.Errorf("a decorator asked for more after the source's error")
		}
	}
}

// counting returns a reader of 0..n-1 (n < 0: endless) that counts the values
// taken from it in *reads.
func counting(n int, reads *int) stream.Reader[int] {
	return func(yield func(int, error) bool) {
		for i := 0; n < 0 || i < n; i++ {
			*reads++
			if !yield(i, nil) {
				return
			}
		}
	}
}

// collect ranges over r and returns the values and the error, failing the test
// if anything comes after an error.
func collect[T any](t *testing.T, r stream.Reader[T]) ([]T, error) {
	t.Helper()
	var out []T
	var failed error
	for v, err := range r {
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

// iterPull is iter.Pull2 for a reader, returning only the value.
func iterPull[T any](r stream.Reader[T]) (func() T, func()) {
	next, stop := iter.Pull2(r)
	return func() T { v, _, _ := next(); return v }, stop
}
