package index_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obskit/obskit/index"
)

// TestUpcoming checks index.Upcoming against the blocks of the positions
// walked one by one: for orders over blocks of random sizes (empty ones
// among them), each part of a strided partition of 1 to 4 parts, from
// several starting points, it yields the block of each position in the
// order first reached, each once, and stops when its consumer does.
func TestUpcoming(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 7))
	for trial := range 200 {
		starts := randomStarts(rng, 1+rng.IntN(12), 9)
		n := starts[len(starts)-1]
		order := index.NewBlocksAt(starts, 1+rng.IntN(3), uint64(trial), rng.IntN(3))
		blockOf := func(x int) int {
			for k := len(starts) - 2; k >= 0; k-- {
				if starts[k] <= x {
					return k
				}
			}
			t.Fatalf("position %d outside %v", x, starts)
			return -1
		}
		for stride := 1; stride <= 4; stride++ {
			for from := range stride + 2 {
				var want []int
				for g := from; g < n; g += stride {
					if k := blockOf(order.At(g)); !slices.Contains(want, k) {
						want = append(want, k)
					}
				}
				got := slices.Collect(index.Upcoming(order.At, starts, from, stride))
				if !slices.Equal(got, want) {
					t.Fatalf("starts %v, from %d, stride %d: %v, want %v", starts, from, stride, got, want)
				}
				if len(want) > 1 {
					var first []int
					for k := range index.Upcoming(order.At, starts, from, stride) {
						first = append(first, k)
						break
					}
					if !slices.Equal(first, want[:1]) {
						t.Fatalf("a break after the first: %v", first)
					}
				}
			}
		}
	}
	wantArgPanic(t, "stride 0", "index.Upcoming", "stride", func() { index.Upcoming(func(i int) int { return i }, []int{0, 3}, 0, 0) })
	wantArgPanic(t, "bad starts", "index.Upcoming", "starts[0]", func() { index.Upcoming(func(i int) int { return i }, []int{1, 3}, 0, 1) })
}
