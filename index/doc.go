// Package index is the kit's index arithmetic: which observations a loop visits,
// in which order and in which batches, as pure functions of small integers. It
// holds no data and takes no container (it imports package container only for
// its typed panics and its Resize helper); subset, batchview, eachobs, stream and
// provider all take their rules from here, so that a batch, a tail policy, a
// partition or a permutation means the same thing in every package.
//
// # Batches and the tail
//
// A [Steps] is the schedule of a loop: it cuts the n positions of every epoch
// into batches of a size, for one part (a loop) or for several (synchronous
// data-parallel training, below). When the size does not divide n, the last
// batch is short, and what happens to it is a [Tail]:
//
//   - [Keep]: a shorter last batch (MLUtils partial=true, PyTorch drop_last=False).
//   - [Drop]: no short batch; the tail is not visited this epoch (drop_last=True,
//     MXNet 'discard').
//   - [Pad]: a full-size last batch whose missing slots repeat the first positions
//     of the epoch (MXNet 'pad'); the schedule says how many of its positions
//     are real, MXNet's count_samples.
//   - [RollOver]: full-size batches only; the tail of one epoch leads the first
//     batch of the next (MXNet 'roll_over').
//
// With n=10 and size 3: Keep gives [0,3) [3,6) [6,9) [9,10); Drop gives the first
// three; Pad gives four batches of 3, the last holding 9, 0, 1 with 1 real
// position; RollOver gives the first three and starts epoch 1 with 9, 0, 1.
//
// Roll-over needs to know what the previous epoch left over, which would make a
// loop stateful. Instead the epochs are one stream of positions cut into batches:
// epoch e holds the batches whose last position belongs to epoch e. Where each
// batch lies is then a function of the epoch number alone ([Steps.Span]), so a
// loop resumes at any epoch, or anywhere in one ([Steps.Resume]), without
// replaying the ones before it.
//
// # Partitions
//
// With several parts, each step of a [Steps] takes the next Parts*Size
// positions of the epoch's order and deals them out, contiguous or strided, so
// that after any number of steps the parts together have consumed a prefix of
// the epoch: a job resumes with another number of parts or batch size from one
// number per epoch. A [Part] is one of several disjoint shares of n positions
// on its own: contiguous blocks or strided (PyTorch's DistributedSampler), and
// a [Tail] for the remainder when the parts do not divide n: Keep spreads it
// (parts differ by at most one), Drop trims every part to n/parts, Pad repeats
// positions from the start so that every part has ceil(n/parts), as
// DistributedSampler does. [Chunk] is the contiguous block rule on its own.
//
// # Orders
//
// An order maps the positions of an epoch to the observations they visit, a
// pure function of small integers, so that a loop holds no array of n indices
// and resumes anywhere at once:
//
//   - [Cipher]: a uniform-looking permutation of n positions of a seed and an
//     epoch, computed position by position in O(1) memory, both ways.
//   - [Blocks]: a two-level shuffle for data read from disk: blocks of
//     consecutive positions in a random order, the positions of each window of
//     blocks shuffled among themselves, so that a reader caching a window of
//     blocks reads each once per epoch. The blocks are of one size
//     ([NewBlocks]) or of any sizes, given by their starts ([NewBlocksAt]:
//     Parquet row groups, Arrow record batches, shards), one algorithm.
//   - [PermInto] writes a uniform random permutation drawn from a *rand.Rand
//     into a caller's slice (Fisher-Yates with rng.IntN, so the same rng state
//     gives the same permutation on every platform), the array order of code
//     that shuffles with rand.Perm.
//
// [Upcoming] walks an order's positions (one part's, of a strided partition)
// and yields the blocks in the order they are first reached: the list a
// read-ahead follows (shard.Set.Prefetch, objstore's Cache.ReadAheadSet).
//
// The loops of package eachobs take their order from here (eachobs.Shuffle,
// ShufflePerm, ShuffleBlocks, ShuffleBlocksOf), and [Cipher.Batches] gives the
// index lists of one shuffled epoch to a stream (Fuel's ShuffledScheme), the
// same on every pass, so that a stream over them resumes.
//
// # Errors
//
// Arguments are checked at the call site: a negative count, a batch size below
// 1, an epoch outside the schedule, starts of blocks that decrease or a nil
// *rand.Rand panic with a [*container.ArgError] or [*container.IndexError]
// naming the value and the bound.
// [Part.Validate] returns an error wrapping [ErrPart] for a part that does not
// describe a share, and [Steps.Resume] one wrapping [ErrSteps] for a start that
// is not a position of the schedule, so that a configuration or a checkpoint
// read from a file can be reported rather than panicked on.
package index
