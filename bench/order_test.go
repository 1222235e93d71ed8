package bench

import (
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
)

// BenchmarkCipherEpoch moves one shuffled epoch of the 60000x784 float32 array
// in batches of 128 per pass (issue 17) with the two orders of a shuffled loop:
// the keyed cipher computed per position (eachobs.Shuffle, the kit's default)
// and the array permutation drawn per epoch (eachobs.ShufflePerm, rand.Perm's).
// x-perm is the array epoch's time over the cipher epoch's: the cipher's speed
// as a multiple of the array's (issue 17 asks for at least 0.97).
func BenchmarkCipherEpoch(b *testing.B) {
	d, _, _ := data(b, Obs)
	x := d.X()
	const amount = Obs * Width * 4
	paired(b, "MB/s", false,
		epochSide("cipher", eachobs.Batches(x, BatchSize, eachobs.Shuffle(2)), amount),
		epochSide("perm", eachobs.Batches(x, BatchSize, eachobs.ShufflePerm(2)), amount),
	)
}

// BenchmarkResume resumes a shuffled loop of n = 10^9 observations (a
// container that computes observation i as i: no data) at random positions of
// random epochs (issue 17: under 1 ms and 1 KiB). Resume is the call that
// makes an iterator and restores the saved position into it (B/op: the memory a
// resume takes);
// Resume+batch also yields the first batch of 128 from there. ShufflePerm is
// the array permutation's resume, which draws the epoch's permutation again: at
// n = 10^7 (80 MB), since n = 10^9 would take 8 GB.
func BenchmarkResume(b *testing.B) {
	positions := func(l *eachobs.Loader[[]int]) [][]byte {
		rng := rand.New(rand.NewPCG(3, 3))
		out := make([][]byte, 256)
		for i := range out {
			p := l.Iter().Pos()
			e := rng.IntN(1000)
			p.Epoch, p.Consumed, p.Batch = l.Steps().After(e, rng.IntN(l.Len(e)))
			var err error
			if out[i], err = p.MarshalBinary(); err != nil {
				panic(err)
			}
		}
		return out
	}
	const n = 1_000_000_000
	identity := func(i int) int { return i }
	cipher := eachobs.NewLoader(container.FromFunc(n, identity), BatchSize, eachobs.Shuffle(3))
	// resume resumes l at each of its positions in turn, and with batch also
	// takes the first batch from there.
	resume := func(l *eachobs.Loader[[]int], batch bool) func(*testing.B) {
		at := positions(l)
		return func(b *testing.B) {
			b.ReportAllocs()
			var sink int
			for i := 0; b.Loop(); i++ {
				it := l.Iter()
				if err := it.UnmarshalBinary(at[i%len(at)]); err != nil {
					b.Fatal(err)
				}
				if batch {
					bt, _ := it.Next()
					sink += bt.Data[0]
				}
				it.Close()
			}
			_ = sink
		}
	}
	b.Run("Resume", resume(cipher, false))
	b.Run("Resume+batch", resume(cipher, true))
	b.Run("ShufflePerm-1e7+batch", func(b *testing.B) {
		resume(eachobs.NewLoader(container.FromFunc(10_000_000, identity), BatchSize, eachobs.ShufflePerm(3)), true)(b)
	})
}
