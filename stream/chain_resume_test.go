package stream_test

import (
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/obskit/obskit/stream"
)

// TestChainResumeInside checks a Chain restored at a position inside one of
// its streams, the first, the second and at the boundary: the restored
// iterator yields the rest of the uninterrupted pass, each value once.
func TestChainResumeInside(t *testing.T) {
	s := stream.Chain(ints(10), ints(7), ints(5))
	want, err := read(t, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{3, 10, 13, 20} {
		got, err := rest(restored(t, s, savedAfter(t, s, k)))
		if err != nil || !cmp.Equal(want[k:], got) {
			t.Errorf("restored after %d values: %v, %v; want %v", k, got, err, want[k:])
		}
	}
}

// TestLinesLimitOne checks the smallest line limit, one byte: lines of one
// byte are read, a longer one is an error.
func TestLinesLimitOne(t *testing.T) {
	open := func(text string) func() (io.ReadCloser, error) {
		return func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(text)), nil }
	}
	got, err := read(t, stream.Lines(open("a\nb\nc\n"), 1))
	if err != nil || !cmp.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("lines of one byte under a limit of 1: %q, %v", got, err)
	}
	if _, err := read(t, stream.Lines(open("a\nbc\n"), 1)); err == nil {
		t.Error("a line of two bytes under a limit of 1: no error")
	}
}
