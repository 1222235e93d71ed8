package index_test

import (
	"errors"
	"testing"

	"github.com/obskit/obskit/container"
)

// recoverFrom runs f and returns the value it panicked with, or nil.
func recoverFrom(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

// wantArgPanic checks that f panics with a *container.ArgError for op and arg.
func wantArgPanic(t *testing.T, what, op, arg string, f func()) {
	t.Helper()
	r := recoverFrom(f)
	err, _ := r.(error)
	var ae *container.ArgError
	if !errors.As(err, &ae) {
		t.Errorf("%s: panic %v (%T), want a *container.ArgError", what, r, r)
		return
	}
	if ae.Op != op || ae.Arg != arg {
		t.Errorf("%s: panic %+v, want Op %q and Arg %q", what, *ae, op, arg)
	}
}

// wantIndexPanic checks that f panics with a *container.IndexError for op, index
// and count.
func wantIndexPanic(t *testing.T, what, op string, index, n int, f func()) {
	t.Helper()
	r := recoverFrom(f)
	err, _ := r.(error)
	var ie *container.IndexError
	if !errors.As(err, &ie) {
		t.Errorf("%s: panic %v (%T), want a *container.IndexError", what, r, r)
		return
	}
	if ie.Op != op || ie.Index != index || ie.Nobs != n {
		t.Errorf("%s: panic %+v, want {Op:%s Index:%d Nobs:%d}", what, *ie, op, index, n)
	}
}

func iota(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
