// Package batchview sees a container as a container of batches: observation i of a
// [View] is batch i of the source, MLUtils' BatchView.
//
//	v := batchview.New(data, 128, index.Drop)
//	for i := range v.Nobs() {
//		buf = v.GetObsInto(buf, []int{i}) // or use the eachobs loops, which reuse one buffer
//	}
//
// Batch i covers observations [i*size, min(n, (i+1)*size)). A batch size below 1
// panics at construction; a size larger than n gives one batch.
//
// # The last batch
//
// When n is not a multiple of the batch size, the last batch is short, and an
// [index.Tail] says what to do with it: keep it, drop it, pad it to full size with
// the first observations of the epoch (recording how many are real: [View.Real],
// MXNet's count_samples), or roll it over into the next epoch. The rules are
// [index.Steps]' (a schedule of one part), the same as in the eachobs loops, the
// streams and the providers.
//
// Roll-over needs to know what the previous epoch left over, which would make a
// container stateful. Instead the epochs are one stream of positions cut into
// batches, so [View.Epoch] returns the view of any epoch without replaying the ones
// before it, and a view stays an immutable value.
//
// # Views are containers
//
// A View is a [container.Batched] container of batches (its batch type is []B), so it
// can be subset, shuffled by batch (subset.Shuffle of a view keeps each batch
// together) or read by many goroutines at once. It does not copy the source: every
// batch is gathered through the source's own GetObsInto when it is requested, so a
// view of an array gathers with the array's kernel, and a view of a tuple gathers
// every member in one call. The source must be Batched; a type with only Nobs and
// GetObs goes in through container.AsBatched (see package container).
//
// # Coming from other libraries
//
// MLUtils' BatchView, MXNet's last_batch_handle and PyTorch's BatchSampler are
// mapped to these in the guide's docs/from-*.md pages (in the repository).
package batchview
