package container_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
)

// square is a user container with only the two required methods.
type square struct{ n int }

func (s square) Nobs() int { return s.n }
func (s square) GetObs(i int) int {
	container.CheckIndex("square.GetObs", i, s.n)
	return i * i
}

func TestConformance(t *testing.T) {
	for _, n := range []int{0, 1, 7, 500} {
		s := make([]float64, n)
		for i := range s {
			s[i] = float64(i) / 3
		}
		t.Run("Slice/"+strconv.Itoa(n), func(t *testing.T) {
			containertest.Run(t, container.FromSlice(s), containertest.SliceConfig[float64]())
		})
		t.Run("Func/"+strconv.Itoa(n), func(t *testing.T) {
			containertest.Run(t, container.FromFunc(n, func(i int) string { return strings.Repeat("x", i%5) }), containertest.SliceConfig[string]())
		})
		t.Run("AsBatched/"+strconv.Itoa(n), func(t *testing.T) {
			containertest.Run(t, container.AsBatched(square{n}), containertest.SliceConfig[int]())
		})
	}
}

func TestSliceGetObsIntoReuses(t *testing.T) {
	s := container.FromSlice([]int{10, 11, 12, 13})
	buf := make([]int, 0, 8)
	got := s.GetObsInto(buf, []int{3, 0, 3})
	if d := cmp.Diff([]int{13, 10, 13}, got); d != "" {
		t.Fatalf("GetObsInto mismatch (-want +got):\n%s", d)
	}
	if &got[0] != &buf[:1][0] {
		t.Error("GetObsInto allocated although dst had capacity")
	}
	if a := testing.AllocsPerRun(100, func() { got = s.GetObsInto(got, []int{1, 2}) }); a != 0 {
		t.Errorf("GetObsInto with capacity: %v allocs, want 0", a)
	}
}

func TestAsBatchedKeepsBatched(t *testing.T) {
	s := container.FromSlice([]int{1, 2})
	if _, ok := container.AsBatched(s).(container.Slice[int]); !ok {
		t.Error("AsBatched wrapped a container that was already Batched[T, []T]")
	}
}

// unchecked is a user container whose GetObs forgets the range check.
type unchecked struct{}

func (unchecked) Nobs() int        { return 2 }
func (unchecked) GetObs(i int) int { return i }

// TestAsBatchedChecksIndices shows that the adapter's GetObsInto keeps the
// contract even when the user's GetObs does not check its index.
func TestAsBatchedChecksIndices(t *testing.T) {
	defer func() {
		err, _ := recover().(error)
		var ie *container.IndexError
		if !errors.As(err, &ie) || ie.Op != "container.AsBatched.GetObsInto" || ie.Index != 5 || ie.Nobs != 2 {
			t.Errorf("panic %v, want an IndexError from container.AsBatched.GetObsInto for index 5 of 2", err)
		}
	}()
	container.AsBatched(unchecked{}).GetObsInto(nil, []int{0, 5})
}

func TestIndexError(t *testing.T) {
	defer func() {
		r := recover()
		var ie *container.IndexError
		if err, ok := r.(error); !ok || !errors.As(err, &ie) {
			t.Fatalf("panic value %v (%T), want *IndexError", r, r)
		}
		if want := "container.Slice.GetObs: index 4 out of range [0, 2)"; ie.Error() != want {
			t.Errorf("message %q, want %q", ie.Error(), want)
		}
	}()
	container.FromSlice([]int{1, 2}).GetObs(4)
}

func TestCollectAndGetBatch(t *testing.T) {
	c := container.FromFunc(4, func(i int) int { return 2 * i })
	if d := cmp.Diff([]int{0, 2, 4, 6}, container.Collect(c)); d != "" {
		t.Errorf("Collect mismatch (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]int{6, 0}, container.GetBatch(c, []int{3, 0})); d != "" {
		t.Errorf("GetBatch mismatch (-want +got):\n%s", d)
	}
}

// recovered calls f and returns the value it panicked with, or nil.
func recovered(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

// argError returns the *container.ArgError f panics with, or nil.
func argError(f func()) *container.ArgError {
	err, _ := recovered(f).(error)
	var ae *container.ArgError
	if !errors.As(err, &ae) {
		return nil
	}
	return ae
}

func TestFromFuncArgs(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		f    func(int) int
		want container.ArgError
	}{
		{"negative count", -1, func(int) int { return 0 }, container.ArgError{Op: "container.FromFunc", Arg: "count", Value: -1, Want: ">= 0"}},
		{"nil function", 3, nil, container.ArgError{Op: "container.FromFunc", Arg: "function", Value: "nil", Want: "a function of the index"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ae := argError(func() { container.FromFunc(tc.n, tc.f) })
			if ae == nil {
				t.Fatalf("FromFunc(%d, f) did not panic with a *container.ArgError", tc.n)
			}
			if d := cmp.Diff(tc.want, *ae); d != "" {
				t.Errorf("FromFunc(%d, f) ArgError mismatch (-want +got):\n%s", tc.n, d)
			}
		})
	}
	if c := container.FromFunc(0, func(int) int { return 0 }); c.Nobs() != 0 {
		t.Errorf("FromFunc(0, f).Nobs() = %d, want 0", c.Nobs())
	}
}

func TestArgError(t *testing.T) {
	e := &container.ArgError{Op: "eachobs.Batches", Arg: "batch size", Value: 0, Want: ">= 1"}
	if want := "eachobs.Batches: batch size 0, want >= 1"; e.Error() != want {
		t.Errorf("Error() = %q, want %q", e.Error(), want)
	}
	// CheckArg panics only when ok is false, with every field as given, and the
	// value recovered is an error that errors.As finds (also when wrapped).
	if r := recovered(func() { container.CheckArg(true, "x.F", "n", -1, ">= 0") }); r != nil {
		t.Errorf("CheckArg(true, ...) panicked with %v", r)
	}
	r := recovered(func() { container.CheckArg(false, "x.F", "rng", "nil", "non-nil") })
	err, ok := r.(error)
	if !ok {
		t.Fatalf("CheckArg(false, ...) panicked with %v (%T), want an error", r, r)
	}
	var ae *container.ArgError
	if !errors.As(fmt.Errorf("wrapped: %w", err), &ae) {
		t.Fatalf("errors.As(%v, *ArgError) = false", err)
	}
	if d := cmp.Diff(container.ArgError{Op: "x.F", Arg: "rng", Value: "nil", Want: "non-nil"}, *ae); d != "" {
		t.Errorf("ArgError mismatch (-want +got):\n%s", d)
	}
	if want := "x.F: rng nil, want non-nil"; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
	// An ArgError is not an IndexError: the two kinds of programmer error stay apart.
	var ie *container.IndexError
	if errors.As(err, &ie) {
		t.Errorf("errors.As(ArgError, *IndexError) = true")
	}
}

func TestPanicError(t *testing.T) {
	inner := &container.IndexError{Op: "x.GetObs", Index: 3, Nobs: 2}
	pe := &container.PanicError{Op: "eachobs", Step: 4, Value: inner, Stack: []byte("stack")}
	var ie *container.IndexError
	if !errors.As(pe, &ie) || ie != inner {
		t.Errorf("errors.As(PanicError, *IndexError) did not find the panic value")
	}
	if msg := pe.Error(); !strings.HasPrefix(msg, "eachobs: panic at step 4: x.GetObs: index 3") || !strings.HasSuffix(msg, "stack") {
		t.Errorf("Error() = %q", msg)
	}
	pe = &container.PanicError{Op: "stream.Prefetch", Step: -1, Value: "boom"}
	if pe.Unwrap() != nil || !strings.HasPrefix(pe.Error(), "stream.Prefetch: panic: boom") {
		t.Errorf("non-error value: Unwrap %v, Error %q", pe.Unwrap(), pe.Error())
	}
}
