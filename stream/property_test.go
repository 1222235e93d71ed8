package stream_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/mix"
	"github.com/obskit/obskit/stream"
	"github.com/obskit/obskit/tuples"
	"go.uber.org/goleak"
)

// A plan builds one random pipeline of ints from a seed: the same seed builds
// the same stages with the same settings, so that a state saved by one build
// restores into another (a restart builds its pipeline anew). workers changes
// the number of workers of the parallel stages, which a state does not fix.
type plan struct {
	rng       *rand.Rand
	workers   int
	unordered bool // the pipeline holds an unordered map: compare as multisets
	desc      []string
}

func build(seed uint64, workers int) (stream.Stream[int], *plan) {
	p := &plan{rng: rand.New(rand.NewPCG(seed, 99)), workers: workers}
	return p.stage(0), p
}

func (p *plan) note(format string, args ...any) {
	p.desc = append(p.desc, fmt.Sprintf(format, args...))
}

// seekText is a text that can seek, as a file opened with os.Open.
type seekText struct{ *bytes.Reader }

func (seekText) Close() error { return nil }

// pipeText is a text that cannot seek, as a decompressing reader.
type pipeText struct{ io.Reader }

func (pipeText) Close() error { return nil }

func numbers(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

func atoi(s string) int {
	var v int
	fmt.Sscan(s, &v)
	return v
}

// source returns a random source of ints.
func (p *plan) source() stream.Stream[int] {
	n := p.rng.IntN(60)
	switch p.rng.IntN(8) {
	case 0:
		p.note("FromSlice(%d)", n)
		s := make([]int, n)
		for i := range s {
			s[i] = 7 * i
		}
		return stream.FromSlice(s)
	case 1:
		p.note("Seek(%d)", n)
		return stream.Seek(func(pos int) iter.Seq2[int, error] {
			return func(yield func(int, error) bool) {
				for i := pos; i < n; i++ {
					if !yield(3*i+1, nil) {
						return
					}
				}
			}
		})
	case 2:
		p.note("Replay(%d)", n)
		return stream.Replay(func(yield func(int, error) bool) {
			for i := range n {
				if !yield(i*i, nil) {
					return
				}
			}
		})
	case 3:
		text := numbers(n)
		if p.rng.IntN(2) == 0 {
			p.note("Lines(seek, %d)", n)
			return stream.Map(stream.Lines(func() (io.ReadCloser, error) { return seekText{bytes.NewReader([]byte(text))}, nil }, 64), atoi)
		}
		p.note("Lines(pipe, %d)", n)
		return stream.Map(stream.Lines(func() (io.ReadCloser, error) { return pipeText{strings.NewReader(text)}, nil }, 64), atoi)
	case 4:
		p.note("Examples(%d)", n)
		return stream.Examples(container.FromFunc(n, func(i int) int { return 5 * i }), sequential(n))
	case 5:
		p.note("Gather(%d)", n)
		c := container.FromFunc(n, func(i int) int { return 11 * i })
		return stream.Unbatch(stream.Gather(c, inBatches(n, 4, index.Keep)))
	case 6:
		// A loader with workers: its batches (Owned: a stream keeps values),
		// unbatched, through three epochs.
		w := 1 + p.rng.IntN(3)
		p.note("FromIter(Loader(%d, workers %d))", n+1, w)
		l := eachobs.NewLoader(container.FromFunc(n+1, func(i int) int { return 13 * i }), 3,
			eachobs.Shuffle(uint64(n)), eachobs.Owned(), eachobs.Workers(w), eachobs.Prefetch(1))
		batches := stream.FromIter(l.Iter)
		return stream.Take(stream.Unbatch(stream.Map(batches, func(b eachobs.Batch[[]int]) []int { return b.Data })), 3*(n+1))
	default:
		p.note("Mix(%d)", n)
		a, b := stream.FromSlice(make([]int, n)), stream.FromSlice([]int{1, 2, 3, 4, 5, 6})
		return stream.Mix(mix.Rule(p.rng.IntN(2)), []float64{2, 1}, uint64(n), a, b)
	}
}

// stage returns a random pipeline of ints of at most 4 levels of stages.
func (p *plan) stage(depth int) stream.Stream[int] {
	if depth >= 4 || p.rng.IntN(5) == 0 {
		return p.source()
	}
	in := func() stream.Stream[int] { return p.stage(depth + 1) }
	size := 1 + p.rng.IntN(9)
	seed := p.rng.Uint64()
	switch p.rng.IntN(17) {
	case 0:
		p.note("Map")
		return stream.Map(in(), func(v int) int { return 2*v + 1 })
	case 1:
		p.note("Filter")
		return stream.Filter(in(), func(v int) bool { return v%3 != 0 })
	case 2:
		p.note("Take(%d)", 4*size)
		return stream.Take(in(), 4*size)
	case 3:
		p.note("ShuffleBuffer(%d)", size)
		return stream.ShuffleBuffer(in(), size, seed)
	case 4:
		p.note("BlockShuffle(%d)", size)
		return stream.BlockShuffle(in(), size, seed)
	case 5:
		p.note("SortWindow(%d)", size)
		return stream.SortWindow(in(), size, func(a, b int) int { return b%7 - a%7 })
	case 6:
		p.note("Batches(%d)+Unbatch", size)
		return stream.Unbatch(stream.Batches(in(), size, index.Tail(p.rng.IntN(2))))
	case 7:
		p.note("Bucket+Unbatch")
		return stream.Unbatch(stream.Bucket(in(), func(v int) int { return max(v, -v) % 10 }, []int{3, 6}, []int{size, 2, 3}, index.Keep))
	case 8:
		p.note("Prefetch(%d)", size)
		return stream.Prefetch(in(), size)
	case 9, 10:
		w := max(1, p.workers+p.rng.IntN(2))
		var opts []stream.ParallelOption
		if depth == 0 && p.rng.IntN(3) == 0 { // outermost: no stage above sees its order
			opts = append(opts, stream.Unordered())
			p.unordered = true
		}
		p.note("ParallelMap(%d workers, %d options)", w, len(opts))
		return stream.ParallelMap(in(), w, func(v int) (int, error) { return v*10 + 3, nil }, opts...)
	case 11:
		p.note("Repeat(2)")
		return stream.Repeat(in(), 2)
	case 12:
		p.note("Chain")
		return stream.Chain(in(), in())
	case 13:
		p.note("Zip")
		return stream.Map(stream.Zip(in(), in(), stream.Truncate), func(q tuples.Pair[int, int]) int { return q.X*1000 + q.Y })
	case 14:
		p.note("Cache")
		return stream.Cache(in())
	case 15:
		p.note("ZipN")
		return stream.Map(stream.ZipN(stream.Truncate, in(), in()), func(r []int) int { return r[0] - r[1] })
	default:
		p.note("Pack")
		return stream.Map(stream.Pack(stream.Map(in(), func(v int) []int { return make([]int, 1+max(v, -v)%5) }), 8, 2, stream.PackOptions{}),
			func(q *stream.Packed[int]) int { return q.Real*100 + q.Padding })
	}
}

// collect reads a pass to its end.
func collect(t *testing.T, it *stream.Iter[int]) []int {
	t.Helper()
	var out []int
	for v, ok := it.Next(); ok; v, ok = it.Next() {
		out = append(out, v)
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRandomCompositions builds random pipelines (parallel stages and loaders
// with workers among them), interrupts each at random points, saves, restores
// into a freshly built pipeline (with other numbers of workers) and checks that
// the values are those of the uninterrupted pass, element by element (as
// multisets with an unordered map). Run with -race.
func TestRandomCompositions(t *testing.T) {
	before := goleak.IgnoreCurrent()
	trials := 400
	if testing.Short() {
		trials = 60
	}
	for trial := range trials {
		seed := uint64(trial)
		s, p := build(seed, 2)
		it := s.Iter()
		want := collect(t, it)
		it.Close()

		rng := rand.New(rand.NewPCG(seed, 1))
		var got []int
		s2, _ := build(seed, 1+rng.IntN(3))
		it = s2.Iter()
		for cuts := rng.IntN(4); ; cuts-- {
			k := rng.IntN(len(want) + 2)
			if cuts <= 0 {
				k = len(want) + 1 // to the end
			}
			for range k {
				v, ok := it.Next()
				if !ok {
					break
				}
				got = append(got, v)
			}
			if err := it.Err(); err != nil {
				t.Fatalf("trial %d %v: %v", trial, p.desc, err)
			}
			if cuts <= 0 {
				break
			}
			saved, err := it.MarshalBinary()
			if err != nil {
				t.Fatalf("trial %d %v: MarshalBinary after %d values: %v", trial, p.desc, len(got), err)
			}
			it.Close()
			s3, _ := build(seed, 1+rng.IntN(3))
			it = s3.Iter()
			if err := it.UnmarshalBinary(saved); err != nil {
				t.Fatalf("trial %d %v: UnmarshalBinary after %d values: %v", trial, p.desc, len(got), err)
			}
		}
		it.Close()
		if p.unordered {
			slices.Sort(want)
			slices.Sort(got)
		}
		if !slices.Equal(want, got) {
			t.Fatalf("trial %d %v: restored pass differs:\n got %v\nwant %v", trial, p.desc, got, want)
		}
	}
	goleak.VerifyNone(t, before)
}

// TestBreakContinues: a break out of Iter.All stops the goroutines of the
// parallel stages, and the pass continues with the next value.
func TestBreakContinues(t *testing.T) {
	before := goleak.IgnoreCurrent()
	for trial := range 80 {
		s, p := build(uint64(1000+trial), 2)
		want, err := stream.Collect(s)
		if err != nil {
			t.Fatal(err)
		}
		it := s.Iter()
		var got []int
		rng := rand.New(rand.NewPCG(uint64(trial), 3))
		for len(got) < len(want) {
			k := 1 + rng.IntN(5)
			for v, err := range it.All() {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, v)
				if k--; k == 0 {
					break
				}
			}
			if !p.unordered {
				// Paused: no goroutine of the pipeline runs (the coroutines of
				// iter.Pull stand still at their sources).
				goleak.VerifyNone(t, before, goleak.IgnoreAnyFunction("iter.Pull[...].func1"), goleak.IgnoreAnyFunction("iter.Pull2[...].func1"), goleak.IgnoreTopFunction("runtime.corostart"))
			}
		}
		it.Close()
		if p.unordered {
			slices.Sort(want)
			slices.Sort(got)
		}
		if !slices.Equal(want, got) {
			t.Fatalf("trial %d %v: across breaks:\n got %v\nwant %v", trial, p.desc, got, want)
		}
	}
	goleak.VerifyNone(t, before)
}

// TestFromCannotSave: a plain iter.Seq anywhere in a pipeline makes saving fail
// with container.ErrState naming stream.From, also under a parallel stage.
func TestFromCannotSave(t *testing.T) {
	plain := stream.From(slices.Values([]int{1, 2, 3}))
	for _, s := range []stream.Stream[int]{
		plain,
		stream.Map(plain, func(v int) int { return v }),
		stream.Prefetch(plain, 2),
		stream.ParallelMap(plain, 2, func(v int) (int, error) { return v, nil }),
	} {
		it := s.Iter()
		it.Next()
		_, err := it.MarshalBinary()
		if !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), "stream.From") {
			t.Errorf("MarshalBinary = %v, want an ErrState naming stream.From", err)
		}
		if v, ok := it.Next(); !ok || v != 2 {
			t.Errorf("after a failed save: Next = %d %v, want 2", v, ok)
		}
		it.Close()
	}
}

// TestDamagedState: every single-bit flip and every cut of the states of a few
// pipelines is refused with container.ErrState.
func TestDamagedState(t *testing.T) {
	for seed := range uint64(12) {
		s, p := build(seed, 2)
		it := s.Iter()
		it.Next()
		it.Next()
		saved, err := it.MarshalBinary()
		it.Close()
		if err != nil {
			t.Fatalf("%v: %v", p.desc, err)
		}
		for bit := range 8 * len(saved) {
			bad := slices.Clone(saved)
			bad[bit/8] ^= 1 << (bit % 8)
			if err := s.Iter().UnmarshalBinary(bad); !errors.Is(err, container.ErrState) {
				t.Fatalf("%v: bit %d flipped: %v, want ErrState", p.desc, bit, err)
			}
		}
		for n := range len(saved) {
			if err := s.Iter().UnmarshalBinary(saved[:n]); !errors.Is(err, container.ErrState) {
				t.Fatalf("%v: cut to %d bytes: %v, want ErrState", p.desc, n, err)
			}
		}
	}
}

// TestUnorderedUnderPrefetch: a Prefetch above an Unordered map restores
// exactly (each value once), and an Unordered map above another refuses to
// save, naming why.
func TestUnorderedUnderPrefetch(t *testing.T) {
	src := make([]int, 200)
	for i := range src {
		src[i] = i
	}
	slow := func(v int) (int, error) {
		if v%7 == 0 {
			time.Sleep(50 * time.Microsecond)
		}
		return v, nil
	}
	s := stream.Prefetch(stream.ParallelMap(stream.FromSlice(src), 3, slow, stream.Unordered()), 4)
	rng := rand.New(rand.NewPCG(5, 5))
	for trial := range 30 {
		it := s.Iter()
		var got []int
		for len(got) < len(src) {
			for range rng.IntN(40) {
				v, ok := it.Next()
				if !ok {
					break
				}
				got = append(got, v)
			}
			saved, err := it.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			it.Close()
			it = s.Iter()
			if err := it.UnmarshalBinary(saved); err != nil {
				t.Fatal(err)
			}
			if v, ok := it.Next(); ok {
				got = append(got, v)
			} else {
				break
			}
		}
		it.Close()
		slices.Sort(got)
		if !slices.Equal(got, src) {
			t.Fatalf("trial %d: %d values, want each of 0..199 once: %v", trial, len(got), got)
		}
	}
	both := stream.ParallelMap(stream.ParallelMap(stream.FromSlice(src), 2, slow, stream.Unordered()), 2, slow, stream.Unordered())
	it := both.Iter()
	it.Next()
	if _, err := it.MarshalBinary(); !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), "Unordered") {
		t.Errorf("an unordered map over another: MarshalBinary = %v, want ErrState naming Unordered", err)
	}
	it.Close()
}
