package eachobs

import (
	"fmt"
	"strconv"

	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/internal/state"
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
	// it. An iterator restored to Pos yields this batch again; [Batch.Next] is
	// the position after it.
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

// Next returns the position that follows b, the state of the loop's [Iter]
// after it returned b: an iterator restored to it (with [Iter.UnmarshalBinary]
// of its encoding) continues with the batch after b, also in a loader of another
// batch size or number of parts. After the last batch of an epoch it is the
// first batch of the next epoch. It is how a range form ([Loader.Epoch],
// [Batches]) that holds no iterator saves where it stands.
func (b Batch[B]) Next() Position { return b.next }

// A Position is where a loop stands: the state of an [Iter], a small value that
// [Iter.Pos] reads and [Position.MarshalBinary] encodes (what [Iter.MarshalBinary]
// returns) for a checkpoint, so that an iterator restored with
// [Iter.UnmarshalBinary] continues exactly where the saving one stopped, without
// replaying data.
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
// The other fields say what the position was taken under: a loader's iterator
// restores only positions of its own seed, order, number of observations and
// tail, which it cannot change without losing or repeating observations, and
// returns an error wrapping container.ErrState naming the option that differs for
// the others.
type Position struct {
	Seed     uint64     // the seed of the shuffle (0 without)
	Epoch    int        // the epoch, from 0
	Batch    int        // the number of the next batch within the epoch, from 0
	Consumed int        // the observations of the epoch's order consumed before it
	Order    string     // the order: "data", "cipher", "perm", "blocks K@HxW", "blocks K@HxW/R", "blocks BxW" or "within C1+C2+..."
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

// positionKind is the kind of a saved Position (internal/state).
const positionKind = "eachobs.Position"

// MarshalBinary encodes p in the kit's saved-state form (versioned, with a
// checksum): about 30 bytes.
func (p Position) MarshalBinary() ([]byte, error) {
	w := state.Begin(make([]byte, 0, 48), positionKind)
	w.Uint(p.Seed)
	w.Int(p.Epoch)
	w.Int(p.Batch)
	w.Int(p.Consumed)
	w.String(p.Order)
	w.Int(p.Nobs)
	w.Uint(uint64(p.Tail))
	return w.Finish()
}

// UnmarshalBinary decodes a position encoded by [Position.MarshalBinary]. It
// returns an error wrapping container.ErrState for bytes that are not one (damaged,
// cut short, of another version or another kind of state), and leaves p
// unchanged then.
func (p *Position) UnmarshalBinary(data []byte) error {
	r := state.Open("eachobs.Position.UnmarshalBinary", data, positionKind)
	var q Position
	q.Seed = r.Uint()
	q.Epoch = r.Int()
	q.Batch = r.Int()
	q.Consumed = r.Int()
	q.Order = r.String()
	q.Nobs = r.Int()
	if t := r.Uint(); r.Err() == nil && t > uint64(index.RollOver) {
		r.Fail("tail %d is not a tail", t)
	} else {
		q.Tail = index.Tail(t)
	}
	if err := r.End(); err != nil {
		return err
	}
	*p = q
	return nil
}
