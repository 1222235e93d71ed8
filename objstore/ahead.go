package objstore

import (
	"iter"
	"path"
	"sort"

	"github.com/obskit/obskit/shard"
)

// Upcoming yields the blocks that the positions from, from+stride,
// from+2*stride, ... of an epoch's order reach, in the order each is first
// reached, each once: the shards a process of a strided partition reads next
// (eachobs.Partition with Strided takes, of every step, the positions
// congruent to its part, so its positions from a Position's Consumed on are
// Consumed+part, Consumed+part+parts, ...). at is the epoch's order
// (index.LocalBlocks.At for eachobs.ShuffleBlocksLocal, index.Blocks.At for
// ShuffleBlocks), starts the container's blocks (container.Blocked). It walks
// the positions as it is pulled, so an epoch's list costs nothing up front;
// it returns a single-use iterator. It panics with an error when stride is
// below 1.
func Upcoming(at func(int) int, starts []int, from, stride int) iter.Seq[int] {
	if stride < 1 {
		panic("objstore.Upcoming: stride below 1")
	}
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

// ReadAheadSet starts a read-ahead ([Cache.ReadAhead]) of the shards of a
// set that blocks yields (such as [Upcoming] over the set's BlockStarts),
// each shard's index then its files, keeping depth shards ahead of the
// reader, parallel fetches at a time. m is the set's manifest, the object
// manifest of the cache's source; the cache should know its checksums
// ([Cache.ExpectSet]).
func (c *Cache) ReadAheadSet(m *shard.Manifest, manifest string, blocks iter.Seq[int], depth, parallel int) *ReadAhead {
	dir := path.Dir(manifest)
	per := 1
	if len(m.Shards) > 0 {
		per += len(m.Shards[0].Files)
	}
	names := func(yield func(string) bool) {
		for k := range blocks {
			sh := &m.Shards[k]
			if !yield(path.Join(dir, sh.Index.Name)) {
				return
			}
			for _, f := range sh.Files {
				if !yield(path.Join(dir, f.Name)) {
					return
				}
			}
		}
	}
	return c.ReadAhead(names, depth*per, parallel)
}
