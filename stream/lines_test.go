package stream_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/stream"
)

// text is an io.ReadCloser that records Close and can fail it.
type text struct {
	io.Reader
	closed   *int
	closeErr error
}

func (x text) Close() error { *x.closed++; return x.closeErr }

// openText returns an open function of a text that cannot seek.
func openText(s string) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(s)), nil }
}

func TestLines(t *testing.T) {
	closed := 0
	open := func() (io.ReadCloser, error) { return text{strings.NewReader("a\nbb\r\n\nccc"), &closed, nil}, nil }
	s := stream.Lines(open, 10)
	for pass := range 2 {
		got, err := read(t, s)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]string{"a", "bb", "", "ccc"}, got); d != "" {
			t.Fatalf("pass %d mismatch (-want +got):\n%s", pass, d)
		}
	}
	for range s.All() {
		break
	}
	if closed != 3 {
		t.Errorf("Close called %d times for 3 passes", closed)
	}
}

// TestLinesLimit: a line of exactly the limit is read (its "\r\n" does not
// count), one byte more ends the stream with ErrLineTooLong naming the line,
// whether it ends with a newline, fills bufio's buffer or ends the text.
func TestLinesLimit(t *testing.T) {
	for _, limit := range []int{3, 8, 5000} {
		ok := strings.Repeat("x", limit)
		got, err := read(t, stream.Lines(openText("a\r\n"+ok+"\r\n"+ok), limit))
		if err != nil || len(got) != 3 || got[1] != ok || got[2] != ok {
			t.Errorf("limit %d: lines of the limit: %d lines, %v", limit, len(got), err)
		}
		for _, long := range []string{"a\n" + ok + "y\nb\n", "a\n" + ok + "y"} {
			got, err := read(t, stream.Lines(openText(long), limit))
			if !errors.Is(err, stream.ErrLineTooLong) || !strings.Contains(err.Error(), "line 2") || len(got) != 1 {
				t.Errorf("limit %d: a line one byte longer: %d lines then %v, want 1 then ErrLineTooLong naming line 2", limit, len(got), err)
			}
		}
	}
}

func TestLinesErrors(t *testing.T) {
	errOpen, errClose, errRead := errors.New("no such file"), errors.New("close failed"), errors.New("disk failed")
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
		}, 1, stream.ErrLineTooLong, "stream.Lines: line 2"},
		{"read", func() (io.ReadCloser, error) {
			return text{io.MultiReader(strings.NewReader("a\nb\n"), iotestErr{errRead}), &closed, nil}, nil
		}, 2, errRead, "stream.Lines: after line 2: disk failed"},
		{"close", func() (io.ReadCloser, error) { return text{strings.NewReader("a\nb"), &closed, errClose}, nil }, 2, errClose, "stream.Lines: close"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := read(t, stream.Lines(tc.open, bufio.MaxScanTokenSize))
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.substr) {
				t.Errorf("error %v, want %v saying %q", err, tc.want, tc.substr)
			}
			if len(got) != tc.wantLines {
				t.Errorf("%d lines before the error, want %d", len(got), tc.wantLines)
			}
		})
	}
}

// iotestErr is a reader that fails with its error.
type iotestErr struct{ err error }

func (r iotestErr) Read([]byte) (int, error) { return 0, r.err }

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
	body := func(s stream.Stream[string], stop func(line string) bool) (p any) {
		defer func() { p = recover() }()
		for line, err := range s.All() {
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
		s    stream.Stream[string]
		stop func(string) bool
		want any
	}{
		{"panic in the body", stream.Lines(open, 10), func(string) bool { panic("body") }, "body"},
		{"panic at the last line", stream.Lines(open, 10), func(l string) bool {
			if l == "c" {
				panic("last")
			}
			return false
		}, "last"},
		{"break", stream.Lines(open, 10), func(l string) bool { return l == "b" }, nil},
		{"end", stream.Lines(open, 10), func(string) bool { return false }, nil},
		{"panic through Prefetch", stream.Prefetch(stream.Lines(open, 10), 1), func(string) bool { panic("body") }, "body"},
		{"panic through ParallelMap", stream.ParallelMap(stream.Lines(open, 10), 2, func(s string) (string, error) { return s, nil }), func(string) bool { panic("body") }, "body"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			closed = 0
			if p := body(tc.s, tc.stop); p != tc.want {
				t.Fatalf("recovered %v, want %v", p, tc.want)
			}
			if closed != 1 {
				t.Errorf("Close called %d times, want 1", closed)
			}
		})
	}
}

// TestLinesResume reads a file's lines, restores a pass at every line from the
// saved byte offset and compares with bufio's lines of the same text: a file
// opened with os.Open seeks (nothing before the offset is read), a text that
// cannot seek is read again to the offset.
func TestLinesResume(t *testing.T) {
	const body = "alpha\r\nbeta\n\ngamma delta\nlast line without newline"
	path := filepath.Join(t.TempDir(), "lines.txt")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var want []string
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		want = append(want, sc.Text())
	}
	var readBytes int
	for name, open := range map[string]func() (io.ReadCloser, error){
		"file": func() (io.ReadCloser, error) {
			f, err := os.Open(path)
			return countingFile{f, &readBytes}, err
		},
		"pipe": func() (io.ReadCloser, error) {
			return pipeText{countingReader{strings.NewReader(body), &readBytes}}, nil
		},
	} {
		s := stream.Lines(open, 100)
		got, err := read(t, s)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%s: Lines mismatch with bufio (-want +got):\n%s", name, d)
		}
		for k := 0; k <= len(want); k++ {
			st := savedAfter(t, s, k)
			readBytes = 0
			it := restored(t, s, st)
			got, err := rest(it)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want[k:], got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("%s: restored after %d lines mismatch (-want +got):\n%s", name, k, d)
			}
			// The bytes after the offset are read once; before it, a file
			// seeks and a pipe reads again.
			after := len(strings.Join(want[k:], "\n"))
			if name == "file" && readBytes > after+3 || name == "pipe" && readBytes < len(body) {
				t.Errorf("%s: restored after %d lines: %d bytes read, %d after the offset", name, k, readBytes, after)
			}
		}
	}
	var last error
	for _, err := range stream.Lines(func() (io.ReadCloser, error) { return os.Open(path) }, 8).All() {
		last = err
	}
	if !errors.Is(last, stream.ErrLineTooLong) || !strings.Contains(last.Error(), "line 4") {
		t.Errorf("a line of 11 bytes with a limit of 8: error %v, want ErrLineTooLong naming line 4", last)
	}
}

// TestLinesChanged: a state restored over a text that has become shorter than
// its offset fails with an error naming the offset, the line and where the text
// ends, whether it seeks (a file that seeks past its end would read nothing and
// end quietly) or is read again; a failing seek fails the pass; a state at the
// end is the end.
func TestLinesChanged(t *testing.T) {
	long := "one\ntwo\nthree\nfour\n"
	s := stream.Lines(openText(long), 10)
	st := savedAfter(t, s, 3)
	got, err := rest(restored(t, stream.Lines(openText("one\n"), 10), st))
	if !errors.Is(err, io.EOF) || !strings.Contains(err.Error(), "reading again to byte 14 (line 4): the text ends at byte 4") || len(got) != 0 {
		t.Errorf("a shorter pipe: %v, %v; want the error naming byte 14 and line 4", got, err)
	}
	got, err = rest(restored(t, stream.Lines(func() (io.ReadCloser, error) { return seekText{bytes.NewReader([]byte("one\n"))}, nil }, 10), st))
	if !errors.Is(err, io.EOF) || !strings.Contains(err.Error(), "seek to byte 14 (line 4): the text ends at byte 4") || len(got) != 0 {
		t.Errorf("a shorter file: %v, %v; want the error naming byte 14 and line 4", got, err)
	}
	errSeek := errors.New("seek failed")
	got, err = rest(restored(t, stream.Lines(func() (io.ReadCloser, error) { return badSeeker{strings.NewReader(long), errSeek}, nil }, 10), st))
	if !errors.Is(err, errSeek) || !strings.Contains(err.Error(), "seek to byte 14 (line 4)") || len(got) != 0 {
		t.Errorf("a failing seek: %v, %v; want the error naming byte 14 and line 4", got, err)
	}
	end := savedAfter(t, s, 10)
	got, err = rest(restored(t, s, end))
	if err != nil || len(got) != 0 {
		t.Errorf("restored at the end: %v, %v; want nothing", got, err)
	}
}

type countingFile struct {
	*os.File
	n *int
}

func (f countingFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	*f.n += n
	return n, err
}

type countingReader struct {
	r io.Reader
	n *int
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	*c.n += n
	return n, err
}

type badSeeker struct {
	*strings.Reader
	err error
}

func (b badSeeker) Seek(int64, int) (int64, error) { return 0, b.err }
func (badSeeker) Close() error                     { return nil }
