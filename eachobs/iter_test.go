package eachobs_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"go.uber.org/goleak"
)

// TestIterSaveRestore: an iterator pulled a random number of batches, saved,
// and restored into a fresh iterator of another loader over the same data (other
// workers, prefetch, batch size) continues with exactly the observations the
// uninterrupted iterator would have given, each once, through epoch 2.
func TestIterSaveRestore(t *testing.T) {
	before := goleak.IgnoreCurrent()
	rng := rand.New(rand.NewPCG(7, 7))
	data := blockedTens(53)
	orders := [][]eachobs.Option{{eachobs.Shuffle(3)}, {eachobs.ShufflePerm(3)}, {eachobs.ShuffleBlocksOf(3, 5, 2)}, {eachobs.ShuffleBlocks(3, 2)}, nil}
	for trial := range 60 {
		order := orders[trial%len(orders)]
		tail := []index.Tail{index.Keep, index.Drop, index.Pad, index.RollOver}[rng.IntN(4)]
		size := 1 + rng.IntN(9)
		par := parallelism[rng.IntN(len(parallelism))]
		l := eachobs.NewLoader(data, size, append(append([]eachobs.Option{eachobs.Tail(tail)}, order...), parOpts(par.prefetch, par.workers)...)...)
		// The stream of observations the uninterrupted iterator gives through epoch 2.
		var want []int
		it := l.Iter()
		for b := range it.All() {
			if b.Pos.Epoch > 2 {
				break
			}
			want = append(want, b.Data[:b.Real]...)
		}
		it.Close()

		it = l.Iter()
		var got []int
		stop := rng.IntN(12)
		for k := 0; k < stop; k++ {
			b, ok := it.Next()
			if !ok || b.Pos.Epoch > 2 {
				break
			}
			got = append(got, b.Data[:b.Real]...)
		}
		saved, err := it.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		it.Close()
		size2, par2 := 1+rng.IntN(9), parallelism[rng.IntN(len(parallelism))]
		if tail == index.Pad || tail == index.RollOver {
			size2 = size // a padded or rolled batch is not absorbed by another size
		}
		l2 := eachobs.NewLoader(data, size2, append(append([]eachobs.Option{eachobs.Tail(tail)}, order...), parOpts(par2.prefetch, par2.workers)...)...)
		it2 := l2.Iter()
		if err := it2.UnmarshalBinary(saved); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		for b := range it2.All() {
			if b.Pos.Epoch > 2 {
				break
			}
			got = append(got, b.Data[:b.Real]...)
		}
		it2.Close()
		if tail == index.Pad || tail == index.Drop {
			continue // the epochs' multisets differ with another size; TestElasticResume covers them
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("trial %d (size %d->%d, %v, %v): restored stream differs (-want +got):\n%s", trial, size, size2, tail, order, d)
		}
	}
	goleak.VerifyNone(t, before)
}

// TestIterBreakContinues: a break out of All stops the goroutines, and the
// iterator continues from the batch after the last one taken.
func TestIterBreakContinues(t *testing.T) {
	before := goleak.IgnoreCurrent()
	for _, par := range parallelism {
		l := eachobs.NewLoader(tens(40), 3, append(parOpts(par.prefetch, par.workers), eachobs.Shuffle(9))...)
		var want []rec
		for b := range l.Epoch(0) {
			want = append(want, recOf(b))
		}
		it := l.Iter()
		var got []rec
		for len(got) < len(want) {
			for b := range it.All() {
				got = append(got, recOf(b))
				if len(got)%4 == 1 || len(got) == len(want) {
					break
				}
			}
			goleak.VerifyNone(t, before)
		}
		it.Close()
		if d := cmp.Diff(want, got, cmp.AllowUnexported(rec{})); d != "" {
			t.Fatalf("%v: batches across breaks (-want +got):\n%s", par, d)
		}
	}
}

// TestIterRefusesDamage: every single-bit flip of a saved state is refused
// with container.ErrState (issue 25: a damaged stream state restored
// silently), and a closed or ended iterator reopens when restored.
func TestIterRefusesDamage(t *testing.T) {
	l := eachobs.NewLoader(tens(20), 3, eachobs.Shuffle(2))
	it := l.Iter()
	it.Next()
	it.Next()
	saved, err := it.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	it.Close()
	if _, ok := it.Next(); ok {
		t.Fatal("Next after Close returned a batch")
	}
	for bit := range 8 * len(saved) {
		bad := append([]byte(nil), saved...)
		bad[bit/8] ^= 1 << (bit % 8)
		if err := l.Iter().UnmarshalBinary(bad); !errors.Is(err, container.ErrState) {
			t.Fatalf("bit %d flipped: UnmarshalBinary = %v, want ErrState", bit, err)
		}
	}
	for n := range len(saved) {
		if err := l.Iter().UnmarshalBinary(saved[:n]); !errors.Is(err, container.ErrState) {
			t.Fatalf("cut to %d bytes: UnmarshalBinary = %v, want ErrState", n, err)
		}
	}
	if err := it.UnmarshalBinary(saved); err != nil {
		t.Fatal(err)
	}
	b, ok := it.Next()
	if !ok || b.Pos.Batch != 2 {
		t.Fatalf("a closed iterator restored: Next = batch %d %v, want batch 2", b.Pos.Batch, ok)
	}
	it.Close()
}
