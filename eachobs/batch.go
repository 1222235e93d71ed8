package eachobs

// A Batch is one step of a batch loop: the gathered observations and where they
// came from. It is a small value passed by the loop, not allocated per batch.
//
// A helper that takes a batch names its batch type, the container's: a loop over
// labeled float32 arrays with int64 labels (a tuples.Zip2 of an array and a
// container.Slice, or a view of one) yields
//
//	func step(b eachobs.Batch[arraycontainer.LabeledBatch[float32, int64]]) { ... }
//
// and a provider's batches are provider.Batch[D, L].
//
// Unless the loop was built with [Owned], Data and Indices live in buffers that the
// loop reuses: they are valid until the loop body returns for this batch (the next
// step overwrites them). Keep them longer by copying, or build the loop with
// [Owned], which gives every batch newly allocated memory.
type Batch[B any] struct {
	// Data holds the observations, gathered by the container's GetObsInto: real
	// observations first, then padding (with the index.Pad tail).
	Data B
	// Indices holds the container index of every slot of Data, in order; padding
	// slots repeat the first indices of the epoch. The slice is capped, so
	// appending to it cannot overwrite the loop's buffer.
	Indices []int
	// Real is the number of real observations, the first Real slots of Data:
	// MXNet's count_samples. It is len(Indices) except in a padded last batch.
	Real int
	// Pos is the position of this batch: the loader's seed, the epoch (the pass,
	// for [Batches]) and the number of the batch within it.
	Pos Position
	// Count is the number of batches of this epoch, or -1 in an endless stream.
	Count int
}

// Pad returns the number of padding slots at the end of b.Data, MXNet's
// getpad(): len(b.Indices) - b.Real.
func (b Batch[B]) Pad() int { return len(b.Indices) - b.Real }

// Next returns the position that follows b: save it after consuming b, and a
// [Loader] resumes there with [Loader.Resume] without repeating b. After the last
// batch of an epoch it is the first batch of the next epoch.
func (b Batch[B]) Next() Position {
	n := b.Pos
	n.Batch++
	if b.Count >= 0 && n.Batch >= b.Count {
		n.Epoch++
		n.Batch = 0
	}
	return n
}

// A Position is where a loop stands: a small value that a training job saves in its
// checkpoint and hands back to [Loader.Resume] to continue exactly where it stopped,
// without replaying data. Batch is the number of the next batch within Epoch.
type Position struct {
	Seed  uint64 // the seed of the Loader that produced it (0 when it does not shuffle)
	Epoch int    // the epoch, from 0
	Batch int    // the batch within the epoch, from 0
}
