package stream_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/stream"
)

func seeded(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// epochRand is the generator of epoch e of a shuffle of seed, as the package
// documents it.
func epochRand(seed uint64, e int) *rand.Rand { return rand.New(rand.NewPCG(seed, uint64(e))) }

func isPermutation(got []int, n int) bool {
	return slices.Equal(slices.Sorted(slices.Values(got)), seq(n))
}

// TestBlockShuffleKeepsBlocks is the must-hold case: 10 integers through a
// buffer of 4 give a permutation whose blocks of 4 (and the last 2) keep their
// members.
func TestBlockShuffleKeepsBlocks(t *testing.T) {
	for seed := range uint64(50) {
		got, err := read(t, stream.BlockShuffle(ints(10), 4, seed))
		if err != nil {
			t.Fatal(err)
		}
		if !isPermutation(got, 10) {
			t.Fatalf("seed %d: %v is not a permutation of 0..9", seed, got)
		}
		for lo, want := range map[int][]int{0: {0, 1, 2, 3}, 4: {4, 5, 6, 7}, 8: {8, 9}} {
			hi := lo + len(want)
			if block := slices.Sorted(slices.Values(got[lo:hi])); !slices.Equal(block, want) {
				t.Fatalf("seed %d: positions [%d,%d) hold %v, want the members %v", seed, lo, hi, got[lo:hi], want)
			}
		}
	}
}

// naiveBlockShuffle is PaddlePaddle's paddle.reader.shuffle, line by line.
func naiveBlockShuffle(in []int, size int, rng *rand.Rand) []int {
	var out, buf []int
	for _, e := range in {
		buf = append(buf, e)
		if len(buf) >= size {
			rng.Shuffle(len(buf), func(i, j int) { buf[i], buf[j] = buf[j], buf[i] })
			out = append(out, buf...)
			buf = nil
		}
	}
	if len(buf) > 0 {
		rng.Shuffle(len(buf), func(i, j int) { buf[i], buf[j] = buf[j], buf[i] })
		out = append(out, buf...)
	}
	return out
}

// naiveShuffleBuffer is tf.data's Dataset.shuffle as the package documents it:
// the first size values fill the buffer, then each value takes the place of a
// buffered one drawn at random, which is yielded; at the end the buffer is
// shuffled and yielded.
func naiveShuffleBuffer(in []int, size int, rng *rand.Rand) []int {
	var out, buf []int
	for _, e := range in {
		if len(buf) < size {
			buf = append(buf, e)
			continue
		}
		i := rng.IntN(size)
		out = append(out, buf[i])
		buf[i] = e
	}
	rng.Shuffle(len(buf), func(i, j int) { buf[i], buf[j] = buf[j], buf[i] })
	return append(out, buf...)
}

// TestShufflesMatchReferences checks both shuffles against the naive
// algorithms above, drawing epoch e from rand.New(rand.NewPCG(seed, e)): every
// epoch of a Repeat, and a pass restored in the middle of an epoch.
func TestShufflesMatchReferences(t *testing.T) {
	rng := seeded(1)
	for trial := range 300 {
		n, size, seed := rng.IntN(60), 1+rng.IntN(20), rng.Uint64()
		in := make([]int, n)
		for i := range in {
			in[i] = rng.IntN(1000)
		}
		for _, tc := range []struct {
			name  string
			s     stream.Stream[int]
			naive func([]int, int, *rand.Rand) []int
		}{
			{"BlockShuffle", stream.BlockShuffle(stream.FromSlice(in), size, seed), naiveBlockShuffle},
			{"ShuffleBuffer", stream.ShuffleBuffer(stream.FromSlice(in), size, seed), naiveShuffleBuffer},
		} {
			var want []int
			for e := range 3 {
				want = append(want, tc.naive(in, size, epochRand(seed, e))...)
			}
			repeated := stream.Repeat(tc.s, 3)
			got, err := read(t, repeated)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got, cmpEmpty); d != "" {
				t.Fatalf("trial %d: %s(n=%d, size=%d) over 3 epochs mismatch (-naive +got):\n%s", trial, tc.name, n, size, d)
			}
			k := rng.IntN(len(want) + 1)
			after, err := rest(restored(t, repeated, savedAfter(t, repeated, k)))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want[k:], after, cmpEmpty); d != "" {
				t.Fatalf("trial %d: %s(n=%d, size=%d) restored after %d values mismatch (-naive +got):\n%s", trial, tc.name, n, size, k, d)
			}
		}
	}
}

func TestShuffleFullBuffer(t *testing.T) {
	for _, size := range []int{10, 11, 1000} {
		for seed := range uint64(20) {
			got, err := read(t, stream.ShuffleBuffer(ints(10), size, seed))
			if err != nil {
				t.Fatal(err)
			}
			if !isPermutation(got, 10) {
				t.Fatalf("ShuffleBuffer(10 ints, %d): %v is not a permutation", size, got)
			}
		}
	}
}

// shuffledEpochs returns the orders of epochs epochs of ShuffleBuffer(0..n-1,
// size, seed), each drawn from (seed, e).
func shuffledEpochs(t *testing.T, n, size int, seed uint64, epochs int) [][]int {
	t.Helper()
	all, err := read(t, stream.Repeat(stream.ShuffleBuffer(ints(n), size, seed), epochs))
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != n*epochs {
		t.Fatalf("%d values for %d epochs of %d", len(all), epochs, n)
	}
	out := make([][]int, epochs)
	for e := range out {
		out[e] = all[e*n : (e+1)*n]
	}
	return out
}

// TestShuffleUniform checks that a buffer holding the whole stream draws every
// permutation of 3 values about equally often over the epochs of one seed
// (fixed seed: deterministic).
func TestShuffleUniform(t *testing.T) {
	const draws = 6000
	counts := map[[3]int]int{}
	for _, got := range shuffledEpochs(t, 3, 3, 9, draws) {
		counts[[3]int(got)]++
	}
	if len(counts) != 6 {
		t.Fatalf("%d distinct orders of 3 values, want 6: %v", len(counts), counts)
	}
	for p, c := range counts {
		// Expect 1000 each; 5 standard deviations is about 150.
		if c < 850 || c > 1150 {
			t.Errorf("order %v drawn %d times in %d, want about %d", p, c, draws, draws/6)
		}
	}
}

// TestShuffleSlidingWindow checks the sliding buffer: a permutation, the
// identity for a buffer of 1, and no value moving more than size-1 places
// earlier.
func TestShuffleSlidingWindow(t *testing.T) {
	rng := seeded(2)
	for range 300 {
		n, size := rng.IntN(80), 1+rng.IntN(20)
		got, err := read(t, stream.ShuffleBuffer(ints(n), size, rng.Uint64()))
		if err != nil {
			t.Fatal(err)
		}
		if !isPermutation(got, n) {
			t.Fatalf("ShuffleBuffer(%d ints, %d): %v is not a permutation", n, size, got)
		}
		for pos, v := range got {
			if pos < v-(size-1) {
				t.Fatalf("ShuffleBuffer(%d ints, %d): value %d at position %d, more than %d places early", n, size, v, pos, size-1)
			}
		}
		if size == 1 && !slices.IsSorted(got) {
			t.Fatalf("ShuffleBuffer with a buffer of 1 reordered: %v", got)
		}
	}
}

// TestShuffleDrawsFromTheWholeBuffer checks the sliding phase, which
// TestShuffleUniform (a buffer holding the whole stream) never reaches: with a
// buffer of 4 over 10 values, the first value out is any of 0..3 with
// probability 1/4; the second is 4 (put in the slot of the first) with
// probability 1/4 and each of 0..3 with 3/16. A draw that misses a slot of the
// buffer, or favours one, fails it (fixed seed: deterministic).
func TestShuffleDrawsFromTheWholeBuffer(t *testing.T) {
	const passes = 16000
	var first, second [5]int
	for _, got := range shuffledEpochs(t, 10, 4, 10, passes) {
		if got[0] > 3 || got[1] > 4 {
			t.Fatalf("pass %v: the first two values must come from 0..3 and 0..4", got)
		}
		first[got[0]]++
		second[got[1]]++
	}
	check := func(what string, v, count int, p float64) {
		t.Helper()
		// 5 standard deviations of a binomial count.
		mean := p * passes
		if dev := 5 * math.Sqrt(mean*(1-p)); math.Abs(float64(count)-mean) > dev {
			t.Errorf("%s value %d: %d times in %d passes, want %.0f ± %.0f", what, v, count, passes, mean, dev)
		}
	}
	for v := range 4 {
		check("first", v, first[v], 1.0/4)
		check("second", v, second[v], 3.0/16)
	}
	check("second", 4, second[4], 1.0/4)
}

// TestShuffleSeeds: a seed fixes the order of every epoch, so two passes of
// one stream, or of two streams built with the seed, are equal; epochs and
// seeds differ.
func TestShuffleSeeds(t *testing.T) {
	for name, mk := range map[string]func(stream.Stream[int], int, uint64) stream.Stream[int]{
		"BlockShuffle":  stream.BlockShuffle[int],
		"ShuffleBuffer": stream.ShuffleBuffer[int],
	} {
		t.Run(name, func(t *testing.T) {
			a := mk(ints(100), 16, 5)
			b := mk(ints(100), 16, 5)
			a1, _ := read(t, a)
			a2, _ := read(t, a)
			b1, _ := read(t, b)
			if d := cmp.Diff(a1, a2); d != "" {
				t.Errorf("two passes of one stream mismatch (-first +second):\n%s", d)
			}
			if d := cmp.Diff(a1, b1); d != "" {
				t.Errorf("same seed mismatch (-a +b):\n%s", d)
			}
			epochs, _ := read(t, stream.Repeat(a, 2))
			if !slices.Equal(epochs[:100], a1) || slices.Equal(epochs[:100], epochs[100:]) {
				t.Error("epoch 0 of a Repeat is not the pass, or epoch 1 repeats its order")
			}
			c, _ := read(t, mk(ints(100), 16, 6))
			if slices.Equal(a1, c) {
				t.Error("two seeds gave the same order")
			}
		})
	}
}

// TestShuffleState saves a shuffle buffer standing full, restores it and gets
// the rest of the pass; the state holds the buffer, so its size grows with the
// buffer and not with the stream.
func TestShuffleState(t *testing.T) {
	for _, n := range []int{2000, 200_000} {
		s := stream.ShuffleBuffer(ints(n), 1000, 3)
		want, _ := read(t, s)
		st := savedAfter(t, s, 1500)
		got, err := rest(restored(t, s, st))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(want[1500:], got) {
			t.Fatalf("n=%d: restored after 1500 values differs", n)
		}
		if len(st) > 4000 {
			t.Errorf("n=%d: the state of a buffer of 1000 ints is %d bytes, want at most 4000", n, len(st))
		}
	}
}
