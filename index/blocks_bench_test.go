package index_test

import (
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/index"
)

// BenchmarkBlocks measures the positions of a two-level order of n = 10^9
// positions, computed 128 at a time with Blocks.Fill (the metric
// ns/position), in windows of 16 blocks: blocks of 1024 (equal, the order of
// eachobs.ShuffleBlocksOf over a memory-mapped array) and 10,000 blocks of
// random sizes (any, the order of eachobs.ShuffleBlocks over shards or row
// groups), beside Cipher.Fill, the full shuffle's cost per position. A pass
// reads a stretch of 60,000 positions from a different place each time.
func BenchmarkBlocks(b *testing.B) {
	const n, size, stretch = 1_000_000_000, 128, 60_000
	dst := make([]int, size)
	run := func(b *testing.B, fill func(dst []int, start int)) {
		at := 0
		for b.Loop() {
			for start := at; start < at+stretch; start += size {
				fill(dst, start)
			}
			at = (at + 7_777_777*size) % (n - stretch)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/stretch, "ns/position")
	}
	b.Run("baseline=Cipher.Fill", func(b *testing.B) {
		c := index.NewCipher(n, 1, 3)
		run(b, c.Fill)
	})
	b.Run("equal", func(b *testing.B) {
		o := index.NewBlocks(n, 1024, 16, 1, 3)
		run(b, o.Fill)
	})
	b.Run("any", func(b *testing.B) {
		// 10,000 blocks of 0 to 200,000 positions (10^9 in all).
		rng := rand.New(rand.NewPCG(1, 2))
		starts := []int{0}
		for k := 1; k < 10_000; k++ {
			starts = append(starts, k*100_000+rng.IntN(100_000)-50_000)
		}
		starts = append(starts, n)
		o := index.NewBlocksAt(starts, 16, 1, 3)
		run(b, o.Fill)
	})
}
