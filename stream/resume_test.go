package stream_test

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/internal/state"
	"github.com/obskit/obskit/mix"
	"github.com/obskit/obskit/stream"
	"github.com/obskit/obskit/tuples"
)

// recipe builds one random pipeline of ints; calling build twice gives two
// pipelines that yield the same values (fresh caches, fresh files), as a job
// and its restarted self would build.
type recipe struct {
	desc  string
	build func() stream.Stream[int]
}

// intsFrom returns lo, lo+1, ..., lo+n-1.
func intsFrom(lo, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = lo + i
	}
	return s
}

// sliceSeq2 yields the elements of s with nil errors.
func sliceSeq2(s []int) iter.Seq2[int, error] {
	return func(yield func(int, error) bool) {
		for _, v := range s {
			if !yield(v, nil) {
				return
			}
		}
	}
}

// randomRecipe draws a random composition of the stages that hold state, depth
// at most d, over slices, seeking and replayed sources and files on disk read
// by Lines (in dir).
func randomRecipe(rng *rand.Rand, d int, dir string) recipe {
	if d == 0 || rng.IntN(4) == 0 {
		lo, n := rng.IntN(1000)*1000, rng.IntN(60)
		s := intsFrom(lo, n)
		switch rng.IntN(8) {
		case 0: // a file: every pass opens it, a restored pass seeks
			path := filepath.Join(dir, fmt.Sprintf("%d-%d.txt", lo, n))
			var text strings.Builder
			for _, v := range s {
				fmt.Fprintln(&text, v)
			}
			if err := os.WriteFile(path, []byte(text.String()), 0o644); err != nil {
				panic(err)
			}
			return recipe{fmt.Sprintf("Lines(%d)", n), func() stream.Stream[int] {
				lines := stream.Lines(func() (io.ReadCloser, error) { return os.Open(path) }, 100)
				return stream.MapErr(lines, strconv.Atoi)
			}}
		case 1, 2:
			return recipe{fmt.Sprintf("Replay(%d)", n), func() stream.Stream[int] { return stream.Replay(sliceSeq2(s)) }}
		case 3, 4:
			return recipe{fmt.Sprintf("Seek(%d)", n), func() stream.Stream[int] {
				return stream.Seek(func(pos int) iter.Seq2[int, error] { return sliceSeq2(s[pos:]) })
			}}
		default:
			return recipe{fmt.Sprintf("FromSlice(%d)", n), func() stream.Stream[int] { return stream.FromSlice(s) }}
		}
	}
	src := randomRecipe(rng, d-1, dir)
	seed := rng.Uint64()
	size := 1 + rng.IntN(12)
	switch rng.IntN(10) {
	case 0:
		return recipe{"Map(" + src.desc + ")", func() stream.Stream[int] {
			return stream.Map(src.build(), func(v int) int { return 3*v + 1 })
		}}
	case 1:
		return recipe{"Filter(" + src.desc + ")", func() stream.Stream[int] {
			return stream.Filter(src.build(), func(v int) bool { return v%3 != 0 })
		}}
	case 2:
		return recipe{fmt.Sprintf("Take(%s, %d)", src.desc, 4*size), func() stream.Stream[int] { return stream.Take(src.build(), 4*size) }}
	case 3:
		tail := index.Tail(rng.IntN(2))
		return recipe{fmt.Sprintf("Unbatch(Batches(%s, %d, %v))", src.desc, size, tail), func() stream.Stream[int] {
			return stream.Unbatch(stream.Batches(src.build(), size, tail))
		}}
	case 4:
		return recipe{fmt.Sprintf("ShuffleBuffer(%s, %d)", src.desc, size), func() stream.Stream[int] { return stream.ShuffleBuffer(src.build(), size, seed) }}
	case 5:
		return recipe{fmt.Sprintf("BlockShuffle(%s, %d)", src.desc, size), func() stream.Stream[int] { return stream.BlockShuffle(src.build(), size, seed) }}
	case 6:
		return recipe{"Cache(" + src.desc + ")", func() stream.Stream[int] { return stream.Cache(src.build()) }}
	case 7:
		epochs := 1 + rng.IntN(3)
		return recipe{fmt.Sprintf("Repeat(%s, %d)", src.desc, epochs), func() stream.Stream[int] { return stream.Repeat(src.build(), epochs) }}
	case 8:
		rows := 1 + rng.IntN(3)
		method := stream.FirstFit
		if rng.IntN(2) == 0 {
			method = stream.BestFitDecreasing
		}
		length := 3 + rng.IntN(8)
		return recipe{fmt.Sprintf("Pack(%s, %d, %d, %v)", src.desc, length, rows, method), func() stream.Stream[int] {
			// Sequences of 1 to length values, packed and flattened back to the
			// values with their segment ids and positions folded in.
			seqs := stream.Map(stream.Batches(src.build(), 1+size%length, index.Keep), func(b []int) []int { return b[:min(len(b), length)] })
			packed := stream.Pack(seqs, length, rows, stream.PackOptions{Method: method, Window: size})
			return stream.Unbatch(stream.Map(packed, flatten))
		}}
	default:
		other := randomRecipe(rng, d-1, dir)
		rule := mix.Rule(rng.IntN(3))
		w := []float64{float64(1 + rng.IntN(3)), 0.5 + rng.Float64()}
		return recipe{fmt.Sprintf("Mix(%v, %v, %s, %s)", rule, w, src.desc, other.desc), func() stream.Stream[int] {
			return stream.Mix(rule, w, seed, src.build(), other.build())
		}}
	}
}

// flatten turns a packed batch into ints that tell every slot apart: the token,
// its segment and its position.
func flatten(p *stream.Packed[int]) []int {
	out := make([]int, 0, len(p.Tokens))
	for i, v := range p.Tokens {
		out = append(out, v*10000+int(p.Segments[i])*100+int(p.Positions[i]))
	}
	return out
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestResumeAnywhere: over random compositions of the stages that hold state
// (over slices, seeking and replayed sources, and files read by Lines), a pass
// interrupted at a random value by a break out of Iter.All, closed, saved, and
// restored into a pipeline built anew yields exactly the values the
// uninterrupted pass yields after it, and ends with its error (a resampled
// empty source fails, in place); and so again after a second and third
// interruption. Half the time the pipeline that saves has filled its caches
// first. TestRandomCompositions (property_test.go) does the same with the
// parallel stages and loaders.
func TestResumeAnywhere(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 17))
	dir := t.TempDir()
	trials := 2000
	if raceEnabled || testing.Short() {
		trials = 300
	}
	largest := 0
	for trial := range trials {
		rc := randomRecipe(rng, 4, dir)
		want, wantErr := stream.Collect(rc.build())
		s := rc.build()
		if rng.IntN(2) == 0 {
			for range s.All() { // fill any cache first
			}
		}
		got, st := interrupt(t, s, nil, rng.IntN(len(want)+1))
		for range 2 {
			largest = max(largest, len(st))
			more, next := interrupt(t, rc.build(), st, rng.IntN(len(want)-len(got)+1))
			got, st = append(got, more...), next
		}
		it := rc.build().Iter()
		if err := it.UnmarshalBinary(st); err != nil {
			t.Fatalf("trial %d, %s: UnmarshalBinary: %v", trial, rc.desc, err)
		}
		more, err := rest(it)
		got = append(got, more...)
		if !slices.Equal(want, got) { // cmp.Diff only to report: it is slow
			t.Fatalf("trial %d, %s: restored stream mismatch (-want +got):\n%s", trial, rc.desc, cmp.Diff(want, got))
		}
		if errText(err) != errText(wantErr) {
			t.Fatalf("trial %d, %s: restored stream ends with %v, want %v", trial, rc.desc, err, wantErr)
		}
	}
	t.Logf("largest state: %d bytes", largest)
}

// interrupt starts a pass of s at st (nil: at its start), takes k values in a
// range over Iter.All, breaks, closes the pass and saves it (a pass saves
// after Close).
func interrupt(t *testing.T, s stream.Stream[int], st []byte, k int) ([]int, []byte) {
	t.Helper()
	it := s.Iter()
	if st != nil {
		if err := it.UnmarshalBinary(st); err != nil {
			t.Fatalf("UnmarshalBinary: %v", err)
		}
	}
	var got []int
	if k > 0 {
		for v, err := range it.All() {
			if err != nil {
				t.Fatal(err)
			}
			if got = append(got, v); len(got) == k {
				break
			}
		}
	}
	it.Close()
	next, err := it.MarshalBinary()
	if err != nil {
		t.Fatalf("MarshalBinary: %v", err)
	}
	return got, next
}

func TestStateMismatch(t *testing.T) {
	x := intsFrom(0, 100)
	shuffle := func(size int, src []int) stream.Stream[int] {
		return stream.ShuffleBuffer(stream.FromSlice(src), size, 1)
	}
	st := savedAfter(t, shuffle(10, x), 1)
	version := slices.Clone(st)
	version[len(state.Magic)] = 2 // the version, a uvarint after the magic
	w := state.Begin(nil, "eachobs.Loader")
	loader, _ := w.Finish()
	for _, tc := range []struct {
		name  string
		s     stream.Stream[int]
		state []byte
		want  string
	}{
		{"other buffer size", shuffle(20, x), st, "stream.Iter.UnmarshalBinary: stage 0 (shuffle-buffer): buffer size is 10 in the state and 20 here"},
		{"other stage", stream.BlockShuffle(stream.FromSlice(x), 10, 1), st, "stage 0 (block-shuffle): the state holds a shuffle-buffer here"},
		{"other source length", shuffle(10, x[:50]), st, "stage 1 (slice): length is 100 in the state and 50 here"},
		{"a stage more", stream.Map(shuffle(10, x), func(v int) int { return v }), st, "stage 0 (map): the state holds a shuffle-buffer here"},
		{"a stage less", stream.FromSlice(x), st, "stage 0 (slice): the state holds a shuffle-buffer here"},
		{"not a state", stream.FromSlice(x), []byte("hello, world, this is not a state"), "not a saved state of the kit (33 bytes)"},
		{"empty", stream.FromSlice(x), nil, "not a saved state of the kit (0 bytes)"},
		{"truncated", shuffle(10, x), st[:len(st)-3], "damaged or cut short"},
		{"trailing bytes", shuffle(10, x), append(slices.Clone(st), 1, 2), "damaged or cut short"},
		// Damage the checksum does not see, to reach the checks behind it.
		{"truncated, checksum made again", shuffle(10, x), reseal(append(st[:len(st)-6:len(st)-6], st[len(st)-4:]...)), "stage 1 (slice)"},
		{"trailing bytes, checksum made again", shuffle(10, x), reseal(append(append(st[:len(st)-4:len(st)-4], 1, 2), st[len(st)-4:]...)), "2 bytes after the last record"},
		{"version 2", shuffle(10, x), reseal(version), "version 2, this version of the kit reads version 1"},
		{"another iterator's state", shuffle(10, x), loader, "a state of eachobs.Loader, not of stream"},
	} {
		it := tc.s.Iter()
		err := it.UnmarshalBinary(tc.state)
		if !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want ErrState mentioning %q", tc.name, err, tc.want)
		}
		// A refused state leaves the pass as it was: at its start.
		if v, ok := it.Next(); !ok || v > 100 {
			t.Errorf("%s: after a refused state, Next = %d, %v", tc.name, v, ok)
		}
		it.Close()
	}
}

// TestSettingsNamed saves passes of each stage that has settings and restores
// them into a stage of other settings: each is refused with ErrState naming
// the stage and the setting.
func TestSettingsNamed(t *testing.T) {
	x := ints(30)
	words := stream.FromSlice([][]int{{1, 2}, {3}, {4, 5, 6}, {7}, {8, 9}})
	for _, tc := range []struct {
		name string
		into func() error
		want string
	}{
		{"Take", func() error { return stream.Take(x, 6).Iter().UnmarshalBinary(savedAfter(t, stream.Take(x, 5), 2)) },
			"stage 0 (take): count is 5 in the state and 6 here"},
		{"Repeat", func() error {
			return stream.Repeat(x, 3).Iter().UnmarshalBinary(savedAfter(t, stream.Repeat(x, 2), 40))
		},
			"stage 0 (repeat): epochs is 2 in the state and 3 here"},
		{"Chain", func() error {
			return stream.Chain(x, x, x).Iter().UnmarshalBinary(savedAfter(t, stream.Chain(x, x), 40))
		},
			"stage 0 (chain): number of streams is 2 in the state and 3 here"},
		{"Mix rule", func() error {
			return stream.Mix(mix.FirstExhausted, []float64{1, 2}, 0, x, x).Iter().UnmarshalBinary(savedAfter(t, stream.Mix(mix.AllExhausted, []float64{1, 2}, 0, x, x), 4))
		}, "stage 0 (mix): rule is 1 in the state and 0 here"},
		{"Mix weights", func() error {
			return stream.Mix(mix.AllExhausted, []float64{1, 3}, 0, x, x).Iter().UnmarshalBinary(savedAfter(t, stream.Mix(mix.AllExhausted, []float64{1, 2}, 0, x, x), 4))
		}, "stage 0 (mix): weight 1 is 2 in the state and 3 in the stream"},
		{"Mix sources", func() error {
			return stream.Mix(mix.AllExhausted, []float64{1, 2, 3}, 0, x, x, x).Iter().UnmarshalBinary(savedAfter(t, stream.Mix(mix.AllExhausted, []float64{1, 2}, 0, x, x), 4))
		}, "stage 0 (mix): number of sources is 2 in the state and 3 here"},
		{"Pack length", func() error {
			return stream.Pack(words, 6, 1, stream.PackOptions{}).Iter().UnmarshalBinary(savedAfter(t, stream.Pack(words, 5, 1, stream.PackOptions{}), 1))
		}, "stage 0 (pack): row length is 5 in the state and 6 here"},
		{"Pack rows", func() error {
			return stream.Pack(words, 5, 2, stream.PackOptions{}).Iter().UnmarshalBinary(savedAfter(t, stream.Pack(words, 5, 1, stream.PackOptions{}), 1))
		}, "stage 0 (pack): rows is 1 in the state and 2 here"},
		{"Pack method", func() error {
			return stream.Pack(words, 5, 1, stream.PackOptions{Method: stream.BestFitDecreasing, Window: 16}).Iter().UnmarshalBinary(savedAfter(t, stream.Pack(words, 5, 1, stream.PackOptions{}), 1))
		}, "stage 0 (pack): method is 0 in the state and 1 here"},
		{"Pack window", func() error {
			return stream.Pack(words, 5, 1, stream.PackOptions{Window: 2}).Iter().UnmarshalBinary(savedAfter(t, stream.Pack(words, 5, 1, stream.PackOptions{}), 1))
		}, "stage 0 (pack): window is 16 in the state and 2 here"},
		{"Prefetch for ParallelMap", func() error {
			return stream.ParallelMap(x, 2, func(v int) (int, error) { return v, nil }).Iter().UnmarshalBinary(savedAfter(t, stream.Prefetch(x, 2), 4))
		}, "stage 0 (parallel-map): the state holds a prefetch here"},
		{"Replay for Seek", func() error {
			return endlessInts().Iter().UnmarshalBinary(savedAfter(t, failing(t, 5), 2))
		}, "stage 0 (seek): the state holds a replay here"},
	} {
		if err := tc.into(); !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrState saying %q", tc.name, err, tc.want)
		}
	}
}

// TestInconsistentStates restores states whose checksum is right but whose
// records do not hold together (a position past the end, more taken than the
// count): each is refused with ErrState naming the stage and what is wrong.
// Such states come from another program, not from MarshalBinary.
func TestInconsistentStates(t *testing.T) {
	records := func(write func(w *state.Writer)) []byte {
		w := state.Begin(nil, "stream")
		write(&w)
		st, err := w.Finish()
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	slice := func(w *state.Writer, n, pos int) { w.String("slice"); w.Int(n); w.Uint(uint64(pos)) }
	x := ints(10)
	for _, tc := range []struct {
		name  string
		s     stream.Stream[int]
		write func(w *state.Writer)
		want  string
	}{
		{"slice past its end", x, func(w *state.Writer) { slice(w, 10, 11) }, "stage 0 (slice): position 11 past the end 10"},
		{"take more than its count", stream.Take(x, 3), func(w *state.Writer) {
			w.String("take")
			w.Int(3)
			w.Uint(4)
			slice(w, 10, 4)
		}, "stage 0 (take): 4 values taken of 3"},
		{"repeat past its epochs", stream.Repeat(x, 2), func(w *state.Writer) {
			w.String("repeat")
			w.Int(2)
			w.Uint(3)
			w.Bool(false)
		}, "stage 0 (repeat): epoch 3 of 2"},
		{"chain past its streams", stream.Chain(x, x), func(w *state.Writer) {
			w.String("chain")
			w.Int(2)
			w.Uint(2)
			w.Bool(true)
		}, "stage 0 (chain): stream 2 of 2"},
		{"lines offset", stream.Map(stream.Lines(openText("1\n"), 10), atoi), func(w *state.Writer) {
			w.String("map")
			w.String("lines")
			w.Uint(1 << 63)
			w.Uint(1)
			w.Bool(false)
		}, "stage 1 (lines): offset 9223372036854775808 out of range"},
		{"bucket flush", stream.Unbatch(stream.Bucket(x, func(int) int { return 1 }, nil, []int{2}, index.Keep)), func(w *state.Writer) {
			w.String("unbatch")
			state.SaveValues(w, "test", []int{})
			w.String("bucket")
			w.Int(1)
			w.Int(int(index.Keep))
			w.Uint(0)
			w.Bool(true)
			w.Uint(2)
		}, "stage 1 (bucket): bucket 2 of 1"},
		{"a flag that is not one", x, func(w *state.Writer) {
			w.String("repeat")
		}, "stage 0 (slice): the state holds a repeat here"},
		{"parallel map taken out of order", stream.ParallelMap(x, 2, func(v int) (int, error) { return v, nil }), func(w *state.Writer) {
			w.String("parallel-map")
			w.Uint(3)
			w.Uint(2)
			w.Uint(5)
			w.Uint(4)
			slice(w, 10, 0)
		}, "stage 0 (parallel-map): value 4 taken ahead of 3, out of order"},
		{"parallel map: more taken than bytes", stream.Prefetch(x, 2), func(w *state.Writer) {
			w.String("prefetch")
			w.Uint(0)
			w.Uint(1000)
		}, "stage 0 (prefetch): 1000 values taken ahead where 0 bytes are left"},
		{"pack row too long", stream.Unbatch(stream.Map(stream.Pack(stream.FromSlice([][]int{{1}}), 4, 1, stream.PackOptions{}), flatten)), func(w *state.Writer) {
			w.String("unbatch")
			state.SaveValues(w, "test", []int{})
			w.String("map")
			w.String("pack")
			w.Int(4)
			w.Int(1)
			w.Int(0)
			w.Int(16)
			w.Bool(false)
			state.SaveValues(w, "test", [][][]int{{{1, 2, 3}, {4, 5}}})
			state.SaveValues(w, "test", [][][]int{})
			state.SaveValues(w, "test", [][]int{})
		}, "stage 2 (pack): a row of 5 tokens in rows of 4"},
	} {
		err := tc.s.Iter().UnmarshalBinary(records(tc.write))
		if !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrState saying %q", tc.name, err, tc.want)
		}
	}
}

// FuzzUnmarshalBinary feeds damaged states to UnmarshalBinary: an error
// wrapping container.ErrState, never a panic or a huge allocation. With reseal,
// the damaged state's checksum is made again, so that the damage reaches the
// decoding of the stages' records.
func FuzzUnmarshalBinary(f *testing.F) {
	x := intsFrom(0, 50)
	build := func() stream.Stream[int] {
		return stream.Mix(mix.AllExhausted, []float64{1, 2}, 3,
			stream.ShuffleBuffer(stream.FromSlice(x), 8, 1),
			stream.ParallelMap(stream.Unbatch(stream.Batches(stream.BlockShuffle(stream.FromSlice(x), 5, 2), 3, index.Keep)), 2,
				func(v int) (int, error) { return v, nil }))
	}
	for _, k := range []int{0, 1, 17, 60} {
		st, _ := interruptState(build(), k)
		f.Add(st, false)
		f.Add(st, true)
	}
	f.Fuzz(func(t *testing.T, st []byte, resealed bool) {
		if resealed { // past the checksum, into the records
			st = reseal(st)
		}
		it := build().Iter()
		defer it.Close()
		if err := it.UnmarshalBinary(st); err != nil {
			if !errors.Is(err, container.ErrState) {
				t.Fatalf("error %v does not wrap ErrState", err)
			}
			return
		}
		for n := 0; n < 1000; n++ {
			if _, ok := it.Next(); !ok {
				break
			}
		}
	})
}

// interruptState takes k values of a pass of s and returns its state.
func interruptState[T any](s stream.Stream[T], k int) ([]byte, error) {
	it := s.Iter()
	defer it.Close()
	for range k {
		if _, ok := it.Next(); !ok {
			break
		}
	}
	return it.MarshalBinary()
}

// damageCase is a real saved state and the restore of a pipeline built as the
// one that saved it.
type damageCase struct {
	name    string
	state   []byte
	restore func([]byte) error
}

func restoreInto[T any](build func() stream.Stream[T]) func([]byte) error {
	return func(st []byte) error {
		it := build().Iter()
		defer it.Close()
		return it.UnmarshalBinary(st)
	}
}

// damageCases saves the states of several pipelines standing mid-pass: a
// shuffle buffer, a mix of two sources through batches, a packer, a file's
// lines repeated, a cache behind a filter, a parallel map over a shuffle.
func damageCases(t *testing.T) []damageCase {
	x := intsFrom(0, 300)
	path := filepath.Join(t.TempDir(), "lines.txt")
	var text strings.Builder
	for _, v := range x {
		fmt.Fprintln(&text, v)
	}
	if err := os.WriteFile(path, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	shuffle := func() stream.Stream[int] { return stream.ShuffleBuffer(stream.FromSlice(x), 16, 1) }
	mixed := func() stream.Stream[[]int] {
		return stream.Batches(stream.Mix(mix.AllExhausted, []float64{1, 2}, 3,
			stream.BlockShuffle(stream.FromSlice(x), 5, 2),
			stream.Unbatch(stream.Batches(stream.FromSlice(x[:40]), 3, index.Keep))), 4, index.Drop)
	}
	pack := func() stream.Stream[*stream.Packed[int]] {
		seqs := make([][]int, 60)
		for i := range seqs {
			seqs[i] = x[i : i+1+i%7]
		}
		return stream.Pack(stream.FromSlice(seqs), 12, 2, stream.PackOptions{Window: 4})
	}
	lines := func() stream.Stream[string] {
		open := func() (io.ReadCloser, error) { return os.Open(path) }
		return stream.Take(stream.Repeat(stream.Lines(open, 64), 3), 700)
	}
	cache := func() stream.Stream[int] {
		return stream.Cache(stream.Filter(stream.FromSlice(x), func(v int) bool { return v%3 != 0 }))
	}
	parallel := func() stream.Stream[int] {
		return stream.ParallelMap(stream.ShuffleBuffer(stream.FromSlice(x), 8, 5), 3, func(v int) (int, error) { return v + 1, nil })
	}
	return []damageCase{
		{"ShuffleBuffer", savedAfter(t, shuffle(), 37), restoreInto(shuffle)},
		{"Batches(Mix(BlockShuffle, Unbatch(Batches)))", savedAfter(t, mixed(), 11), restoreInto(mixed)},
		{"Pack", savedAfter(t, pack(), 5), restoreInto(pack)},
		{"Take(Repeat(Lines))", savedAfter(t, lines(), 450), restoreInto(lines)},
		{"Cache(Filter)", savedAfter(t, cache(), 50), restoreInto(cache)},
		{"ParallelMap(ShuffleBuffer)", savedAfter(t, parallel(), 20), restoreInto(parallel)},
	}
}

// TestDamageNamed flips every bit of real saved states, one at a time, and
// cuts them at every length: each is refused with an error wrapping ErrState
// that says which check failed (the magic, the length or the checksum).
// TestDamagedState (property_test.go) does the same over random pipelines
// without looking at the message.
func TestDamageNamed(t *testing.T) {
	head := len(state.Magic)
	for _, c := range damageCases(t) {
		if err := c.restore(c.state); err != nil {
			t.Fatalf("%s: the undamaged state: %v", c.name, err)
		}
		refused := func(what string, st []byte, want string) {
			t.Helper()
			err := c.restore(st)
			if !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), want) {
				t.Fatalf("%s: %s: %v, want ErrState saying %q", c.name, what, err, want)
			}
		}
		st := make([]byte, len(c.state))
		for i := range c.state {
			want := "damaged or cut short"
			if i < head {
				want = "not a saved state of the kit"
			}
			for bit := range 8 {
				copy(st, c.state)
				st[i] ^= 1 << bit
				refused(fmt.Sprintf("bit %d of byte %d of %d flipped", bit, i, len(st)), st, want)
			}
		}
		for n := 1; n < len(c.state); n++ {
			want := "damaged or cut short"
			switch {
			case n < head:
				want = "not a saved state of the kit"
			case n < head+4:
				want = "cut short"
			}
			refused(fmt.Sprintf("cut to %d bytes", n), c.state[:n], want)
		}
		refused("a byte appended", append(slices.Clone(c.state), 0), "damaged or cut short")
		t.Logf("%s: %d bytes, every bit flipped and every cut refused", c.name, len(c.state))
	}
}

// TestStateSizes: a stage saves a few bytes of its own beside the values it
// holds, whatever the position: the states of pipelines that hold no values
// stay under 100 bytes far into a long stream, a Cache's whatever it holds, a
// parallel stage's whatever its number of workers. (TestShuffleState bounds a
// shuffle buffer's by its size.)
func TestStateSizes(t *testing.T) {
	long := ints(1_000_000)
	id := func(v int) (int, error) { return v, nil }
	for _, tc := range []struct {
		name string
		s    stream.Stream[int]
	}{
		{"FromSlice", long},
		{"Map(Filter(Take))", stream.Map(stream.Filter(stream.Take(long, 900_000), func(v int) bool { return v%2 == 0 }), func(v int) int { return v })},
		{"Repeat(Chain)", stream.Repeat(stream.Chain(ints(1000), ints(1000)), 100)},
		{"Unbatch(Batches) between batches", stream.Unbatch(stream.Batches(long, 32, index.Keep))},
		{"Cache", stream.Cache(long)},
		{"Zip", stream.Map(stream.Zip(long, long, stream.Strict), func(p tuples.Pair[int, int]) int { return p.X })},
		{"Mix", stream.Mix(mix.AllExhausted, []float64{1, 2}, 0, long, long)},
		{"Prefetch", stream.Prefetch(long, 64)},
		{"ParallelMap(8 workers)", stream.ParallelMap(long, 8, id)},
	} {
		if tc.name == "Cache" {
			read(t, tc.s) // fill it: the cached values are not saved
		}
		for _, k := range []int{32, 99_968} { // between batches of 32: Unbatch holds nothing
			st := savedAfter(t, tc.s, k)
			if len(st) > 100 {
				t.Errorf("%s: %d bytes after %d values, want at most 100", tc.name, len(st), k)
			}
		}
	}
}

// TestGobValues: the values a stage holds are saved with encoding/gob: values
// gob encodes round-trip (pointers as the values they point to); values it
// cannot encode make MarshalBinary fail naming their type, and the pass goes
// on.
func TestGobValues(t *testing.T) {
	type point struct{ X, Y int }
	ptrs := make([]*point, 20)
	for i := range ptrs {
		ptrs[i] = &point{i, -i}
	}
	s := stream.ShuffleBuffer(stream.FromSlice(ptrs), 8, 2)
	want, _ := read(t, s)
	got, err := rest(restored(t, s, savedAfter(t, s, 3)))
	if err != nil || !cmp.Equal(want[3:], got) {
		t.Errorf("pointers restored: %v, %v; want the values of %v", got, err, want[3:])
	}
	type hidden struct{ x int }
	chans := stream.ShuffleBuffer(stream.FromSlice(make([]chan int, 10)), 4, 1)
	hid := stream.Unbatch(stream.FromSlice([][]hidden{{{1}, {2}, {3}}}))
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"channels", marshalAfter(chans, 1), "stream.Iter.MarshalBinary: saving 4 values of type []chan int: gob"},
		{"no exported fields", marshalAfter(hid, 1), "stream.Iter.MarshalBinary: saving 2 values of type []stream_test.hidden: gob"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: MarshalBinary = %v, want an error saying %q", tc.name, tc.err, tc.want)
		}
	}
	it := hid.Iter()
	defer it.Close()
	it.Next()
	it.MarshalBinary()
	if v, ok := it.Next(); !ok || v.x != 2 {
		t.Errorf("after a failed save: Next = %v, %v; want {2}", v, ok)
	}
}

// marshalAfter takes k values of a pass of s and returns the error of saving.
func marshalAfter[T any](s stream.Stream[T], k int) error {
	_, err := interruptState(s, k)
	return err
}
