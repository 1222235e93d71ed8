package index_test

import (
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/index"
)

// BenchmarkCipher measures the positions of an epoch of n = 60,000 (the size of
// MNIST), computed 128 at a time with Cipher.Fill, beside drawing the epoch's
// permutation with index.PermInto and reading it 128 at a time: the two ways a
// loop shuffles, per position (ns/op is per epoch; the metric ns/position).
func BenchmarkCipher(b *testing.B) {
	const n, size = 60_000, 128
	dst := make([]int, size)
	b.Run("baseline=PermInto", func(b *testing.B) {
		perm := make([]int, n)
		rng := rand.New(rand.NewPCG(1, 2))
		for b.Loop() {
			index.PermInto(perm, rng)
			for start := 0; start < n; start += size {
				copy(dst, perm[start:min(start+size, n)])
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/position")
	})
	b.Run("Cipher.Fill", func(b *testing.B) {
		e := 0
		for b.Loop() {
			c := index.NewCipher(n, 1, e)
			e++
			for start := 0; start < n; start += size {
				c.Fill(dst[:min(size, n-start)], start)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/position")
	})
}
