package objstore_test

import (
	"testing"

	"github.com/obskit/obskit/index"
)

// TestSimulate1024 simulates 1,024 ranks reading an epoch of a set of
// 20,000 shards of 100 samples (2,000,000 samples) in the order of
// eachobs.ShuffleBlocksLocal with 3,072 runs (3 per rank; 4 per rank for
// 768), computing each rank's share as the loop deals it (the strided
// positions) and the shards it must fetch (index.Upcoming): every rank
// gets the same number of samples (to one), and fetches at most its share
// of the shards plus one per run boundary (at 1,024 ranks, 1.08 to 1.23
// times its share); after a restart with 768 ranks a third into the epoch,
// the same holds for the rest, plus the window each run had in progress
// (its shards partly read before). docs/object-store.md gives the figures
// it logs.
func TestSimulate1024(t *testing.T) {
	const shards, per, runs, window = 20_000, 100, 3072, 4
	starts := make([]int, shards+1)
	for k := range starts {
		starts[k] = k * per
	}
	n := shards * per
	order := index.NewLocalBlocks(starts, window, runs, 7, 0)
	simulate := func(ranks, from int) (minS, maxS, minK, maxK int) {
		minS, minK = n, shards
		for r := range ranks {
			s := (n - from - r + ranks - 1) / ranks // positions from+r, from+r+ranks, ... below n
			k := 0
			for range index.Upcoming(order.At, starts, from+r, ranks) {
				k++
			}
			minS, maxS, minK, maxK = min(minS, s), max(maxS, s), min(minK, k), max(maxK, k)
		}
		return
	}
	for _, c := range []struct{ ranks, from int }{{1024, 0}, {768, n / 3}} {
		minS, maxS, minK, maxK := simulate(c.ranks, c.from)
		share := float64(shards) * float64(n-c.from) / float64(n) / float64(c.ranks)
		t.Logf("%d ranks from sample %d: %d to %d samples each; %d to %d shards fetched each, their share %.1f (%.2f to %.2f of it)",
			c.ranks, c.from, minS, maxS, minK, maxK, share, float64(minK)/share, float64(maxK)/share)
		if maxS-minS > 1 {
			t.Errorf("%d ranks: %d to %d samples", c.ranks, minS, maxS)
		}
		// A rank's runs are runs/ranks, each cut at both ends at most; after
		// a restart mid-epoch, each run's window in progress is read again.
		limit := int(share) + 2*runs/c.ranks + 1
		if c.from > 0 {
			limit += window * runs / c.ranks
		}
		if maxK > limit {
			t.Errorf("%d ranks: a rank fetches %d shards, more than its share %.1f and its runs' ends (%d)", c.ranks, maxK, share, limit)
		}
	}
}
