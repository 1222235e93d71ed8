package eachobs

import (
	"fmt"
	"strconv"

	"github.com/obskit/obskit/index"
)

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
	// Pos is the position of this batch: its epoch (the pass, for [Batches]),
	// its number within it and the observations of the epoch consumed before
	// it. Resuming at Pos yields this batch again; [Batch.Next] is the position
	// after it.
	Pos Position
	// Count is the number of batches of this epoch, or -1 in an endless stream.
	// (With the index.Keep tail and [Partition], a part may have no batch in the
	// last step of an epoch.)
	Count int

	next Position
}

// Pad returns the number of padding slots at the end of b.Data, MXNet's
// getpad(): len(b.Indices) - b.Real.
func (b Batch[B]) Pad() int { return len(b.Indices) - b.Real }

// Next returns the position that follows b: save it after consuming b, and a
// [Loader] resumes there with [Loader.Resume] without repeating b, also with
// another batch size or number of parts. After the last batch of an epoch it is
// the first batch of the next epoch.
func (b Batch[B]) Next() Position { return b.next }

// A Position is where a loop stands: a small value that a training job saves in
// its checkpoint (any encoding: JSON, gob, its own) and hands back to
// [Loader.Resume] to continue exactly where it stopped, without replaying data.
//
// Where it stands is Consumed: how many observations of epoch Epoch's global
// order every part together has consumed. It is taken between two steps of a
// synchronous loop, when every part has taken the same number of batches, so
// that the observations consumed are the first Consumed of the epoch's order,
// whatever the number of parts and the batch size; a job resumed with others
// deals the rest of the epoch out anew (index.Steps has the arithmetic). Batch
// numbers the next batch within the epoch; with the index.RollOver tail a batch
// that begins in the previous epoch has a negative Consumed.
//
// The other fields say what the position was taken under: a loader resumes only
// positions of its own seed, order, number of observations and tail, which it
// cannot change without losing or repeating observations, and returns an error
// naming the option that differs for the others.
type Position struct {
	Seed     uint64     // the seed of the shuffle (0 without)
	Epoch    int        // the epoch, from 0
	Batch    int        // the number of the next batch within the epoch, from 0
	Consumed int        // the observations of the epoch's order consumed before it
	Order    string     // the order: "data", "cipher", "perm", "blocks BxW" or "within C1+C2+..."
	Nobs     int        // the number of observations of the container
	Tail     index.Tail // the loop's tail
}

// String returns the position in words, such as "epoch 1 batch 2 (6 of 10
// consumed; cipher seed 7; keep)".
func (p Position) String() string {
	order := p.Order
	if order != "data" {
		order += " seed " + strconv.FormatUint(p.Seed, 10)
	}
	return fmt.Sprintf("epoch %d batch %d (%d of %d consumed; %s; %v)", p.Epoch, p.Batch, p.Consumed, p.Nobs, order, p.Tail)
}
