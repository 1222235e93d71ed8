package eachobs_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
)

// TestPartitionShares checks the steps of distributed training: P loaders
// with one seed take, in every step, disjoint shares of the step's positions of
// one global order per epoch, so that in every epoch they together visit every
// observation once (Keep, Pad: as real observations; Drop: the first
// n/(P*size)*(P*size) positions of the order), and pass e of Batches with the
// same options is the loader's epoch e.
func TestPartitionShares(t *testing.T) {
	const seed = 11
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 60 {
		n := rng.IntN(40)
		nparts := 1 + rng.IntN(5)
		tail := tails[trial%4]
		strided := trial%2 == 0
		size := 1 + rng.IntN(6)
		o := orders[trial%len(orders)]
		for e := range 2 {
			var union []int
			var counts []int
			for p := range nparts {
				part := index.Part{Index: p, Parts: nparts, Strided: strided}
				par := parallelism[(trial+p)%len(parallelism)]
				opts := append(parOpts(par.prefetch, par.workers), eachobs.Partition(part), eachobs.Tail(tail))
				opts = append(opts, o.options(seed)...)
				l := eachobs.NewLoader(blockedTens(n), size, opts...)
				got := collect(l.Epoch(e))
				if e == 0 {
					if d := cmp.Diff(got, collect(eachobs.Batches(blockedTens(n), size, opts...)), cmpEmpty); d != "" {
						t.Fatalf("n=%d %+v: pass 0 of Batches differs from the loader's epoch (-loader +Batches):\n%s", n, part, d)
					}
				}
				for _, r := range got {
					union = append(union, r.Indices[:r.Real]...)
				}
				counts = append(counts, len(got))
			}
			what := name("n=", n, " parts=", nparts, " size=", size, " ", tail, " strided=", strided, " order=", o.name, " epoch ", e)
			g := nparts * size
			var want []int
			switch tail {
			case index.RollOver:
				continue // one stream over epochs: TestLoaderResume and the reference cover it
			case index.Drop:
				perm := o.perm(n, seed, e)
				want = append(want, perm[:n/g*g]...)
			default:
				want = iota(n)
			}
			slices.Sort(union)
			slices.Sort(want)
			if d := cmp.Diff(want, union, cmpEmpty); d != "" {
				t.Fatalf("%s: the parts together (-want +got):\n%s", what, d)
			}
			if tail != index.Keep && slices.Min(counts) != slices.Max(counts) {
				t.Fatalf("%s: parts have %v batches, want equal", what, counts)
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
	if err := argPanic(func() { eachobs.Partition(index.Part{Parts: 2, Tail: index.Pad}) }); err == nil || err.Arg != "part's tail" {
		t.Errorf("Partition with a part's tail: panic %v, want a *container.ArgError naming the part's tail", err)
	}
	for _, part := range []index.Part{{Index: 3, Parts: 2}, {Parts: 0}, {Index: -1, Parts: 2}, {Parts: 2, Tail: index.RollOver}} {
		err := argPanic(func() { eachobs.Partition(part) })
		if err == nil || err.Op != "eachobs.Partition" || err.Arg != "part" || !strings.Contains(err.Error(), index.ErrPart.Error()) {
			t.Errorf("Partition(%+v) panic = %v, want a *container.ArgError naming the part and index.ErrPart", part, err)
		}
	}
}

func TestPartitionRollOverResume(t *testing.T) {
	part := index.Part{Index: 1, Parts: 3, Strided: true}
	l := eachobs.NewLoader(tens(17), 4, eachobs.Shuffle(3), eachobs.Partition(part), eachobs.Tail(index.RollOver))
	seq, err := resume(l, start(l))
	if err != nil {
		t.Fatal(err)
	}
	want := take(seq, 12)
	var got []rec
	pos := start(l)
	for len(got) < 12 {
		s, err := resume(l, pos)
		if err != nil {
			t.Fatal(err)
		}
		piece := take(s, 5)
		got = append(got, piece...)
		pos = piece[len(piece)-1].Next
	}
	if d := cmp.Diff(want, got[:12]); d != "" {
		t.Errorf("resumed partitioned roll-over stream differs (-whole +resumed):\n%s", d)
	}
}
