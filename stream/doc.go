// Package stream is obskit for data that only streams: a file read line by
// line, a generator, a socket, or a container read in an order decided on the
// fly. It brings PaddlePaddle's composable readers and Fuel's data streams to
// Go, with checkpoints: every stage saves where it stands in a small value and
// resumes there exactly, after a restart, a preemption or a crash, yielding the
// values the uninterrupted stream would have yielded. A shuffle buffer, the
// rest of a batch, a mix's counters, a packer's open rows and the values in
// flight in parallel stages are part of the saved state, so nothing is lost or
// repeated on resume (the shuffle buffers of Hugging Face datasets and
// WebDataset are lost on resume: datasets #7901, webdataset #234).
//
//	s := stream.Batches(stream.ShuffleBuffer(stream.Lines(open, 1<<20), 10000, seed), 32, index.Drop)
//	it := s.Iter()
//	defer it.Close()
//	if saved != nil {
//		if err := it.UnmarshalBinary(saved); err != nil { ... } // the checkpoint of an earlier run
//	}
//	for batch, err := range it.All() {
//		if err != nil { ... }
//		train(batch)
//		if step%1000 == 0 {
//			saved, err = it.MarshalBinary() // a few bytes, plus the values the stages hold
//		}
//	}
//
// # Streams and iterators
//
// A [Stream] is a pipeline of stages, built by calling this package's functions
// on one another; it is immutable and describes passes, which [Stream.Iter]
// starts. An [Iter] is a pass: a pull iterator ([Iter.Next], [Iter.Err]) that
// saves its state between two values ([Iter.MarshalBinary]) and restores a saved
// one ([Iter.UnmarshalBinary]): the kit's one iterator protocol,
// container.Iterator, which the loops of package eachobs follow too. The range
// forms are thin wrappers: [Iter.All] ranges over a pass from where it stands,
// and [Stream.All] over a new pass per range statement.
//
// Why a pass, and not a function: a range-over-func sequence keeps the state of
// a pass in its local variables, which nothing outside it can read. Here every
// stage is a small state machine pulled value by value; between two values every
// stage stands still, and its state is that of the values it has yielded.
//
// # Stages
//
// Sources: [FromSlice], [Seek] (a source that can start anywhere), [Replay]
// (any sequence that yields the same values on every range), [Lines] (a text,
// by seeking), [FromIter] (any container.Iterator, such as an eachobs loader's),
// [Examples] and [Gather] (a container read at the indices of a scheme), and
// [From] (a plain iter.Seq, which cannot be saved). Values: [Map], [MapErr] (a
// map that can fail), [Filter], [Take], [Chain], [HashPart] (a hash split).
// Several streams in step: [Zip] (two of any types into a tuples.Pair) and
// [ZipN] (any number of one type), with [Strict] alignment (an error wrapping
// [ErrNotAligned] when lengths differ) or [Truncate]; [Mix] (streams mixed by
// weights, the stream form of package mix). Order: [ShuffleBuffer] (tf.data's
// sliding buffer), [BlockShuffle] (PaddlePaddle's shuffle, block by block),
// [SortWindow], each from a seed, epoch e's order from (seed, e). Batches:
// [Batches] into slices of a size with the last batch kept or dropped
// (index.Keep, index.Drop: the kit's one vocabulary of the last batch; a stream
// of unknown length cannot pad from its start or roll over), [BatchSizes] for
// sizes from a scheme, [Bucket] by length, [Unbatch] back to values, [Pack]
// (sequence packing), [Mask] (padding with a mask). Epochs: [Repeat]. Memory:
// [Cache] reads once and replays. Goroutines: [Prefetch], [ParallelMap].
//
// # The saved state
//
// [Iter.MarshalBinary] returns a versioned value with a checksum: the kind, the
// settings and the state of each stage, in the order of a walk from the
// consumer to the sources. [Iter.UnmarshalBinary] checks the checksum, then the
// kinds and settings against the stream it restores into, and returns an error
// wrapping container.ErrState that names the stage and the difference (a buffer
// size of 10 in the state and 20 in the stream), rather than resuming into other
// data. Its size: a few bytes per stage, plus the values some stages hold,
// encoded with encoding/gob (so they must be values gob encodes: exported
// fields, no functions or channels):
//
//	FromSlice, Seek, Replay, Lines,      the position: a few bytes
//	Examples, Gather
//	FromIter                             the iterator's own state
//	Map, MapErr, Filter, Batches, Zip,   nothing of their own (a batch is made
//	Mask, HashPart                       within one step), or a count
//	Take, Repeat, Chain, Mix, BatchSizes counts: a few bytes (per source for Mix)
//	Unbatch                              the rest of the current batch
//	ShuffleBuffer, BlockShuffle,         the buffer (up to its size) and the
//	SortWindow, Bucket                   generator
//	Pack                                 the sequences of the rows not yet yielded
//	Cache                                a position; the cached values are not saved
//	Prefetch, ParallelMap                a snapshot of the source's state
//
// Sources resume in O(1) ([FromSlice], [Seek], [Lines] by seeking) or by
// reading again what came before ([Replay], [Examples], [Gather], [Lines] of a
// text that cannot seek). A pipeline with a [From] source cannot be saved:
// MarshalBinary returns an error wrapping container.ErrState that names it,
// never a state that would silently restart it.
//
// # Goroutines
//
// [Prefetch] reads ahead on a goroutine; [ParallelMap] applies a function on w
// goroutines and keeps the input order unless told [Unordered]. Both start
// their goroutines at a pass's first value and have stopped them when the pass
// ends, fails or is closed, and when the consumer breaks out of a range over
// [Iter.All]. A panic in one of their goroutines is raised again in the
// consumer as a [*container.PanicError], naming the step. They are the only
// stages that start goroutines, and they do it through the kit's one pipeline
// (internal/pipeline), which also runs the eachobs loops. Their saved state is
// the consumer's: restoring computes again the values that were in flight, in
// order, and may run with another number of workers ([ParallelMap] has the
// cost).
//
// # Errors
//
// A stream that fails ends with its error: [Iter.Next] returns false and
// [Iter.Err] the error; the range forms yield the zero value with the error as
// their last element. Every stage forwards an error as soon as it reaches it,
// after the values that came before it (stages that buffer, such as the
// shuffles and [Batches], drop what they hold), and stops reading its source.
// So an error from a source always reaches the consumer, in place, through any
// chain of stages and goroutines. Programmer errors (a nil function, a buffer
// size below 1) panic when the stage is built, with a [*container.ArgError]
// naming the function and the value.
//
// # Data streams over containers
//
// Fuel separates a stateless dataset from a stateful stream. Here the dataset
// is any obskit container, the state of a pass lives in the iterator, and an
// iteration scheme of package index says which observations to read:
//
//	s := stream.Gather(x, index.NewCipher(x.Nobs(), seed, 0).Batches(128, index.Keep))
//
// [Gather] gathers each index list through the container's GetObsInto into a
// batch the consumer owns; [Examples] reads single observations for an example
// scheme. A loop that reuses one buffer per batch is package eachobs, whose
// loaders a stream reads with [FromIter].
//
// # Stream wrappers
//
// Fuel's wrappers are stages too: Mapping is [Map], Filter is [Filter], Batch
// is [Batches], Unpack is [Unbatch], Merge is [Zip] or [ZipN]. Besides them:
// [SortWindow] sorts within a window of values (by sequence length, say), so
// that the batches made next need little padding; [MaskBatch] and [Mask] pad
// variable-length sequences to the longest of their batch with a value and add
// a mask ([Masked]); [Bucket] batches by length buckets with a batch size per
// bucket, tf.data's bucket_by_sequence_length. Fuel's ScaleAndShift and Cast
// are package convert's ScaleInto and CastInto, applied with [Map] or [MapErr].
//
// # Ownership
//
// Values pass through stages unchanged. [Batches], [BatchSizes], [ZipN],
// [Bucket], [Mask] and [Gather] hand out newly allocated values the consumer
// owns; none modifies the values it reads ([Pack] reuses its batch: see
// [Packed]). Stages that keep values past the step that yielded them (the
// shuffles, [SortWindow], [Batches], [BatchSizes], [Bucket], [Cache],
// [Prefetch], [ParallelMap]) need a source whose values stay valid, which every
// source of this package yields ([FromIter] of a loader that reuses its buffer
// does not, unless built with eachobs.Owned).
//
// # Concurrency
//
// A Stream may start passes on several goroutines at once when its sources and
// functions allow it: each pass has its own buffers, generators and goroutines.
// An Iter belongs to one goroutine.
//
// # Coming from PaddlePaddle, Fuel, tf.data or Grain
//
// The guide's docs/from-paddle-fuel.md (in the repository) maps their readers,
// schemes and wrappers to these. Grain's DatasetIterator (next, get_state,
// set_state) is [Iter] (Next, MarshalBinary, UnmarshalBinary), typed, with
// parallel stages included in the state.
package stream
