// Package eachobs runs the loops of training: over the observations or the
// batches of any container, with one buffer reused from batch to batch, a fresh
// shuffle per epoch, resumable positions, and background prefetching that never
// changes the order.
//
//	for b := range eachobs.Batches(data, 128, eachobs.Shuffle(seed)) {
//		step(b.Data) // b.Data is valid until the next step
//	}
//
// Every loop is a range-over-func iterator (iter.Seq or iter.Seq2). Arguments are
// checked when the loop is built, so a bad batch size panics at the call site, not
// in the middle of an epoch. Options are plain values ([Shuffle], [Tail],
// [Owned], [Prefetch], [Workers], [Partition], [Measure]) and call sites need no type
// arguments. Each option means one thing in every loop and in package provider,
// which takes the same options.
//
// # The loops
//
//   - [Loader]: the multi-epoch training loop. With [Shuffle](seed), every epoch
//     can be produced on its own: [Loader.Epoch] runs one, [Loader.Iter] gives a
//     pull iterator ([Iter], a container.Iterator) over all epochs, whose state
//     (a [Position]) saves and restores where it stands.
//   - [Batches]: the thin form of a Loader: each range statement runs the next
//     epoch.
//   - [Obs]: one epoch over the observations per range, each with its container
//     index.
//   - [RandomObs], [RandomBatches]: streams drawn with replacement, counted or
//     endless ([Forever]); [BalancedObs]: every class equally likely.
//
// # One buffer, no allocation per batch
//
// A batch loop gathers each batch with the container's GetObsInto into the same
// buffer, so after the first batch it allocates nothing: a loop over an array, a
// tuple of an array and labels, or a subset of either is pinned at zero
// allocations per batch, with and without prefetching. The price is plain: a
// yielded [Batch] (its Data and its Indices) is valid until the loop body returns,
// and the next step overwrites it. Copy what must outlive the step, or build the
// loop with [Owned], which gives every batch newly allocated memory.
//
// # Last batches and padding
//
// [Tail] takes an index.Tail, the kit's one vocabulary of the last batch: Keep
// (the default), Drop, Pad or RollOver, with the rules of index.Steps (of one
// part, or of several with [Partition]). A padded batch is full-size, its missing slots
// repeating the epoch's first observations, and says how much of it is real:
// [Batch].Real is MXNet's count_samples, [Batch.Pad] its getpad(), and
// [Batch].Indices names the container index of every slot. With RollOver the
// tail of one epoch leads the first batch of the next; a [Loader] computes it
// from the previous epoch's order, so nothing is stored between epochs and the
// container stays stateless. (Padding with constants is package provider's
// PadWith.)
//
// # Epochs, seeds and resuming
//
// A [Loader] built with NewLoader(data, size, Shuffle(seed)) visits epoch e in the
// order [Shuffle] defines, computed position by position, so a loop holds no
// array of n indices and reaches any position of any epoch at once; without a
// shuffle option every epoch is in data order. The orders are package index's:
//
//   - [Shuffle]: a cipher permutation (index.Cipher), O(1) memory;
//   - [ShufflePerm]: an array permutation, rand.Perm's;
//   - [ShuffleBlocks]: the two-level order of data read in blocks
//     (index.Blocks) over the container's own blocks (container.Blocked: the
//     row groups of a Parquet file, the record batches of an Arrow one, the
//     shards of a sharded set), so that a container caching a window of
//     decoded blocks decodes each once per epoch; [ShuffleBlocksOf] cuts
//     blocks of a size, for a memory-mapped array larger than memory;
//   - [ShuffleWithin]: a mix's order, its proportions kept in every batch.
//
// Equal seeds give equal sequences on every machine and for every prefetch and
// worker setting. The epoch number itself is bounded only by int arithmetic
// (index.Steps.MaxEpoch, about math.MaxInt/n).
//
// Each batch carries its [Position]: the epoch and the observations of the
// epoch's order consumed before it, the state of the loader's [Iter]. Save it
// after consuming a batch ([Iter.MarshalBinary], or b.Next() of a range form),
// and an iterator restored with [Iter.UnmarshalBinary] continues with exactly
// the next batch, mid-epoch, at once, without replaying the epoch's earlier
// batches, also with another batch size, number of workers or number of
// parts: the observations not yet consumed are dealt out anew, each once. A
// position of another seed, order (another order option, or other blocks),
// container size or tail would lose or repeat observations; UnmarshalBinary
// refuses it with an error wrapping container.ErrState, naming the option.
// Batches that were gathered ahead ([Prefetch], [Workers]) but not yet yielded
// when a job stopped were not consumed: the position saved after the last
// batch the loop body finished gathers them again.
//
// # Distributed training
//
// [Partition] takes an index.Part (part Index of Parts, consecutive or strided)
// and makes every step of a loop take the next Parts*size observations of the
// epoch's order, a batch of size for each part. P processes that build a
// [Loader] with one seed and their own part see disjoint shares of one global
// order per epoch, PyTorch's DistributedSampler with set_epoch, and after any
// number of steps they have together consumed a prefix of it: one position,
// the same for every part, resumes the job on any number of processes. The
// loop's [Tail] decides the last step of an epoch (index.Steps has the rules).
//
// # Random transforms
//
// A container whose observations are random (container.Random: an augmentation,
// transform.MapRand, an image container that crops at random) is gathered with
// the randomness of the loop's seed (the one given to [Shuffle], or 0) and the
// batch's epoch: observation i draws from a generator seeded from (seed, epoch,
// i) alone, so it gets the same numbers whatever [Workers] and [Prefetch] say,
// whatever the order of the epoch, and after a resume (PyTorch
// seeds each worker instead, and augmentations change with num_workers). The
// randomness reaches the container through any of the kit's wrappers (views,
// tuples, maps, conversions). Each slot of a loop owns one generator, reseeded
// per observation, so random gathering allocates nothing per batch. [Obs] draws
// the same way; [RandomBatches] uses a seed drawn from its rng and the pass
// number. An observation that appears twice in one epoch (a padded slot, a
// repeated index of a view) draws the same numbers twice; with the index.RollOver
// tail, the observations of the previous epoch that lead a batch draw with the
// batch's epoch.
//
// # Prefetching and parallel gathering
//
// [Prefetch](k) prepares the next k batches in a background goroutine while the
// loop body works, in a ring of k+1 buffers (still no allocation per batch);
// [Workers](w) lets w goroutines gather batches at once. Either way the batches
// arrive in the loop's order: indices are computed by one goroutine in order and
// each batch is yielded only when all before it have been, so the sequence is the
// same as a serial loop's (MLUtils' parallel DataLoader does not keep the order;
// this one does). Breaking out of the loop stops every goroutine before the loop
// returns. A panic in gathering reaches the ranging goroutine as a
// [*container.PanicError], after every earlier batch was yielded, whatever the
// number of workers (a serial loop wraps it the same way); a panic in the loop
// body is not wrapped.
//
// The goroutines are those of the kit's one pipeline (internal/pipeline), which
// also runs stream.Prefetch and stream.ParallelMap.
//
// Prefetching pays when the loop body does real work (a training step) and the
// machine has a core to spare: the gather of batch k+1 overlaps the work on batch
// k. Workers pay when gathering is slow (a container that decodes or computes its
// observations); for an in-memory array one goroutine already gathers at memory
// speed. With Prefetch and one worker, the loop body and the gathering goroutine
// wait for each other by polling for up to half a millisecond (yielding to other
// goroutines) before they park: Go runs a goroutine woken by a channel on its
// waker's core, so blocking waits would make the two take turns on one core
// instead of overlapping. With a 10 ms loop body this costs at most 5% of a core.
//
// # Measuring, and starting early
//
// [Measure] makes a loop add up what its passes spent into a [Stats]: the time
// the loop body waited for batches, the time spent gathering them, the bytes
// gathered and the time to the first batch, so a job can see whether its data
// side keeps up and whether more prefetching or workers would help.
// [Iter.Warm] starts an iterator's pipeline at once: the first batches are
// gathered while the program builds its model, and the first Next finds them
// ready.
//
// # Concurrency
//
// Containers are stateless and every loop owns its state and buffers, so loops
// over one container may nest and run in several goroutines at once (MXNet's data
// providers forbid this). A [Loader] is immutable. An iterator from [Batches] or
// [Obs] keeps only its epoch counter, under a lock.
//
// # The container
//
// The loops over batches take a container.Batched, so that a loop over an array
// gathers with its kernel and a loop over a tuple yields a tuple of typed
// batches; a type with only Nobs and GetObs goes in through container.AsBatched
// (the package documentation of container shows the compiler's message without
// it). [Obs] and [RandomObs] take any container.
//
// # Coming from other libraries
//
// The guide's docs/from-pytorch.md and docs/from-mlutils.md (in the repository)
// map PyTorch's and MLUtils' loops to these.
package eachobs
