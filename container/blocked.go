package container

// A Blocked container has natural blocks: runs of consecutive observations
// that are stored, read or decoded together (a Parquet row group, an Arrow
// record batch, a shard of a sharded data set), so that reading a block's
// observations one after another costs about one read of the block, and
// reading them scattered costs one read each. eachobs.ShuffleBlocks shuffles
// such a container in two levels (index.Blocks): the blocks in a random order,
// the observations of each window of blocks among themselves, so that a
// container that caches a window of decoded blocks decodes each once per epoch,
// and the epoch still has a position, resumes and is partitioned as any loop.
//
// It is an optional ability, found by type assertion as [io.Copy] finds
// [io.WriterTo]. Unlike the others it changes what a loop does, not only how
// fast: a loop that asks for the container's blocks (eachobs.ShuffleBlocks)
// visits the observations in an order made from them, and refuses a container
// that has none. Nothing else reads it.
//
// BlockStarts returns the first index of each block and, last, Nobs(): block k
// holds the observations starts[k] to starts[k+1]-1. starts[0] is 0 and the
// starts do not decrease; a block may be empty (a row group of no rows), and a
// container of no observations has [0] or empty blocks only. The slice may be
// the container's own: the caller must not modify it. It is the same on every
// call, and safe to call from any number of goroutines. BlockStarts returns
// nil when the container has no blocks: a wrapper has the method whatever its
// source, and says so when the source has none.
//
// Containers that have blocks: the columns of the columnar module (Numbers,
// Lists and Strings of an Arrow file's record batches or a Parquet file's row
// groups). A RecordIO file, or a folder of images, reads each record or file
// on its own, at its offset, and decodes nothing larger: it has no blocks.
// Wrappers that keep observation i where it is keep a source's
// blocks (they have the method, and read the source's with [BlockStarts]):
// transform's maps, convert's conversions, [AsBatched]; a tuple has the blocks
// its members share, each block of a member cut where another member's blocks
// start; transform.Join puts its members' blocks one after another, a member
// with none being one block (several files read as one container, a block per
// file). A view (subset's) keeps them while its source indices do not
// decrease (a range, a split or fold without shuffling, a hash split): each
// block of the source becomes the run of the view's observations in it. A
// view in another order (a shuffle) or a mix puts a block's observations at
// scattered positions, so that a block of its source is no run of its own,
// and a batch view's or a window's observation spans blocks: these have no
// blocks. Split without shuffling, then shuffle the part in blocks, to keep
// reads local.
type Blocked interface {
	// BlockStarts returns the first index of each block and, last, Nobs(),
	// or nil when the container has no blocks.
	BlockStarts() []int
}

// BlockStarts returns the block starts of c, as [Blocked] defines them:
// c.BlockStarts() when c has that method, nil otherwise. Wrappers that keep
// their sources' blocks call it.
func BlockStarts[T any](c Container[T]) []int {
	if b, ok := c.(Blocked); ok {
		return b.BlockStarts()
	}
	return nil
}

// BlockStarts returns the block starts of the wrapped container ([Blocked]),
// or nil when it has none.
func (a adapter[T]) BlockStarts() []int { return BlockStarts(a.c) }
