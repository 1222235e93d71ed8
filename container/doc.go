// Package container defines the data-container contract every part of obskit works on.
//
// # The contract
//
// A [Container] is a finite collection of observations addressed by index
// 0..Nobs()-1. Two methods are all a type must have:
//
//	Nobs() int       // number of observations
//	GetObs(i int) T  // observation i
//
// This is MLDataUtils.jl's nobs/getobs pair with 0-based indices. An index outside
// [0, Nobs()) panics, as a slice index does, with an [*IndexError] that names the index
// and the count. [CheckIndex] does that check for containers written outside the kit.
//
// A [Batched] container can also gather many observations at once into a batch of
// type B, reusing the caller's memory:
//
//	buf = c.GetObsInto(buf, idx)
//
// GetObsInto writes the observations at idx (any order, duplicates allowed) into dst
// when dst can hold them, allocates a new batch otherwise (always for a zero dst), and
// returns the batch. It is getobs(data, idxs) and getobs!(buf, data, idxs) in one
// method, with the append-like calling convention of [strconv.AppendInt]. The batch
// type is the container's own: an array gathers into an array with one more axis, a
// tuple into a tuple of batches, a slice into a slice.
//
// # The one adapter
//
// Every container in the kit is Batched, and the kit's subsets, batch views, loops
// and tuples take a Batched container, so that a subset of an array still gathers
// with the array's kernel and a loop over a tuple yields a tuple of typed batches.
// A type written with only Nobs and GetObs becomes one with [AsBatched], whose
// batches are []T:
//
//	views, err := subset.Split(container.AsBatched(files), rng, 0.8)
//
// Go's type system forbids doing this implicitly: a generic function cannot accept
// a Container[T] and, only when the argument happens to have GetObsInto, keep its
// batch type B, because B must be known when the call is compiled. Without the
// adapter the compiler reports, for a variable fs of a type files whose
// observations are strings and which has only the two methods:
//
//	in call to subset.Split, type files of fs does not match inferred type
//	container.Batched[string, B] for container.Batched[T, B]
//
// [Slice] and [Func] are Batched already, so a []T or a function of the index needs
// no adapter.
//
// # Ready-made containers
//
//   - [Slice]: a []T is a container; [FromSlice] converts one without copying.
//   - [Func]: a count and a function of the index (a map-style dataset); see [FromFunc].
//   - The arraycontainer package: dense N-d numeric arrays with fast gather kernels.
//   - The tuples package: containers linked by one index, such as features and labels.
//
// # Optional abilities only change speed
//
// What a container means is typed: its observation type T and batch type B, and for
// labeled data the label type of its observations (tuples.Pair). Optional abilities
// are found by type assertion, the way [io.Copy] finds [io.WriterTo], and change only
// how fast a result comes, never what it is. [IndexView] is one: a view whose
// observations are those of a source at mapped indices, which loops, label readers
// and conversions use to go straight to the source.
//
// [Encoded] is another: a container of byte strings stored somewhere (image
// files, RecordIO records, binary columns) reads observation i into a buffer
// the caller reuses, returning an error where GetObs panics, and says where
// observation i is stored. [AppendObs] is the one call a consumer makes: it
// uses the ability when the container has it and GetObs otherwise, as io.Copy
// falls back to Read and Write. Every wrapper that keeps the values keeps the
// ability ([Encoded] lists them), so an image decoder reads a split part of an
// image folder into its reused buffer without knowing any container type.
//
// [Blocked] is the one ability a loop's order reads: a container stored in
// blocks read or decoded together (Parquet row groups, Arrow record batches,
// shards) gives their starts, and eachobs.ShuffleBlocks shuffles the blocks and
// the observations within windows of them, so that each block is decoded once
// per epoch. Wrappers that keep observations in place (maps, conversions,
// tuples, joins, views in order) keep the blocks; shuffled views, which
// scatter them, have none.
//
// # Random observations
//
// [Random] is the one ability that adds an input: a container whose observations
// are random (an augmentation, a random map, noise) draws observation i from the
// generator of i that an [ObsRand] gives, a *rand.Rand seeded from a pass's seed and
// epoch and from i alone. The loops of package eachobs pass the randomness of
// (the loop's seed, the epoch) to every gather, each worker with its own generator
// reseeded per observation (no allocation), so an observation draws the same numbers
// whatever the number of workers, the order of the epoch, the batch it falls in or
// where a resumed loop starts. Every wrapper of the kit passes the randomness on to
// its sources ([GetObsRand] and [GetObsRandInto] are the helpers a wrapper calls);
// read with GetObs and GetObsInto, a random container draws as in the zero ObsRand
// (seed 0, epoch 0), the same every time.
//
// # Generic helpers
//
// [GetBatch] gathers a batch into fresh memory, [Collect] materializes every
// observation, [Resize] reuses or allocates a slice for GetObsInto implementations.
// [AppendObs] and [Where] read the bytes and the places of an [Encoded]
// container's observations, with a fallback for any container of []byte.
// [BlockStarts] reads a container's blocks, nil when it has none.
//
// # Panics
//
// Programmer errors panic at the call site with typed values that are errors, so a
// recovered panic can be inspected with errors.As: an index out of range with an
// [*IndexError], any other bad argument (a batch size below 1, a nil *rand.Rand)
// with an [*ArgError]. Data errors are returned, never panicked. An empty
// container is data too: a function that must produce observations returns an
// error wrapping [ErrEmpty] when it finds none, and a loop over an empty container
// yields nothing. A panic in the
// work of a loop (gathering, decoding, a map function), in a background goroutine
// or not, is raised in the goroutine that ranges over the loop as a
// [*PanicError], whatever the number of workers, which unwraps to the original
// value.
//
// # Ownership
//
// GetObs returns an observation the caller owns: containers in this kit copy what
// they hand out unless their documentation says the result is a view. A batch from
// GetObsInto is owned by the caller too; it aliases dst when dst was reused and
// nothing else. Containers are stateless: any number of goroutines may read one
// container at once, each with its own buffers.
package container
