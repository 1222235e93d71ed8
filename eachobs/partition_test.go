package eachobs_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/subset"
)

// TestPartitionShares checks DistributedSampler semantics: P loaders with one
// seed see, in every epoch, the parts of one global permutation that
// subset.Partition defines, and together every observation (exactly once with
// Keep, all but the dropped tail with Drop); pass e of Batches with the same
// seed takes the same part as the loader's epoch e.
func TestPartitionShares(t *testing.T) {
	const seed = 11
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 40 {
		n := rng.IntN(40)
		nparts := 1 + rng.IntN(5)
		tail := []index.Tail{index.Keep, index.Pad, index.Drop}[trial%3]
		strided := trial%2 == 0
		size := 1 + rng.IntN(6)
		unions := make([][]int, 2)
		for p := range nparts {
			part := index.Part{Index: p, Parts: nparts, Strided: strided, Tail: tail}
			par := parallelism[(trial+p)%len(parallelism)]
			opts := append(parOpts(par.prefetch, par.workers), eachobs.Shuffle(seed), eachobs.Partition(part))
			l := eachobs.NewLoader(tens(n), size, opts...)
			seq := eachobs.Batches(tens(n), size, opts...)
			for e := range 2 {
				var got []int
				for b := range l.Epoch(e) {
					got = append(got, b.Indices[:b.Real]...)
				}
				want, err := subset.Partition(subset.Iota(n), rand.New(rand.NewPCG(seed, uint64(e))), part)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(want.Indices(), got, cmpEmpty); d != "" {
					t.Fatalf("n=%d %+v epoch %d: loader part differs from subset.Partition of the epoch's permutation (-want +got):\n%s", n, part, e, d)
				}
				var pass []int
				for b := range seq {
					pass = append(pass, b.Indices[:b.Real]...)
				}
				if d := cmp.Diff(got, pass, cmpEmpty); d != "" {
					t.Fatalf("n=%d %+v: pass %d of Batches differs from the loader's epoch (-loader +Batches):\n%s", n, part, e, d)
				}
				unions[e] = append(unions[e], got...)
			}
		}
		for e, union := range unions {
			slices.Sort(union)
			switch tail {
			case index.Keep:
				if d := cmp.Diff(iota(n), union, cmpEmpty); d != "" {
					t.Fatalf("n=%d parts=%d Keep epoch %d: parts together are not every observation once (-want +got):\n%s", n, nparts, e, d)
				}
			case index.Drop:
				if len(union) != n/nparts*nparts || len(slices.Compact(union)) != len(union) {
					t.Fatalf("n=%d parts=%d Drop epoch %d: parts hold %v", n, nparts, e, union)
				}
			case index.Pad:
				if n > 0 && len(slices.Compact(union)) != n {
					t.Fatalf("n=%d parts=%d Pad epoch %d: parts miss observations: %v", n, nparts, e, union)
				}
			}
		}
	}
}

var cmpEmpty = cmp.Transformer("nilToEmpty", func(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
})

func TestPartitionPanics(t *testing.T) {
	for _, part := range []index.Part{{Index: 3, Parts: 2}, {Parts: 0}, {Index: -1, Parts: 2}, {Parts: 2, Tail: index.RollOver}} {
		err := argPanic(func() { eachobs.Partition(part) })
		if err == nil || err.Op != "eachobs.Partition" || err.Arg != "part" || !strings.Contains(err.Error(), index.ErrPart.Error()) {
			t.Errorf("Partition(%+v) panic = %v, want a *container.ArgError naming the part and index.ErrPart", part, err)
		}
	}
}

func TestPartitionRollOverResume(t *testing.T) {
	part := index.Part{Index: 1, Parts: 3, Strided: true, Tail: index.Pad}
	l := eachobs.NewLoader(tens(17), 4, eachobs.Shuffle(3), eachobs.Partition(part), eachobs.Tail(index.RollOver))
	seq, err := l.Resume(eachobs.Position{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := take(seq, 12)
	var got []rec
	pos := eachobs.Position{Seed: 3}
	for len(got) < 12 {
		s, err := l.Resume(pos)
		if err != nil {
			t.Fatal(err)
		}
		piece := take(s, 5)
		got = append(got, piece...)
		pos = eachobs.Batch[[]int]{Pos: piece[len(piece)-1].Pos, Count: piece[len(piece)-1].Count}.Next()
	}
	if d := cmp.Diff(want, got[:12]); d != "" {
		t.Errorf("resumed partitioned roll-over stream differs (-whole +resumed):\n%s", d)
	}
}
