package eachobs_test

import (
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
)

// TestShuffleBlocksLocal: 4 ranks (Partition, strided) of an order of 12
// runs over 60 unequal blocks read every observation of an epoch once, each
// the same number of batches (Pad), each from about a quarter of the
// blocks; stopped after 7 steps, the position resumes with 3 ranks, which
// read the rest of the epoch, each observation once, still from about a
// third of the blocks each for the next epoch; the order is named in the
// position and refused by ShuffleBlocks.
func TestShuffleBlocksLocal(t *testing.T) {
	var starts []int
	starts = append(starts, 0)
	for k := range 60 {
		starts = append(starts, starts[k]+20+(k*37)%23) // 20 to 42 observations
	}
	n := starts[len(starts)-1]
	data := blocked[int]{iota(n), starts}
	blockOf := func(x int) int { return sort.SearchInts(starts, x+1) - 1 }
	const size, seed, window, runs = 8, 5, 2, 12
	loader := func(rank, ranks int) *eachobs.Loader[[]int] {
		return eachobs.NewLoader(data, size, eachobs.ShuffleBlocksLocal(seed, window, runs),
			eachobs.Partition(index.Part{Index: rank, Parts: ranks, Strided: true}), eachobs.Tail(index.Pad))
	}
	type rankRun struct {
		seen   []int
		blocks map[int]bool
		steps  int
		pos    eachobs.Position
	}
	// run ranks from pos (nil: the start of epoch 0) for at most steps
	// steps (-1: to the end of the epoch).
	run := func(ranks int, saved []byte, steps int) []rankRun {
		out := make([]rankRun, ranks)
		for r := range ranks {
			it := loader(r, ranks).Iter()
			if saved != nil {
				if err := it.UnmarshalBinary(saved); err != nil {
					t.Fatal(err)
				}
			}
			out[r].blocks = map[int]bool{}
			epoch := it.Pos().Epoch
			for steps < 0 || out[r].steps < steps {
				b, ok := it.Next()
				if !ok || b.Pos.Epoch != epoch {
					break
				}
				for _, x := range b.Indices[:b.Real] {
					out[r].seen = append(out[r].seen, x)
					out[r].blocks[blockOf(x)] = true
				}
				out[r].steps++
				out[r].pos = b.Next()
			}
			it.Close()
		}
		return out
	}
	check := func(what string, rs []rankRun, want []int, ranks int) {
		t.Helper()
		var all []int
		touched := 0
		for r, rr := range rs {
			all = append(all, rr.seen...)
			touched += len(rr.blocks)
			if rr.steps != rs[0].steps {
				t.Errorf("%s: rank %d ran %d steps, rank 0 %d", what, r, rr.steps, rs[0].steps)
			}
		}
		slices.Sort(all)
		if !slices.Equal(all, want) {
			t.Fatalf("%s: the ranks read %d observations, want %d each once", what, len(all), len(want))
		}
		// A rank's share is its runs': its blocks and the ones cut at its
		// runs' ends.
		if limit := 60 + runs; touched > limit {
			t.Errorf("%s: %d ranks touched %d blocks in all, want at most %d", what, ranks, touched, limit)
		}
	}
	whole := run(4, nil, -1)
	check("4 ranks, epoch 0", whole, iota(n), 4)

	first := run(4, nil, 7)
	saved, err := first[0].pos.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if order := first[0].pos.Order; !strings.HasPrefix(order, "blocks 60@") || !strings.HasSuffix(order, "x2/12") {
		t.Errorf("the order is named %q, want blocks 60@<hash>x2/12", order)
	}
	consumed := map[int]bool{}
	for _, rr := range first {
		for _, x := range rr.seen {
			consumed[x] = true
		}
	}
	var rest []int
	for i := range n {
		if !consumed[i] {
			rest = append(rest, i)
		}
	}
	check("3 ranks, the rest of epoch 0", run(3, saved, -1), rest, 3)
	next := eachobs.Position{Seed: seed, Order: first[0].pos.Order, Nobs: n, Tail: index.Pad, Epoch: 1}
	b, err := next.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	check("3 ranks, epoch 1", run(3, b, -1), iota(n), 3)

	err = eachobs.NewLoader(data, size, eachobs.ShuffleBlocks(seed, window)).Iter().UnmarshalBinary(saved)
	if !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), "ShuffleBlocksLocal") {
		t.Fatalf("a ShuffleBlocksLocal position restored into a ShuffleBlocks loop: %v, want ErrState naming ShuffleBlocksLocal", err)
	}
}
