package subset_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// labeledInts is labeled data whose features are the indices 0..n-1 (so a
// feature names its observation) and whose labels are a slice.
type labeledInts[L any] = tuples.Tuple2[*container.Func[int], container.Slice[L], int, []int, L, []L]

// withLabels returns subset.Iota(len(labels)) linked with labels.
func withLabels[L any](tb testing.TB, labels []L) *labeledInts[L] {
	tb.Helper()
	data, err := tuples.Zip2(subset.Iota(len(labels)), container.FromSlice(labels))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// indices returns the index list of every view.
func indices[T, B any](views []*subset.View[T, B]) [][]int {
	out := make([][]int, len(views))
	for k, v := range views {
		out[k] = v.Indices()
	}
	return out
}

func iota(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func rangeList(lo, hi int) []int {
	s := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		s = append(s, i)
	}
	return s
}

// mustPanic runs f and returns the recovered panic value, failing when f returns.
func mustPanic(t *testing.T, what string, f func()) (r any) {
	t.Helper()
	defer func() {
		r = recover()
		if r == nil {
			t.Errorf("%s did not panic", what)
		}
	}()
	f()
	return nil
}

// wantIndexPanic checks that f panics with an *container.IndexError for op, index
// and count.
func wantIndexPanic(t *testing.T, what, op string, index, n int, f func()) {
	t.Helper()
	r := mustPanic(t, what, f)
	err, _ := r.(error)
	var ie *container.IndexError
	if !errors.As(err, &ie) {
		t.Errorf("%s: panic %v (%T), want *container.IndexError", what, r, r)
		return
	}
	if ie.Op != op || ie.Index != index || ie.Nobs != n {
		t.Errorf("%s: panic %+v, want {Op:%s Index:%d Nobs:%d}", what, *ie, op, index, n)
	}
}

// wantArgPanic checks that f panics with an *container.ArgError for op and arg.
func wantArgPanic(t *testing.T, what, op, arg string, f func()) {
	t.Helper()
	r := mustPanic(t, what, f)
	err, _ := r.(error)
	var ae *container.ArgError
	if !errors.As(err, &ae) {
		t.Errorf("%s: panic %v (%T), want *container.ArgError", what, r, r)
		return
	}
	if ae.Op != op || ae.Arg != arg {
		t.Errorf("%s: panic %+v, want Op %q and Arg %q", what, *ae, op, arg)
	}
}

// wantErr checks that err wraps target and names every fragment.
func wantErr(t *testing.T, what string, err, target error, fragments ...any) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: error %v, want one wrapping %v", what, err, target)
	}
	for _, f := range fragments {
		if s := fmt.Sprint(f); !strings.Contains(err.Error(), s) {
			t.Errorf("%s: error %q does not name %q", what, err, s)
		}
	}
}

func subsetSlice[T any](s []T) container.Slice[T] { return container.FromSlice(s) }
