package objstore

import (
	"iter"
	"path"

	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/shard"
)

// Upcoming is [index.Upcoming].
//
// Deprecated: use index.Upcoming, which the root module's readers
// (shard.Set.Prefetch) share.
func Upcoming(at func(int) int, starts []int, from, stride int) iter.Seq[int] {
	return index.Upcoming(at, starts, from, stride)
}

// ReadAheadSet starts a read-ahead ([Cache.ReadAhead]) of the shards of a
// set that blocks yields (such as index.Upcoming over the set's BlockStarts),
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
