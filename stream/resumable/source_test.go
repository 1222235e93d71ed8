package resumable_test

import (
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/mix"
	"github.com/obskit/obskit/stream"
	"github.com/obskit/obskit/stream/resumable"
)

// TestLinesResume reads a file's lines, resumes at every line from the saved
// byte offset (the file is reopened and seeks; nothing before is read), and
// compares with bufio's lines of the same text.
func TestLinesResume(t *testing.T) {
	text := "alpha\r\nbeta\n\ngamma delta\nlast line without newline"
	path := filepath.Join(t.TempDir(), "lines.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	opens := 0
	open := func() (io.ReadSeekCloser, error) { opens++; return os.Open(path) }
	want, err := stream.Collect(stream.Lines(func() (io.ReadCloser, error) { return os.Open(path) }))
	if err != nil {
		t.Fatal(err)
	}
	s := resumable.Lines(open, 100)
	if diff := cmp.Diff(want, collectStrings(t, s.All())); diff != "" {
		t.Fatalf("Lines mismatch with stream.Lines (-want +got):\n%s", diff)
	}
	for k := 0; k <= len(want); k++ {
		p, _ := s.Start(nil)
		n := 0
		if k > 0 {
			for _, err := range p.All() {
				if err != nil {
					t.Fatal(err)
				}
				if n++; n == k {
					break
				}
			}
		}
		p.Close()
		st, err := p.Save()
		if err != nil {
			t.Fatal(err)
		}
		q, err := s.Start(st)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want[k:], collectStrings(t, q.All()), cmp.Comparer(func(a, b []string) bool { return slices.Equal(a, b) })); diff != "" {
			t.Errorf("resumed after %d lines mismatch (-want +got):\n%s", k, diff)
		}
	}
	if opens == 0 {
		t.Fatal("open never called")
	}
	var last error
	for _, err := range resumable.Lines(open, 8).All() {
		last = err
	}
	if !errors.Is(last, resumable.ErrLineTooLong) || !strings.Contains(last.Error(), "line 4") {
		t.Errorf("a line of 11 bytes with a limit of 8: error %v, want ErrLineTooLong naming line 4", last)
	}
}

func collectStrings(t *testing.T, r stream.Reader[string]) []string {
	t.Helper()
	out, err := stream.Collect(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMixStream checks the stream mix against its rules: the values each rule
// yields, and every prefix within 1.5 values of the weights while all sources
// take part.
func TestMixStream(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for trial := range 300 {
		k := 1 + rng.IntN(4)
		w := make([]float64, k)
		srcs := make([]resumable.Stream[int], k)
		n := make([]int, k)
		for j := range k {
			n[j], w[j] = rng.IntN(80), 0.2+rng.Float64()
			srcs[j] = resumable.Slice(ints(1000*j, n[j]))
		}
		rule := mix.Rule(rng.IntN(3))
		got, err := collectErr(resumable.Mix(rule, w, rng.Uint64(), srcs...).All())
		count := make([]int, k)
		for _, v := range got {
			count[v/1000]++
		}
		switch rule {
		case mix.AllExhausted:
			if diff := cmp.Diff(n, count); err != nil || diff != "" {
				t.Fatalf("trial %d: all-exhausted mix of %v: counts mismatch (-want +got):\n%s (error %v)", trial, n, diff, err)
			}
		case mix.Resample:
			if slices.Contains(n, 0) {
				if !errors.Is(err, container.ErrEmpty) {
					t.Fatalf("trial %d: resampled mix of %v: error %v, want ErrEmpty", trial, n, err)
				}
				continue
			}
			for j := range k {
				if count[j] < n[j] {
					t.Fatalf("trial %d: resampled mix of %v: counts %v, each source at least once", trial, n, count)
				}
			}
		case mix.FirstExhausted:
			for j := range k {
				if count[j] > n[j] {
					t.Fatalf("trial %d: first-exhausted mix of %v: counts %v", trial, n, count)
				}
			}
		}
		sum := 0.0 // an empty source leaves at once (or ends the stream)
		for j, x := range w {
			if n[j] > 0 {
				sum += x
			}
		}
		c := make([]int, k)
		for i, v := range got {
			j := v / 1000
			if c[j]++; c[j] == n[j] {
				break // a source has given all it has: the ratio changes
			}
			for s := range k {
				if n[s] == 0 {
					continue
				}
				if d := float64(c[s]) - float64(i+1)*w[s]/sum; d > 1.5 || d < -1.5 {
					t.Fatalf("trial %d: after %d values source %d has %d of %.2f", trial, i+1, s, c[s], float64(i+1)*w[s]/sum)
				}
			}
		}
	}
}
