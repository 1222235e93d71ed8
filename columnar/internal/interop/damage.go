package interop

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"runtime"
)

// A Damage is a damaged copy of a file's bytes and what was done to it.
type Damage struct {
	What string // "bit 2 of byte 84", "cut at byte 1000"
	Data []byte
}

// Flips returns a copy of data for every bit of the bytes data[lo:hi] of each
// span [lo, hi) (clipped to data), with that one bit flipped. The copy is
// reused from one damage to the next.
func Flips(data []byte, spans ...[2]int) iter.Seq[Damage] {
	return func(yield func(Damage) bool) {
		d := append([]byte{}, data...)
		for _, s := range spans {
			for i := max(s[0], 0); i < min(s[1], len(data)); i++ {
				for bit := range 8 {
					d[i] ^= 1 << bit
					ok := yield(Damage{fmt.Sprintf("bit %d of byte %d", bit, i), d})
					d[i] ^= 1 << bit
					if !ok {
						return
					}
				}
			}
		}
	}
}

// RandomFlips returns n copies of data, each with one bit flipped at a
// position drawn from the seed in [lo, hi). The copy is reused.
func RandomFlips(data []byte, n int, lo, hi int, seed uint64) iter.Seq[Damage] {
	return func(yield func(Damage) bool) {
		lo, hi = max(lo, 0), min(hi, len(data))
		if hi <= lo {
			return
		}
		rng := rand.New(rand.NewPCG(seed, uint64(len(data))))
		d := append([]byte{}, data...)
		for range n {
			i, bit := lo+rng.IntN(hi-lo), rng.IntN(8)
			d[i] ^= 1 << bit
			ok := yield(Damage{fmt.Sprintf("bit %d of byte %d", bit, i), d})
			d[i] ^= 1 << bit
			if !ok {
				return
			}
		}
	}
}

// Cuts returns data cut short at n positions spread evenly over it, from 0.
func Cuts(data []byte, n int) iter.Seq[Damage] {
	return func(yield func(Damage) bool) {
		for k := range n {
			at := k * len(data) / n
			if !yield(Damage{fmt.Sprintf("cut at byte %d", at), data[:at]}) {
				return
			}
		}
	}
}

// Allocated returns the bytes f allocates, as runtime.MemStats counts them
// (TotalAlloc: the whole process's, so that nothing else may run at once).
// It counts what an allocation asked for even when the memory was never
// touched, which a measure of the heap in use would miss.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// AllocBound is the most bytes the reads of one damaged file of size bytes
// may allocate in the damage tests: 64 times the file, and 64 MiB for the
// decoders' own buffers (an LZ4 reader takes the 4 MiB blocks its frame
// says, ZSTD its tables; the race detector's sync.Pool drops the pooled ones
// at random, so that a trial may make several).
func AllocBound(size int) uint64 { return 64*uint64(size) + 64<<20 }
