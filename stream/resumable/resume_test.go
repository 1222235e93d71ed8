package resumable_test

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/mix"
	"github.com/obskit/obskit/stream"
	"github.com/obskit/obskit/stream/resumable"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func ints(lo, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = lo + i
	}
	return s
}

// recipe builds one random pipeline of ints; calling build twice gives two
// pipelines that yield the same values (fresh caches, fresh readers), as a job
// and its restarted self would build.
type recipe struct {
	desc  string
	build func() resumable.Stream[int]
}

// linesDir is where randomRecipe writes the files of its Lines sources.
var linesDir string

// randomRecipe draws a random composition of the package's nodes, depth at
// most d.
func randomRecipe(rng *rand.Rand, d int) recipe {
	if d == 0 || rng.IntN(4) == 0 {
		lo, n := rng.IntN(1000)*1000, rng.IntN(60)
		s := ints(lo, n)
		switch rng.IntN(8) {
		case 0: // a file: every pass opens it, a resumed pass seeks
			path := filepath.Join(linesDir, fmt.Sprintf("%d-%d.txt", lo, n))
			var text strings.Builder
			for _, v := range s {
				fmt.Fprintln(&text, v)
			}
			if err := os.WriteFile(path, []byte(text.String()), 0o644); err != nil {
				panic(err)
			}
			return recipe{fmt.Sprintf("Lines(%d)", n), func() resumable.Stream[int] {
				lines := resumable.Lines(func() (io.ReadSeekCloser, error) { return os.Open(path) }, 100)
				return resumable.MapErr(lines, strconv.Atoi)
			}}
		case 1, 2:
			return recipe{fmt.Sprintf("Replay(%d)", n), func() resumable.Stream[int] { return resumable.Replay(stream.FromSlice(s)) }}
		case 3, 4:
			return recipe{fmt.Sprintf("Seek(%d)", n), func() resumable.Stream[int] {
				return resumable.Seek(func(pos int) stream.Reader[int] { return stream.FromSlice(s[pos:]) })
			}}
		default:
			return recipe{fmt.Sprintf("Slice(%d)", n), func() resumable.Stream[int] { return resumable.Slice(s) }}
		}
	}
	src := randomRecipe(rng, d-1)
	seed := rng.Uint64()
	size := 1 + rng.IntN(12)
	switch rng.IntN(10) {
	case 0:
		return recipe{"Map(" + src.desc + ")", func() resumable.Stream[int] {
			return resumable.Map(src.build(), func(v int) int { return 3*v + 1 })
		}}
	case 1:
		return recipe{"Filter(" + src.desc + ")", func() resumable.Stream[int] {
			return resumable.Filter(src.build(), func(v int) bool { return v%3 != 0 })
		}}
	case 2:
		return recipe{fmt.Sprintf("Take(%s, %d)", src.desc, 4*size), func() resumable.Stream[int] { return resumable.Take(src.build(), 4*size) }}
	case 3:
		tail := index.Tail(rng.IntN(2))
		return recipe{fmt.Sprintf("Unbatch(Batches(%s, %d, %v))", src.desc, size, tail), func() resumable.Stream[int] {
			return resumable.Unbatch(resumable.Batches(src.build(), size, tail))
		}}
	case 4:
		return recipe{fmt.Sprintf("ShuffleBuffer(%s, %d)", src.desc, size), func() resumable.Stream[int] { return resumable.ShuffleBuffer(src.build(), size, seed) }}
	case 5:
		return recipe{fmt.Sprintf("BlockShuffle(%s, %d)", src.desc, size), func() resumable.Stream[int] { return resumable.BlockShuffle(src.build(), size, seed) }}
	case 6:
		return recipe{"Cache(" + src.desc + ")", func() resumable.Stream[int] { return resumable.Cache(src.build()) }}
	case 7:
		epochs := 1 + rng.IntN(3)
		return recipe{fmt.Sprintf("Repeat(%s, %d)", src.desc, epochs), func() resumable.Stream[int] { return resumable.Repeat(src.build(), epochs) }}
	case 8:
		rows := 1 + rng.IntN(3)
		method := resumable.FirstFit
		if rng.IntN(2) == 0 {
			method = resumable.BestFitDecreasing
		}
		length := 3 + rng.IntN(8)
		return recipe{fmt.Sprintf("Pack(%s, %d, %d, %v)", src.desc, length, rows, method), func() resumable.Stream[int] {
			// Sequences of 1 to length values, packed and flattened back to the
			// values with their segment ids and positions folded in.
			seqs := resumable.Map(resumable.Batches(src.build(), 1+size%length, index.Keep), func(b []int) []int { return b[:min(len(b), length)] })
			packed := resumable.Pack(seqs, length, rows, resumable.PackOptions{Method: method, Window: size})
			return resumable.Unbatch(resumable.Map(packed, flatten))
		}}
	default:
		other := randomRecipe(rng, d-1)
		rule := mix.Rule(rng.IntN(3))
		w := []float64{float64(1 + rng.IntN(3)), 0.5 + rng.Float64()}
		return recipe{fmt.Sprintf("Mix(%v, %v, %s, %s)", rule, w, src.desc, other.desc), func() resumable.Stream[int] {
			return resumable.Mix(rule, w, seed, src.build(), other.build())
		}}
	}
}

// flatten turns a packed batch into ints that tell every slot apart: the token,
// its segment and its position.
func flatten(p *resumable.Packed[int]) []int {
	out := make([]int, 0, len(p.Tokens))
	for i, v := range p.Tokens {
		out = append(out, v*10000+int(p.Segments[i])*100+int(p.Positions[i]))
	}
	return out
}

func collectAll(t *testing.T, r stream.Reader[int]) []int {
	t.Helper()
	out, err := collectErr(r)
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	return out
}

// collectErr returns the values of r and the error that ends it, if any.
func collectErr(r stream.Reader[int]) ([]int, error) {
	var out []int
	for v, err := range r {
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestResumeAnywhere is the property of the package: over random compositions
// of its nodes (over slices, seeking and replayed readers, and files read by
// Lines), a pass interrupted at a random value, saved, and restored from
// the serialized state into a pipeline built anew yields exactly the values the
// uninterrupted pass yields after it; and so again after a second interruption.
func TestResumeAnywhere(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 17))
	linesDir = t.TempDir()
	trials := 2000
	if raceEnabled || testing.Short() {
		trials = 300
	}
	largest := 0
	for trial := range trials {
		rc := randomRecipe(rng, 4)
		want, wantErr := collectErr(rc.build().All()) // a resampled empty source fails, in place
		s := rc.build()
		if rng.IntN(2) == 0 {
			s.All()(func(int, error) bool { return true }) // fill any cache first
		}
		got, state := interrupt(t, s, nil, rng.IntN(len(want)+1))
		for round := 0; round < 2; round++ {
			largest = max(largest, len(state))
			more, next := interrupt(t, rc.build(), state, rng.IntN(len(want)-len(got)+1))
			got, state = append(got, more...), next
		}
		p, err := rc.build().Start(state)
		if err != nil {
			t.Fatalf("trial %d, %s: Start: %v", trial, rc.desc, err)
		}
		rest, err := collectErr(p.All())
		got = append(got, rest...)
		if !slices.Equal(want, got) { // cmp.Diff only to report: it is slow
			t.Fatalf("trial %d, %s: resumed stream mismatch (-want +got):\n%s", trial, rc.desc, cmp.Diff(want, got))
		}
		if errText(err) != errText(wantErr) {
			t.Fatalf("trial %d, %s: resumed stream ends with %v, want %v", trial, rc.desc, err, wantErr)
		}
	}
	t.Logf("largest state: %d bytes", largest)
}

// interrupt starts a pass of s at state, takes k values and saves.
func interrupt(t *testing.T, s resumable.Stream[int], state []byte, k int) ([]int, []byte) {
	t.Helper()
	p, err := s.Start(state)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	var got []int
	if k > 0 {
		for v, err := range p.All() {
			if err != nil {
				t.Fatal(err)
			}
			if got = append(got, v); len(got) == k {
				break
			}
		}
	}
	p.Close()
	st, err := p.Save()
	if err != nil {
		t.Fatalf("Save: %v", err)
	}
	return got, st
}

// TestSameAsStream checks that the nodes yield what package stream's decorators
// yield from the same generator.
func TestSameAsStream(t *testing.T) {
	x := ints(0, 257)
	for _, size := range []int{1, 7, 64, 300} {
		seed := uint64(size)
		for _, tc := range []struct {
			name      string
			got, want stream.Reader[int]
		}{
			{"ShuffleBuffer", resumable.ShuffleBuffer(resumable.Slice(x), size, seed).All(), stream.ShuffleBuffer(stream.FromSlice(x), size, rand.New(rand.NewPCG(seed, 0)))},
			{"BlockShuffle", resumable.BlockShuffle(resumable.Slice(x), size, seed).All(), stream.BlockShuffle(stream.FromSlice(x), size, rand.New(rand.NewPCG(seed, 0)))},
			{"Unbatch(Batches)", resumable.Unbatch(resumable.Batches(resumable.Slice(x), size, index.Drop)).All(), stream.Unbatch(stream.Batches(stream.FromSlice(x), size, index.Drop))},
			{"Take", resumable.Take(resumable.Slice(x), size).All(), stream.Take(stream.FromSlice(x), size)},
		} {
			if diff := cmp.Diff(collectAll(t, tc.want), collectAll(t, tc.got)); diff != "" {
				t.Errorf("%s size %d: mismatch with package stream (-want +got):\n%s", tc.name, size, diff)
			}
		}
	}
}

func TestStateMismatch(t *testing.T) {
	x := ints(0, 100)
	p, _ := resumable.ShuffleBuffer(resumable.Slice(x), 10, 1).Start(nil)
	for range p.All() {
		break
	}
	st, err := p.Save()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		s     resumable.Stream[int]
		state []byte
		want  string
	}{
		{"other buffer size", resumable.ShuffleBuffer(resumable.Slice(x), 20, 1), st, "buffer size is 10 in the state and 20 in the stream"},
		{"other node", resumable.BlockShuffle(resumable.Slice(x), 10, 1), st, "holds a shuffle-buffer here"},
		{"other source length", resumable.ShuffleBuffer(resumable.Slice(x[:50]), 10, 1), st, "length is 100 in the state and 50"},
		{"not a state", resumable.Slice(x), []byte("hello, world, this is not a state"), "not a saved stream state"},
		{"truncated", resumable.ShuffleBuffer(resumable.Slice(x), 10, 1), st[:len(st)-3], "checksum mismatch"},
		{"trailing bytes", resumable.ShuffleBuffer(resumable.Slice(x), 10, 1), append(append([]byte(nil), st...), 1, 2), "checksum mismatch"},
		// Damage the checksum does not see, to reach the checks behind it.
		{"truncated, checksum made again", resumable.ShuffleBuffer(resumable.Slice(x), 10, 1), resumable.Reseal(append(st[:len(st)-7:len(st)-7], st[len(st)-4:]...)), "node"},
		{"trailing bytes, checksum made again", resumable.ShuffleBuffer(resumable.Slice(x), 10, 1), resumable.Reseal(append(append(st[:len(st)-4:len(st)-4], 1, 2), st[len(st)-4:]...)), "2 bytes after the last node"},
		{"version 1", resumable.ShuffleBuffer(resumable.Slice(x), 10, 1), append(append([]byte("obskit.stream"), 1), st[len("obskit.stream")+1:]...), "version 1, this package reads version 2"},
	} {
		_, err := tc.s.Start(tc.state)
		if !errors.Is(err, resumable.ErrState) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want ErrState mentioning %q", tc.name, err, tc.want)
		}
	}
}

// FuzzStart feeds damaged states to Start: an error wrapping ErrState, never a
// panic or a huge allocation. With reseal, the damaged state's checksum is made
// again, so that the damage reaches the decoding of the nodes' records.
func FuzzStart(f *testing.F) {
	x := ints(0, 50)
	build := func() resumable.Stream[int] {
		return resumable.Mix(mix.AllExhausted, []float64{1, 2}, 3,
			resumable.ShuffleBuffer(resumable.Slice(x), 8, 1),
			resumable.Unbatch(resumable.Batches(resumable.BlockShuffle(resumable.Slice(x), 5, 2), 3, index.Keep)))
	}
	for _, k := range []int{0, 1, 17, 60} {
		p, _ := build().Start(nil)
		n := 0
		for range p.All() {
			if n++; n >= k {
				break
			}
		}
		p.Close()
		st, _ := p.Save()
		f.Add(st, false)
		f.Add(st, true)
	}
	f.Fuzz(func(t *testing.T, st []byte, reseal bool) {
		if reseal { // past the checksum, into the records
			st = resumable.Reseal(st)
		}
		p, err := build().Start(st)
		if err != nil {
			if !errors.Is(err, resumable.ErrState) {
				t.Fatalf("error %v does not wrap ErrState", err)
			}
			return
		}
		defer p.Close()
		n := 0
		for _, err := range p.All() {
			if err != nil || n > 1000 {
				break
			}
			n++
		}
	})
}
