package stream_test

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/stream"
)

// text is an io.ReadCloser that records Close and can fail it.
type text struct {
	io.Reader
	closed   *int
	closeErr error
}

func (x text) Close() error { *x.closed++; return x.closeErr }

func TestLines(t *testing.T) {
	closed := 0
	open := func() (io.ReadCloser, error) { return text{strings.NewReader("a\nbb\r\n\nccc"), &closed, nil}, nil }
	r := stream.Lines(open)
	for pass := range 2 {
		got, err := collect(t, r)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]string{"a", "bb", "", "ccc"}, got); d != "" {
			t.Fatalf("pass %d mismatch (-want +got):\n%s", pass, d)
		}
	}
	for range r {
		break
	}
	if closed != 3 {
		t.Errorf("Close called %d times for 3 passes", closed)
	}
}

func TestLinesErrors(t *testing.T) {
	errOpen, errClose := errors.New("no such file"), errors.New("close failed")
	closed := 0
	tests := []struct {
		name      string
		open      func() (io.ReadCloser, error)
		wantLines int
		want      error
		substr    string
	}{
		{"open", func() (io.ReadCloser, error) { return nil, errOpen }, 0, errOpen, "stream.Lines: open: no such file"},
		{"too long", func() (io.ReadCloser, error) {
			return text{strings.NewReader("ok\n" + strings.Repeat("x", bufio.MaxScanTokenSize+1)), &closed, nil}, nil
		}, 1, bufio.ErrTooLong, "after line 1"},
		{"close", func() (io.ReadCloser, error) { return text{strings.NewReader("a\nb"), &closed, errClose}, nil }, 2, errClose, "stream.Lines: close"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := collect(t, stream.Lines(tc.open))
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.substr) {
				t.Errorf("error %v, want %v saying %q", err, tc.want, tc.substr)
			}
			if len(got) != tc.wantLines {
				t.Errorf("%d lines before the error, want %d", len(got), tc.wantLines)
			}
		})
	}
}

func TestCollect(t *testing.T) {
	got, err := stream.Collect(failing(t, 3))
	if !errors.Is(err, errSource) || !cmp.Equal(got, []int{0, 1, 2}) {
		t.Errorf("Collect(failing after 3) = %v, %v; want [0 1 2], %v", got, err, errSource)
	}
	got, err = stream.Collect(ints(0))
	if err != nil || got != nil {
		t.Errorf("Collect(empty) = %v, %v; want nil, nil", got, err)
	}
}

// TestLinesClosesOnPanic is the regression test of a leak: Lines closed its file
// when the consumer broke out of the loop or the pass ended, but not when the
// loop body panicked, so a recovered panic left the file open. Every way out of
// a pass closes it exactly once, also when Lines runs in Prefetch's goroutine.
func TestLinesClosesOnPanic(t *testing.T) {
	closed := 0
	open := func() (io.ReadCloser, error) { return text{strings.NewReader("a\nb\nc\n"), &closed, nil}, nil }
	body := func(r stream.Reader[string], stop func(line string) bool) (p any) {
		defer func() { p = recover() }()
		for line, err := range r {
			if err != nil {
				t.Fatal(err)
			}
			if stop(line) {
				break
			}
		}
		return nil
	}
	tests := []struct {
		name string
		r    stream.Reader[string]
		stop func(string) bool
		want any
	}{
		{"panic in the body", stream.Lines(open), func(string) bool { panic("body") }, "body"},
		{"panic at the last line", stream.Lines(open), func(l string) bool {
			if l == "c" {
				panic("last")
			}
			return false
		}, "last"},
		{"break", stream.Lines(open), func(l string) bool { return l == "b" }, nil},
		{"end", stream.Lines(open), func(string) bool { return false }, nil},
		{"panic through Prefetch", stream.Prefetch(stream.Lines(open), 1), func(string) bool { panic("body") }, "body"},
		{"panic through ParallelMap", stream.ParallelMap(stream.Lines(open), 2, func(s string) (string, error) { return s, nil }), func(string) bool { panic("body") }, "body"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			closed = 0
			if p := body(tc.r, tc.stop); p != tc.want {
				t.Fatalf("recovered %v, want %v", p, tc.want)
			}
			if closed != 1 {
				t.Errorf("Close called %d times, want 1", closed)
			}
		})
	}
}
