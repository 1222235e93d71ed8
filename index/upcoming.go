package index

import (
	"iter"
	"sort"

	"github.com/obskit/obskit/container"
)

// Upcoming yields the blocks that the positions from, from+stride,
// from+2*stride, ... of an epoch's order reach, in the order each is first
// reached, each once: the blocks (shards, row groups) a reader reads next, for
// a read-ahead that follows the loop (shard.Set.Prefetch, objstore's
// Cache.ReadAheadSet). at is the epoch's order ([Blocks.At] for
// eachobs.ShuffleBlocks, [LocalBlocks.At] for ShuffleBlocksLocal), starts the
// container's blocks (container.BlockStarts). A loop over one process's part
// of a strided partition (eachobs.Partition with Strided) takes, of every
// step, the positions congruent to its part, so its positions from a
// Position's Consumed on are Consumed+part, Consumed+part+parts, ...; a
// single loop's are from 0 (or Consumed) with stride 1.
//
// It walks the positions as it is pulled, so an epoch's list costs nothing up
// front; it returns a single-use iterator. It panics with a
// *container.ArgError when starts are not a container's block starts or when
// stride is below 1.
func Upcoming(at func(int) int, starts []int, from, stride int) iter.Seq[int] {
	checkStarts("index.Upcoming", starts)
	container.CheckArg(stride >= 1, "index.Upcoming", "stride", stride, ">= 1")
	n := starts[len(starts)-1]
	return func(yield func(int) bool) {
		seen := make([]bool, len(starts)-1)
		for g := max(from, 0); g < n; g += stride {
			x := at(g)
			k := sort.SearchInts(starts, x+1) - 1 // the non-empty block of x
			if !seen[k] {
				seen[k] = true
				if !yield(k) {
					return
				}
			}
		}
	}
}
