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

func isPermutation(got []int, n int) bool {
	return slices.Equal(slices.Sorted(slices.Values(got)), slices.Collect(func(y func(int) bool) {
		for i := range n {
			if !y(i) {
				return
			}
		}
	}))
}

// TestBlockShuffleKeepsBlocks is the must-hold case: 10 integers through a
// buffer of 4 give a permutation whose blocks of 4 (and the last 2) keep their
// members.
func TestBlockShuffleKeepsBlocks(t *testing.T) {
	for seed := range uint64(50) {
		got, err := collect(t, stream.BlockShuffle(ints(10), 4, seeded(seed)))
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

func TestBlockShuffleMatchesPaddle(t *testing.T) {
	rng := seeded(1)
	for range 300 {
		n, size, seed := rng.IntN(60), 1+rng.IntN(20), rng.Uint64()
		in := make([]int, n)
		for i := range in {
			in[i] = rng.IntN(1000)
		}
		want := naiveBlockShuffle(in, size, seeded(seed))
		got, err := collect(t, stream.BlockShuffle(stream.FromSlice(in), size, seeded(seed)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("BlockShuffle(n=%d, size=%d) mismatch (-paddle +got):\n%s", n, size, d)
		}
	}
}

func TestShuffleFullBuffer(t *testing.T) {
	for _, size := range []int{10, 11, 1000} {
		for seed := range uint64(20) {
			got, err := collect(t, stream.ShuffleBuffer(ints(10), size, seeded(seed)))
			if err != nil {
				t.Fatal(err)
			}
			if !isPermutation(got, 10) {
				t.Fatalf("ShuffleBuffer(10 ints, %d): %v is not a permutation", size, got)
			}
		}
	}
}

// TestShuffleUniform checks that a buffer holding the whole stream draws every
// permutation of 3 values about equally often (fixed seed: deterministic).
func TestShuffleUniform(t *testing.T) {
	const draws = 6000
	counts := map[[3]int]int{}
	r := stream.ShuffleBuffer(ints(3), 3, seeded(9))
	for range draws {
		got, _ := collect(t, r)
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
		got, err := collect(t, stream.ShuffleBuffer(ints(n), size, seeded(rng.Uint64())))
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
	r := stream.ShuffleBuffer(ints(10), 4, seeded(10))
	for range passes {
		got, err := collect(t, r)
		if err != nil {
			t.Fatal(err)
		}
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

func TestShuffleSeeds(t *testing.T) {
	for name, mk := range map[string]func(stream.Reader[int], int, *rand.Rand) stream.Reader[int]{
		"BlockShuffle":  stream.BlockShuffle[int],
		"ShuffleBuffer": stream.ShuffleBuffer[int],
	} {
		t.Run(name, func(t *testing.T) {
			a := mk(ints(100), 16, seeded(5))
			b := mk(ints(100), 16, seeded(5))
			a1, _ := collect(t, a)
			a2, _ := collect(t, a)
			b1, _ := collect(t, b)
			b2, _ := collect(t, b)
			if d := cmp.Diff(a1, b1); d != "" {
				t.Errorf("same seed, first pass mismatch (-a +b):\n%s", d)
			}
			if d := cmp.Diff(a2, b2); d != "" {
				t.Errorf("same seed, second pass mismatch (-a +b):\n%s", d)
			}
			if slices.Equal(a1, a2) {
				t.Error("two passes gave the same order")
			}
			c, _ := collect(t, mk(ints(100), 16, seeded(6)))
			if slices.Equal(a1, c) {
				t.Error("two seeds gave the same order")
			}
		})
	}
}
