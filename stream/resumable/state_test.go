package resumable_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/mix"
	"github.com/obskit/obskit/stream/resumable"
)

// savedAt runs a fresh pass of build for n values and returns its state.
func savedAt[T any](t *testing.T, build func() resumable.Stream[T], n int) []byte {
	t.Helper()
	p, err := build().Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	for _, err := range p.All() {
		if err != nil {
			t.Fatal(err)
		}
		if k++; k >= n {
			break
		}
	}
	st, err := p.Save()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// damageCase is a real saved state and the start of a pipeline built as the
// one that saved it.
type damageCase struct {
	name  string
	state []byte
	start func([]byte) error
}

func startOf[T any](build func() resumable.Stream[T]) func([]byte) error {
	return func(st []byte) error {
		p, err := build().Start(st)
		if err == nil {
			p.Close()
		}
		return err
	}
}

// damageCases saves the states of several pipelines standing mid-pass: a
// shuffle buffer, a mix of two sources through batches, a packer, a file's
// lines repeated, a cache behind a filter.
func damageCases(t *testing.T) []damageCase {
	x := ints(0, 300)
	path := filepath.Join(t.TempDir(), "lines.txt")
	var text strings.Builder
	for _, v := range x {
		fmt.Fprintln(&text, v)
	}
	if err := os.WriteFile(path, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	shuffle := func() resumable.Stream[int] { return resumable.ShuffleBuffer(resumable.Slice(x), 16, 1) }
	mixed := func() resumable.Stream[[]int] {
		return resumable.Batches(resumable.Mix(mix.AllExhausted, []float64{1, 2}, 3,
			resumable.BlockShuffle(resumable.Slice(x), 5, 2),
			resumable.Unbatch(resumable.Batches(resumable.Slice(x[:40]), 3, index.Keep))), 4, index.Drop)
	}
	pack := func() resumable.Stream[*resumable.Packed[int]] {
		seqs := make([][]int, 60)
		for i := range seqs {
			seqs[i] = x[i : i+1+i%7]
		}
		return resumable.Pack(resumable.Slice(seqs), 12, 2, resumable.PackOptions{Window: 4})
	}
	lines := func() resumable.Stream[string] {
		open := func() (io.ReadSeekCloser, error) { return os.Open(path) }
		return resumable.Take(resumable.Repeat(resumable.Lines(open, 64), 3), 700)
	}
	cache := func() resumable.Stream[int] {
		return resumable.Cache(resumable.Filter(resumable.Slice(x), func(v int) bool { return v%3 != 0 }))
	}
	return []damageCase{
		{"ShuffleBuffer", savedAt(t, shuffle, 37), startOf(shuffle)},
		{"Batches(Mix(BlockShuffle, Unbatch(Batches)))", savedAt(t, mixed, 11), startOf(mixed)},
		{"Pack", savedAt(t, pack, 5), startOf(pack)},
		{"Take(Repeat(Lines))", savedAt(t, lines, 450), startOf(lines)},
		{"Cache(Filter)", savedAt(t, cache, 50), startOf(cache)},
	}
}

// TestDamagedState flips every bit of real saved states, one at a time, and
// cuts them at every length: each is refused with an error wrapping ErrState
// that says which check failed (the magic, the version or the checksum). Before
// states carried a checksum, about one flip in nine resumed a different
// stream without an error.
func TestDamagedState(t *testing.T) {
	head := len("obskit.stream")
	for _, c := range damageCases(t) {
		if err := c.start(c.state); err != nil {
			t.Fatalf("%s: the undamaged state: %v", c.name, err)
		}
		refused := func(what string, st []byte, want string) {
			t.Helper()
			err := c.start(st)
			if !errors.Is(err, resumable.ErrState) || !strings.Contains(err.Error(), want) {
				t.Fatalf("%s: %s: %v, want ErrState saying %q", c.name, what, err, want)
			}
		}
		st := make([]byte, len(c.state))
		for i := range c.state {
			want := "checksum mismatch"
			switch {
			case i < head:
				want = "not a saved stream state"
			case i == head:
				want = "this package reads version 2"
			}
			for bit := range 8 {
				copy(st, c.state)
				st[i] ^= 1 << bit
				refused(fmt.Sprintf("bit %d of byte %d of %d flipped", bit, i, len(st)), st, want)
			}
		}
		for n := 1; n < len(c.state); n++ {
			want := "checksum mismatch"
			switch {
			case n < head:
				want = "not a saved stream state"
			case n < head+5:
				want = "cut short"
			}
			refused(fmt.Sprintf("cut to %d bytes", n), c.state[:n], want)
		}
		refused("a byte appended", append(append([]byte(nil), c.state...), 0), "checksum mismatch")
		t.Logf("%s: %d bytes, every bit flipped and every cut refused", c.name, len(c.state))
	}
}
