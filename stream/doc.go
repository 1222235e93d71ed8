// Package stream is obskit for data that only streams: a file read line by line,
// a generator, a socket, or a container read in an order decided on the fly. It
// brings PaddlePaddle's composable readers and Fuel's data streams to Go's
// iterators.
//
// # Readers
//
// A [Reader] is an iter.Seq2[T, error]: a stream of single values, which the
// consumer ranges over.
//
//	for v, err := range r {
//		if err != nil {
//			return err // the last element: the stream has ended
//		}
//		use(v)
//	}
//
// Ranging starts a pass; a reader built from functions restarts at every range
// (PaddlePaddle's reader creator is [Defer]). [From] makes a reader of any
// iter.Seq[T], [FromSlice] of a slice, [Lines] of a text file; [Collect] reads one
// into a slice.
//
// # Decorators
//
// Decorators take readers and return readers, so they compose:
//
//	r := stream.Batches(stream.ShuffleBuffer(stream.ParallelMap(src, 4, decode), 1000, rng), 32, index.Drop)
//
// Values: [Map], [MapErr] (a map that can fail), [Filter], [Take], [Chain].
// Several streams in step: [Zip] (two of any types into a tuples.Pair) and [ZipN]
// (any number of one type), with [Strict] alignment (an error wrapping
// [ErrNotAligned] when lengths differ) or [Truncate]. Order: [BlockShuffle]
// (PaddlePaddle's shuffle, block by block) and [ShuffleBuffer] (tf.data's sliding
// buffer), both drawing from an explicit *rand.Rand. Batches: [Batches] into
// slices of a size with the last batch kept or dropped (index.Keep, index.Drop:
// the kit's one vocabulary of the last batch; a stream of unknown length cannot
// pad from its start or roll over), [BatchSizes] for sizes from a scheme,
// [Unbatch] back to values.
// Memory: [Cache] reads once and replays.
//
// The same decorators with checkpoints (a pass that saves its state, shuffle
// buffers included, and resumes exactly), mixing of streams by weights and
// sequence packing are in package stream/resumable, whose streams are read as
// readers of this package.
//
// # Goroutines
//
// [Prefetch] reads ahead on a goroutine; [ParallelMap] applies a function on w
// goroutines and keeps the input order unless told [Unordered]. Both start their
// goroutines when a pass starts and have stopped them when it returns, also when
// the consumer breaks out of its loop early or panics. A panic in one of their
// goroutines is raised again in the consumer as a [*container.PanicError], naming
// the step. They are the only decorators that start goroutines, and they do it
// through the kit's one pipeline (internal/pipeline), which also runs the eachobs
// loops; [Zip] and [ZipN] pull their readers with iter.Pull2, which they release
// before a pass returns.
//
// # Errors
//
// A reader that fails yields the zero value with its error as its last element.
// Every decorator forwards an error as soon as it reaches it, after the values
// that came before it (decorators that buffer, such as the shuffles and [Batches],
// drop what they hold), and stops reading its source. So an error from a source
// always reaches the consumer, in place, through any chain of decorators and
// goroutines, and it is always the last thing the consumer sees. Programmer
// errors (a nil reader, a buffer size below 1) panic when the decorator is built,
// with a [*container.ArgError] naming the function and the value.
//
// # Data streams over containers
//
// Fuel separates a stateless dataset from a stateful stream. Here the dataset is
// any obskit container, the state of a pass lives in the reader, and an
// iteration scheme of package index says which observations to read:
//
//	r := stream.Gather(x, index.ShuffledBatches(x.Nobs(), 128, index.Keep, rng))
//
// [Gather] gathers each index list through the container's GetObsInto into a
// batch the consumer owns; [Examples] reads single observations for an example
// scheme (index.Shuffled). The shuffled lists of an epoch without a
// permutation array are index.NewCipher(x.Nobs(), seed, epoch).Batches(128,
// index.Keep), the order of eachobs.Shuffle. Streams over one container may
// run at once, on any goroutines. For a stream that cannot be indexed,
// [BatchSizes] takes batch sizes from a size scheme (index.Sizes). A loop that
// reuses one buffer per batch is package eachobs.
//
// # Stream wrappers
//
// Fuel's wrappers are decorators too: Mapping is [Map], Filter is [Filter],
// Batch is [Batches], Unpack is [Unbatch], Merge is [Zip] or [ZipN]. Besides them:
//
//   - [SortWindow] sorts within a window of values (by sequence length, say), so
//     that the batches made next need little padding;
//   - [MaskBatch] and [Mask] pad variable-length sequences to the longest of their
//     batch with a value and add a mask ([Masked]); Fuel's "<name>_mask" source is
//     the Mask field beside Data;
//   - [Bucket] batches by length buckets with a batch size per bucket, tf.data's
//     bucket_by_sequence_length; compose with [Mask] to pad within the bucket;
//   - Fuel's ScaleAndShift and Cast are package convert's ScaleInto and CastInto,
//     applied with [Map] or [MapErr]; they never change a value silently.
//
// # Ownership
//
// Values pass through decorators unchanged. [Batches], [BatchSizes], [ZipN],
// [Bucket], [Mask] and [Gather] hand out newly allocated values the consumer owns;
// none modifies the values it reads. Decorators that keep values past the step
// that yielded them (the shuffles, [Batches], [BatchSizes], [Bucket],
// [SortWindow], [Cache], [Prefetch], [ParallelMap]) need a source whose values
// stay valid, which every reader of this package yields.
//
// # Concurrency
//
// A reader may be ranged over by several goroutines at once when its source and
// functions allow it: each pass has its own buffers and goroutines. The shuffles
// draw from one *rand.Rand in every pass, so give each goroutine its own.
//
// # Coming from PaddlePaddle, Fuel or tf.data
//
// The guide's docs/from-paddle-fuel.md (in the repository) maps their readers,
// schemes and wrappers to these.
package stream
