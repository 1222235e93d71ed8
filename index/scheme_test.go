package index_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/index"
)

// naiveBatches cuts the positions 0..n-1 into lists of size the obvious way,
// the last one as tail says: a short list (Keep), none (Drop, and RollOver,
// within one pass), or a full list whose missing slots repeat the first
// positions (Pad).
func naiveBatches(n, size int, tail index.Tail) [][]int {
	var out [][]int
	for start := 0; start < n; start += size {
		var l []int
		for pos := start; pos < min(n, start+size); pos++ {
			l = append(l, pos)
		}
		if len(l) < size {
			switch tail {
			case index.Drop, index.RollOver:
				continue
			case index.Pad:
				for j := 0; len(l) < size; j++ {
					l = append(l, j%n)
				}
			}
		}
		out = append(out, l)
	}
	return out
}

// TestCipherBatchesTails: the positions of Cipher.Batches' lists (each index
// mapped back through Pos) under every tail.
func TestCipherBatchesTails(t *testing.T) {
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
		c := index.NewCipher(tc.n, 5, 1)
		var got [][]int
		for l := range c.Batches(tc.size, tc.tail) {
			for j, x := range l {
				l[j] = c.Pos(x)
			}
			got = append(got, l)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("n=%d: Batches(%d, %v) positions mismatch (-want +got):\n%s", tc.n, tc.size, tc.tail, d)
		}
		if d := cmp.Diff(tc.want, naiveBatches(tc.n, tc.size, tc.tail)); d != "" {
			t.Errorf("n=%d: the naive batches of %d, %v mismatch (-want +got):\n%s", tc.n, tc.size, tc.tail, d)
		}
	}
}

// TestBatchListsAreFresh checks that every list is a slice of its own, capped,
// so that keeping or appending to one cannot change another.
func TestBatchListsAreFresh(t *testing.T) {
	for _, tail := range allTails {
		c := index.NewCipher(10, 1, 2)
		s := c.Batches(4, tail)
		t.Run(tail.String(), func(t *testing.T) {
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

func TestEarlyBreak(t *testing.T) {
	c := index.NewCipher(10, 1, 1)
	k := 0
	for range c.Batches(3, index.Pad) {
		k++
		break
	}
	if k != 1 {
		t.Errorf("Cipher.Batches: break after the first list visited %d", k)
	}
}

// TestSchemePanics checks that bad arguments panic at the call, before any
// iteration, with a *container.ArgError.
func TestSchemePanics(t *testing.T) {
	c := index.NewCipher(3, 1, 1)
	wantArgPanic(t, "Batches size", "index.NewSteps", "batch size", func() { c.Batches(0, index.Keep) })
	wantArgPanic(t, "Batches tail", "index.NewSteps", "tail", func() { c.Batches(1, index.Tail(5)) })
}

// FuzzCipherBatches: one pass of Cipher.Batches of any n, size, tail and seed
// visits the positions as the tail says.
func FuzzCipherBatches(f *testing.F) {
	f.Add(10, 3, uint8(0), uint64(1))
	f.Add(0, 1, uint8(1), uint64(2))
	f.Add(1, 100, uint8(2), uint64(3))
	f.Add(7, 3, uint8(3), uint64(4))
	f.Fuzz(func(t *testing.T, n, size int, tk uint8, seed uint64) {
		if n < 0 || n > 5000 || size < 1 || size > 6000 {
			t.Skip()
		}
		tail := allTails[tk%4]
		c := index.NewCipher(n, seed, 0)
		checkPass(t, slices.Collect(c.Batches(size, tail)), n, size, tail)
	})
}

// TestCipherBatches: over random n, size and tail, Cipher.Batches is the
// naive batches mapped through the cipher, each list fresh, the same on every
// pass.
func TestCipherBatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 1))
	for trial := range 200 {
		n, size, tail := rng.IntN(50), 1+rng.IntN(12), allTails[trial%len(allTails)]
		c := index.NewCipher(n, rng.Uint64(), trial)
		var want [][]int
		for _, l := range naiveBatches(n, size, tail) {
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
				t.Fatalf("n=%d size=%d %v: pass %d is not the batches through the cipher (-want +got):\n%s", n, size, tail, pass, d)
			}
			if len(got) > 1 && &got[0][0] == &got[1][0] {
				t.Fatalf("n=%d size=%d: two lists share memory", n, size)
			}
		}
	}
}
