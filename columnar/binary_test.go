package columnar_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/obskit/obskit/columnar"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
)

var errChunk = errors.New("chunk 1 does not decompress")

// binaryColumn is a text column of three chunks, the second dictionary-encoded;
// with bad, chunk 1 cannot be read (its Part panics with an error, as a format
// package's does).
func binaryColumn(bad bool) *columnar.Strings {
	parts := []*columnar.Part[byte]{
		{Values: []byte("abcdef"), Off32: []int32{0, 1, 3, 3, 6}},
		{Keys: []int32{1, 0, 1}, Dict: &columnar.Part[byte]{Values: []byte("\xff\xd8jpeg\x00png"), Off64: []int64{0, 6, 10}}},
		{Values: []byte("xyz"), Off64: []int64{0, 3}},
	}
	return columnar.NewStrings("test", columnar.Chunks[byte]{
		Starts: []int{0, 4, 7, 8},
		Name:   `t.arrow: column "img"`,
		Part: func(c int) *columnar.Part[byte] {
			if bad && c == 1 {
				panic(fmt.Errorf("test: t.arrow: batch 1: %w", errChunk))
			}
			return parts[c]
		},
	})
}

// TestBinary: the rows of a text column as []byte, a container.Encoded that
// passes the checker; Where names the file, column and row; the blocks are
// the chunks.
func TestBinary(t *testing.T) {
	s := binaryColumn(false)
	b := s.Binary()
	want := []string{"a", "bc", "", "def", "\x00png", "\xff\xd8jpeg", "\x00png", "xyz"}
	for i, w := range want {
		if got := b.GetObs(i); string(got) != w || got == nil {
			t.Errorf("GetObs(%d) = %q, want %q (not nil)", i, got, w)
		}
		if got, err := b.AppendObs([]byte(">"), i); err != nil || string(got) != ">"+w {
			t.Errorf("AppendObs(\">\", %d) = %q, %v, want %q", i, got, err, ">"+w)
		}
	}
	if got, want := b.Where(5), `t.arrow: column "img": row 5`; got != want {
		t.Errorf("Where(5) = %q, want %q", got, want)
	}
	if got := b.BlockStarts(); !slices.Equal(got, []int{0, 4, 7, 8}) {
		t.Errorf("BlockStarts() = %v, want the chunks' starts", got)
	}
	containertest.Run(t, b, containertest.Config[[]byte, columnar.Ragged[byte]]{
		Obs: func(r columnar.Ragged[byte], j int) []byte { return r.At(j) },
		Len: func(r columnar.Ragged[byte]) int { return r.Len() },
	})
	var c container.Container[[]byte] = b
	buf := make([]byte, 0, 16)
	if n := testing.AllocsPerRun(100, func() {
		for i := range c.Nobs() {
			buf, _ = container.AppendObs(c, buf[:0], i)
		}
	}); n != 0 {
		t.Errorf("AppendObs into a reused buffer: %v allocations, want 0", n)
	}
}

// TestBinaryChunkError: a chunk that cannot be read is AppendObs's error,
// dst's bytes kept, and GetObs's panic; the other chunks read.
func TestBinaryChunkError(t *testing.T) {
	b := binaryColumn(true).Binary()
	if got, err := b.AppendObs(nil, 7); err != nil || string(got) != "xyz" {
		t.Fatalf("AppendObs(nil, 7) = %q, %v, want xyz", got, err)
	}
	got, err := b.AppendObs([]byte("kept"), 5)
	if !errors.Is(err, errChunk) || !strings.Contains(err.Error(), "t.arrow: batch 1") || !bytes.Equal(got, []byte("kept")) {
		t.Fatalf("AppendObs(\"kept\", 5) of a bad chunk = %q, %v, want \"kept\" and the chunk's error", got, err)
	}
	var p any
	func() {
		defer func() { p = recover() }()
		b.GetObs(5)
	}()
	if e, ok := p.(error); !ok || e.Error() != err.Error() {
		t.Errorf("GetObs(5) of a bad chunk panicked with %v, want AppendObs's error", p)
	}
}

// TestBinaryBugsPanic: a panic that is no chunk's error (a bug) is not
// turned into an error.
func TestBinaryBugsPanic(t *testing.T) {
	b := columnar.NewStrings("test", columnar.Chunks[byte]{
		Starts: []int{0, 2},
		Part: func(int) *columnar.Part[byte] {
			return &columnar.Part[byte]{Values: []byte("ab"), Off32: []int32{0, 1}}
		}, // one offset short
	}).Binary()
	var p any
	func() {
		defer func() { p = recover() }()
		_, _ = b.AppendObs(nil, 1)
	}()
	if _, ok := p.(interface{ RuntimeError() }); !ok {
		t.Errorf("AppendObs over a part with too few offsets panicked with %v (%T), want the runtime's error", p, p)
	}
}
