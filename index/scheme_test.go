package index_test

import (
	"iter"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/index"
)

func TestBatches(t *testing.T) {
	tests := []struct {
		n, size int
		tail    index.Tail
		want    [][]int
	}{
		{0, 3, index.Keep, nil},
		{1, 3, index.Keep, [][]int{{0}}},
		{6, 3, index.Keep, [][]int{{0, 1, 2}, {3, 4, 5}}},
		{7, 3, index.Keep, [][]int{{0, 1, 2}, {3, 4, 5}, {6}}},
		{4, 1, index.Keep, [][]int{{0}, {1}, {2}, {3}}},
		{2, 10, index.Keep, [][]int{{0, 1}}},
		{7, 3, index.Drop, [][]int{{0, 1, 2}, {3, 4, 5}}},
		{2, 10, index.Drop, nil},
		{7, 3, index.Pad, [][]int{{0, 1, 2}, {3, 4, 5}, {6, 0, 1}}},
		{2, 5, index.Pad, [][]int{{0, 1, 0, 1, 0}}},
		{6, 3, index.Pad, [][]int{{0, 1, 2}, {3, 4, 5}}},
		// Within one pass there is no next epoch to roll the tail into.
		{7, 3, index.RollOver, [][]int{{0, 1, 2}, {3, 4, 5}}},
		{0, 3, index.Pad, nil},
	}
	for _, tc := range tests {
		got := slices.Collect(index.Batches(tc.n, tc.size, tc.tail))
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("Batches(%d, %d, %v) mismatch (-want +got):\n%s", tc.n, tc.size, tc.tail, d)
		}
	}
}

// TestBatchListsAreFresh checks that every list is a slice of its own, capped,
// so that keeping or appending to one cannot change another.
func TestBatchListsAreFresh(t *testing.T) {
	for _, tail := range allTails {
		for name, s := range map[string]iter.Seq[[]int]{
			"Batches":         index.Batches(10, 4, tail),
			"ShuffledBatches": index.ShuffledBatches(10, 4, tail, rand.New(rand.NewPCG(1, 2))),
		} {
			t.Run(name+"/"+tail.String(), func(t *testing.T) {
				lists := slices.Collect(s)
				want := slices.Concat(lists...)
				for _, l := range lists {
					if cap(l) != len(l) {
						t.Fatalf("list %v has cap %d, want %d", l, cap(l), len(l))
					}
					_ = append(l, -1) // must not overwrite the next list
				}
				if d := cmp.Diff(want, slices.Concat(lists...)); d != "" {
					t.Errorf("append to a list changed another (-want +got):\n%s", d)
				}
				for _, l := range lists {
					l[0] = -2
				}
				if again := slices.Concat(slices.Collect(s)...); slices.Contains(again, -2) {
					t.Errorf("writing to a yielded list changed the next pass: %v", again)
				}
			})
		}
	}
}

// checkPass checks that one pass of batch lists visits each of 0..n-1 as t says:
// once each in lists of size with a short last list (Keep); the first
// n/size*size positions' worth (Drop, RollOver); or once each, the last list
// filled up to size with positions already visited (Pad).
func checkPass(t *testing.T, lists [][]int, n, size int, tail index.Tail) {
	t.Helper()
	full, short := n/size, n%size
	want := full
	if short > 0 && (tail == index.Keep || tail == index.Pad) {
		want++
	}
	if len(lists) != want {
		t.Fatalf("n=%d size=%d %v: %d batches, want %d", n, size, tail, len(lists), want)
	}
	seen := make([]int, n)
	for b, l := range lists {
		wantLen := size
		if b == full && tail == index.Keep {
			wantLen = short
		}
		if len(l) != wantLen {
			t.Fatalf("n=%d size=%d %v: batch %d has %d indices, want %d", n, size, tail, b, len(l), wantLen)
		}
		for j, i := range l {
			if i < 0 || i >= n {
				t.Fatalf("n=%d size=%d %v: index %d out of range", n, size, tail, i)
			}
			if b < full || j < short { // a real slot
				seen[i]++
			}
		}
	}
	covered := 0
	for i, c := range seen {
		if c > 1 {
			t.Fatalf("n=%d size=%d %v: index %d visited %d times", n, size, tail, i, c)
		}
		covered += c
	}
	if wantCovered := map[bool]int{true: n, false: full * size}[tail == index.Keep || tail == index.Pad]; covered != wantCovered {
		t.Fatalf("n=%d size=%d %v: %d indices visited, want %d", n, size, tail, covered, wantCovered)
	}
}

// TestShuffledBatches checks ShuffledBatches against Batches mapped through the
// permutations rng.Perm draws from the same state, pass after pass, under every
// tail: Pad slots repeat the first indices of the pass's order.
func TestShuffledBatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 0))
	for trial := range 200 {
		n, size, tail := rng.IntN(50), 1+rng.IntN(12), allTails[trial%len(allTails)]
		s := index.ShuffledBatches(n, size, tail, rand.New(rand.NewPCG(uint64(n), uint64(size))))
		ref := rand.New(rand.NewPCG(uint64(n), uint64(size)))
		var passes [][][]int
		for range 3 {
			got := slices.Collect(s)
			checkPass(t, got, n, size, tail)
			perm := ref.Perm(n)
			var want [][]int
			for l := range index.Batches(n, size, tail) {
				for j, i := range l {
					l[j] = perm[i]
				}
				want = append(want, l)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("n=%d size=%d %v: pass %d is not Batches through rng.Perm (-want +got):\n%s", n, size, tail, len(passes), d)
			}
			passes = append(passes, got)
		}
		if n > 5 && len(passes[0]) > 0 && cmp.Equal(passes[0], passes[1]) {
			t.Errorf("ShuffledBatches(%d, %d, %v): two passes gave the same order %v", n, size, tail, passes[0])
		}
	}
}

func TestSequentialAndShuffled(t *testing.T) {
	if d := cmp.Diff([]int{0, 1, 2, 3}, slices.Collect(index.Sequential(4))); d != "" {
		t.Errorf("Sequential(4) mismatch (-want +got):\n%s", d)
	}
	if got := slices.Collect(index.Sequential(0)); len(got) != 0 {
		t.Errorf("Sequential(0) = %v, want nothing", got)
	}
	s := index.Shuffled(30, rand.New(rand.NewPCG(3, 4)))
	ref := rand.New(rand.NewPCG(3, 4))
	a, b := slices.Collect(s), slices.Collect(s)
	for k, p := range [][]int{a, b} {
		if d := cmp.Diff(ref.Perm(30), p); d != "" {
			t.Errorf("Shuffled pass %d is not the next rng.Perm (-want +got):\n%s", k, d)
		}
	}
	if slices.Equal(a, b) {
		t.Error("Shuffled: two passes gave the same order")
	}
	if got := slices.Collect(index.Shuffled(0, ref)); len(got) != 0 {
		t.Errorf("Shuffled(0) = %v, want nothing", got)
	}
}

func TestSizes(t *testing.T) {
	tests := []struct {
		size, total int
		want        []int
	}{
		{3, 10, []int{3, 3, 3, 1}},
		{5, 10, []int{5, 5}},
		{5, 0, nil},
		{5, 2, []int{2}},
		{1, 3, []int{1, 1, 1}},
	}
	for _, tc := range tests {
		if d := cmp.Diff(tc.want, slices.Collect(index.Sizes(tc.size, tc.total))); d != "" {
			t.Errorf("Sizes(%d, %d) mismatch (-want +got):\n%s", tc.size, tc.total, d)
		}
	}
}

func TestEarlyBreak(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	count := func(name string, visits int) {
		t.Helper()
		if visits != 1 {
			t.Errorf("%s: break after the first value visited %d", name, visits)
		}
	}
	k := 0
	for range index.ShuffledBatches(10, 3, index.Pad, rng) {
		k++
		break
	}
	count("ShuffledBatches", k)
	k = 0
	for range index.Batches(10, 3, index.Keep) {
		k++
		break
	}
	count("Batches", k)
	k = 0
	for range index.Shuffled(10, rng) {
		k++
		break
	}
	count("Shuffled", k)
	k = 0
	for range index.Sequential(10) {
		k++
		break
	}
	count("Sequential", k)
	k = 0
	for range index.Sizes(2, 10) {
		k++
		break
	}
	count("Sizes", k)
}

// TestSchemePanics checks that bad arguments panic at the call, before any
// iteration, with a *container.ArgError.
func TestSchemePanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	tests := []struct {
		name, op, arg string
		f             func()
	}{
		{"Batches n", "index.NewSteps", "number of positions", func() { index.Batches(-1, 2, index.Keep) }},
		{"Batches size", "index.NewSteps", "batch size", func() { index.Batches(3, 0, index.Keep) }},
		{"Batches tail", "index.NewSteps", "tail", func() { index.Batches(3, 1, index.Tail(5)) }},
		{"ShuffledBatches rng", "index.ShuffledBatches", "rng", func() { index.ShuffledBatches(3, 1, index.Keep, nil) }},
		{"ShuffledBatches size", "index.NewSteps", "batch size", func() { index.ShuffledBatches(3, -2, index.Keep, rng) }},
		{"Sequential", "index.Sequential", "number of positions", func() { index.Sequential(-5) }},
		{"Shuffled n", "index.Shuffled", "number of positions", func() { index.Shuffled(-1, rng) }},
		{"Shuffled rng", "index.Shuffled", "rng", func() { index.Shuffled(1, nil) }},
		{"Sizes size", "index.Sizes", "batch size", func() { index.Sizes(0, 3) }},
		{"Sizes total", "index.Sizes", "total", func() { index.Sizes(1, -3) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { wantArgPanic(t, tc.name, tc.op, tc.arg, tc.f) })
	}
}

func FuzzBatches(f *testing.F) {
	f.Add(10, 3, uint8(0), uint64(1))
	f.Add(0, 1, uint8(1), uint64(2))
	f.Add(1, 100, uint8(2), uint64(3))
	f.Add(7, 3, uint8(3), uint64(4))
	f.Fuzz(func(t *testing.T, n, size int, tk uint8, seed uint64) {
		if n < 0 || n > 5000 || size < 1 || size > 6000 {
			t.Skip()
		}
		tail := allTails[tk%4]
		checkPass(t, slices.Collect(index.Batches(n, size, tail)), n, size, tail)
		checkPass(t, slices.Collect(index.ShuffledBatches(n, size, tail, rand.New(rand.NewPCG(seed, 0)))), n, size, tail)
		var total int
		for k := range index.Sizes(size, n) {
			if k < 1 || k > size {
				t.Fatalf("Sizes(%d, %d) yielded size %d", size, n, k)
			}
			total += k
		}
		if total != n {
			t.Fatalf("Sizes(%d, %d) add up to %d", size, n, total)
		}
		got := slices.Collect(index.Shuffled(n, rand.New(rand.NewPCG(seed, 0))))
		slices.Sort(got)
		if d := cmp.Diff(slices.Collect(index.Sequential(n)), got, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("Shuffled(%d) is not a permutation (-want +sorted):\n%s", n, d)
		}
	})
}

// TestCipherBatches: over random n, size and tail, Cipher.Batches is
// index.Batches mapped through the cipher, each list fresh, the same on every
// pass.
func TestCipherBatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 1))
	for trial := range 200 {
		n, size, tail := rng.IntN(50), 1+rng.IntN(12), allTails[trial%len(allTails)]
		c := index.NewCipher(n, rng.Uint64(), trial)
		var want [][]int
		for l := range index.Batches(n, size, tail) {
			for j, i := range l {
				l[j] = c.At(i)
			}
			want = append(want, l)
		}
		s := c.Batches(size, tail)
		for pass := range 2 {
			got := slices.Collect(s)
			checkPass(t, got, n, size, tail)
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("n=%d size=%d %v: pass %d is not Batches through the cipher (-want +got):\n%s", n, size, tail, pass, d)
			}
			if len(got) > 1 && &got[0][0] == &got[1][0] {
				t.Fatalf("n=%d size=%d: two lists share memory", n, size)
			}
		}
	}
}
