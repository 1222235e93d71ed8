package index_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/index"
)

var cipherSweep = flag.Bool("cipher.sweep", false, "check the cipher permutation is a bijection for every n up to 10^5 (minutes)")

// bijection checks that c is a permutation of [0, n), and that Pos inverts At
// at every position (inverse) or at 4096 sampled ones.
func bijection(t *testing.T, c index.Cipher, inverse bool) {
	t.Helper()
	n := c.N()
	seen := make([]uint64, n/64+1)
	buf := make([]int, min(n, 4096))
	for start := 0; start < n; start += len(buf) {
		chunk := buf[:min(len(buf), n-start)]
		c.Fill(chunk, start)
		if j, x := mark(seen, chunk, n); j >= 0 {
			t.Fatalf("n=%d: At(%d) = %d, out of range or already the image of another position", n, start+j, x)
		}
	}
	step := 1
	if !inverse {
		step = max(1, n/4096)
	}
	for i := 0; i < n; i += step {
		if p := c.Pos(c.At(i)); p != i {
			t.Fatalf("n=%d: Pos(At(%d)) = %d", n, i, p)
		}
	}
}

// mark sets the bits of the elements of chunk in seen and returns the first
// one out of [0, n) or already set, and its place, or -1. It is left out of the
// race detector's instrumentation (go:norace): it touches memory of this
// goroutine alone, and instrumented it made the sweep to 2^24 five times slower.
//
//go:norace
func mark(seen []uint64, chunk []int, n int) (j, x int) {
	for j, x := range chunk {
		if x < 0 || x >= n {
			return j, x
		}
		w, b := x/64, uint64(1)<<(x%64)
		if seen[w]&b != 0 {
			return j, x
		}
		seen[w] |= b
	}
	return -1, 0
}

// TestCipherBijectionSmall: every n up to 2^12, with its inverse; two more
// keys for every n up to 2^10.
func TestCipherBijectionSmall(t *testing.T) {
	for n := 0; n <= 1<<12; n++ {
		bijection(t, index.NewCipher(n, uint64(n), 1), true)
		if n <= 1<<10 {
			bijection(t, index.NewCipher(n, 0, 0), false)
			bijection(t, index.NewCipher(n, math.MaxUint64, 1<<40), false)
		}
	}
}

// TestCipherBijectionPowersOfTwo: n = 2^k-1, 2^k, 2^k+1 for every k up to 24,
// where sizing the block from the bit length of n-1 has its edges.
func TestCipherBijectionPowersOfTwo(t *testing.T) {
	for k := 1; k <= 24; k++ {
		for _, n := range []int{1<<k - 1, 1 << k, 1<<k + 1} {
			t.Run(fmt.Sprint(n), func(t *testing.T) {
				t.Parallel()
				bijection(t, index.NewCipher(n, uint64(k), k), k <= 16)
			})
		}
	}
}

// TestCipherSweep: every n up to 10^5, behind -cipher.sweep.
func TestCipherSweep(t *testing.T) {
	if !*cipherSweep {
		t.Skip("the sweep of every n up to 10^5 runs with -cipher.sweep")
	}
	for n := 0; n <= 100_000; n++ {
		bijection(t, index.NewCipher(n, 2024, n), true)
	}
}

// TestCipherSampledLarge: for n up to 2^40 and near math.MaxInt, sampled
// positions land in range and come back through the inverse, and sampled
// elements' positions map back to them.
func TestCipherSampledLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 40))
	var ns []int
	for k := 25; k <= 40; k++ {
		ns = append(ns, 1<<k-1, 1<<k, 1<<k+1, 1<<k+rng.IntN(1<<k))
	}
	ns = append(ns, 10_000_000_000, math.MaxInt/2+1, math.MaxInt-1, math.MaxInt)
	for _, n := range ns {
		c := index.NewCipher(n, rng.Uint64(), rng.IntN(1000))
		seen := map[int]int{}
		for range 2000 {
			i := rng.IntN(n)
			if rng.IntN(4) == 0 {
				i = n - 1 - rng.IntN(min(n, 64)) // the top, where cycle-walking happens
			}
			x := c.At(i)
			if x < 0 || x >= n {
				t.Fatalf("n=%d: At(%d) = %d, outside [0, %d)", n, i, x, n)
			}
			if p := c.Pos(x); p != i {
				t.Fatalf("n=%d: Pos(At(%d)) = %d", n, i, p)
			}
			if j, ok := seen[x]; ok && j != i {
				t.Fatalf("n=%d: At(%d) = At(%d) = %d", n, i, j, x)
			}
			seen[x] = i
			if y := c.At(c.Pos(i)); y != i { // i as an element
				t.Fatalf("n=%d: At(Pos(%d)) = %d", n, i, y)
			}
		}
	}
}

func TestCipherFill(t *testing.T) {
	c := index.NewCipher(1000, 5, 6)
	dst := make([]int, 37)
	c.Fill(dst, 963)
	for j, x := range dst {
		if x != c.At(963+j) {
			t.Fatalf("Fill: dst[%d] = %d, At(%d) = %d", j, x, 963+j, c.At(963+j))
		}
	}
	wantIndexPanic(t, "Fill past the end", "index.Cipher.Fill", 1000, 1000, func() { c.Fill(dst, 964) })
	wantIndexPanic(t, "At(-1)", "index.Cipher.At", -1, 1000, func() { c.At(-1) })
	wantIndexPanic(t, "Pos(1000)", "index.Cipher.Pos", 1000, 1000, func() { c.Pos(1000) })
	wantArgPanic(t, "NewCipher(-1)", "index.NewCipher", "number of positions", func() { index.NewCipher(-1, 0, 0) })
	c.Fill(nil, 5000) // nothing to fill: no check
}

func TestCipherDeterministicAndKeyed(t *testing.T) {
	a, b, next := index.NewCipher(500, 9, 2), index.NewCipher(500, 9, 2), index.NewCipher(500, 9, 3)
	same := 0
	for i := range 500 {
		if a.At(i) != b.At(i) {
			t.Fatalf("two ciphers of (500, 9, 2) differ at %d", i)
		}
		if a.At(i) == next.At(i) {
			same++
		}
	}
	if same > 10 { // a uniform pair of permutations agrees at 1 position on average
		t.Errorf("epochs 2 and 3 agree at %d of 500 positions", same)
	}
}
