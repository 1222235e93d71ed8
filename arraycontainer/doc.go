// Package arraycontainer provides dense N-d numeric arrays that are data
// containers: an [Array] is bound to one observation axis, observation i is the
// sub-array at index i of that axis, and batches of observations are gathered
// into reused memory without allocating, by block copies wherever the layout
// allows.
//
// # Layout
//
// An Array is data + shape + strides + offset, as in NumPy: element
// (i0, i1, ..., ik) lives at
//
//	data[offset + i0*strides[0] + i1*strides[1] + ... + ik*strides[k]]
//
// with strides counted in elements. [New] makes the row-major (C order) layout Go
// code and NumPy use by default: the last axis varies fastest. [NewStrided] takes
// any strides — Fortran order, padded rows, reversed axes (negative strides),
// broadcast axes (stride 0) — and checks that every element lies inside data, so
// that files, memory maps and other libraries' buffers are used without copying.
// Arrays have up to [MaxRank] axes. Elements are any integer or floating-point type
// ([Number]).
//
// # Memory
//
// The arrays the kit allocates ([Zeros], [Array.Clone], [Array.ObsFirst], and the
// files read into memory by the npy and idx packages) are allocated as NumPy
// allocates: from 4 MiB up, aligned to 2 MiB and advised to Linux for transparent
// huge pages, so that the random reads of shuffled batches do not miss the TLB on
// every observation. On the benchmark machine a shuffled gather of 60000x784
// float32 ran at 8.1-8.3 GB/s from such memory and 7.2-7.5 GB/s from a plain
// make. [New] uses the caller's slice as it is: to get the kit's memory for data
// you fill yourself, make the array with [Zeros] and fill [Array.Data].
//
// # The observation axis
//
// The observation axis is named with package obsdim when the array is made:
// [obsdim.First] (the default, each observation is one contiguous block in a
// row-major array), [obsdim.Last] (Julia's and MLDataUtils' default, each
// observation is a strided column), or [obsdim.Constant](k). [Array.Nobs] is the
// length of that axis, [Array.GetObs] copies one observation out (rank one less),
// and [Array.GetObsInto] gathers any list of indices into a batch that keeps the
// array's rank and observation axis. [Array.WithDim] views the same data with
// another observation axis.
//
// A rank-0 array holds a single value, read with [Array.Item]. It is what GetObs of
// a rank-1 array returns and what a 0-d .npy file holds. It has no observation
// axis: Nobs, GetObs, GetObsInto and ObsRange panic on it, because treating a scalar
// as an empty container would silently lose its value. A rank-1 array of labels
// whose observations should be plain values rather than rank-0 arrays becomes a
// [container.Slice] with [Array.Scalars], without copying when it is contiguous.
//
// # Views and copies
//
// Views share memory with the array they come from and cost no copy; writes
// through either are seen by both:
//
//   - [Array.ObsRange]: a range of observations; [Array.ObsRangeInto] writes the same
//     view into an existing header, for loops that must not allocate;
//   - [Array.Range]: a range of indices along any axis (a sub-array);
//   - [Array.Transpose]: permuted axes (the observation axis follows its axis);
//   - [Array.WithDim]: another observation axis;
//   - [Array.Data]: the backing slice itself (arraycontainer/dense hands it to
//     gonum); for an array over a mapped file, see below.
//
// Copies are newly allocated, contiguous and row-major:
//
//   - [Array.GetObs]: one observation;
//   - [Array.GetObsInto] with a nil or too small buffer: a batch;
//   - [Array.Clone]: the whole array, same shape and axis;
//   - [Array.ObsFirst]: the whole array with the observation axis moved to the
//     front, so that every observation is one contiguous block.
//
// Writes in place go through views too: [Array.Fill] sets every element,
// [Array.FillObs] a range of observations (the constant padding of a provider's
// last batch).
//
// # Arrays over memory-mapped files
//
// An array made by npy.Open or idx.Open views a file mapping, memory the garbage
// collector does not manage. Every view made from it (ObsRange, ObsRangeInto, Range,
// Transpose, WithDim) keeps the mapping mapped, so no view can outlive it: the
// file is unmapped only after the last such array is unreachable, whether or not
// Close was called. The copies above are Go memory and do not keep it, and neither does
// a slice: [Array.Scalars] copies a mapped array, and a slice from [Array.Data]
// is valid only while an array viewing the mapping is reachable.
//
// If the file shrinks while mapped, the pages it lost cannot be read, which Go
// reports as a fatal SIGBUS. The methods that read or write a mapped array's
// elements (GetObs, GetObsInto, Clone, ObsFirst, At, Set, Item, Equal, Fill,
// FillObs, String) run their reads under runtime/debug.SetPanicOnFault and panic
// instead, with an error wrapping npy.ErrFault or idx.ErrFault that names the
// file and the offset; the program can recover. Reads through Data are the
// caller's own and are not guarded.
//
// # Gathering batches
//
// GetObsInto reuses its destination: when the buffer passed in has room (every
// batch of a training loop after the first), it allocates nothing.
//
//	var batch *arraycontainer.Array[float32]
//	for _, idx := range batches {
//		batch = x.GetObsInto(batch, idx)
//		train(batch)
//	}
//
// The kernels (in the module's internal/gather package) first merge adjacent
// axes that are contiguous in memory, as NumPy's iterator does, then pick the
// cheapest walk for the layout:
//
//   - observations contiguous (obsdim.First on row-major data, or any layout whose
//     observation is one block): one copy per observation, and one copy per run of
//     consecutive indices, so a contiguous range of observations moves as a single
//     memory copy;
//   - one element per observation (obsdim.Last on row-major data): a tight loop
//     that picks one element per index from each row. Every element then comes
//     from a different cache line, so this is bound by memory latency and moves an
//     order of magnitude fewer bytes per second than the block copy;
//   - anything else (transposed views, padded or reversed axes): a strided walk
//     over each observation, with a copy for every row that is contiguous.
//
// On the 2-core benchmark machine, shuffled batches of 128 from 60000x784 float32
// moved at about 7 GB/s observation-first (0.75 of copy() of the same bytes in
// one block, the difference being one memory latency per randomly placed
// observation) and about 0.4 GB/s observation-last (twice a naive loop).
//
// # Relayout
//
// Data that arrives observation-last (from Julia, Fortran, a column-major file)
// is best converted once with [Array.ObsFirst]: one pass over the data, after which
// every batch is a block copy. On the benchmark machine the relayout of 60000x784
// float32 took about 170 ms, the price of about 180 observation-last batches of
// 128, while a whole epoch of them took about 435 ms: it pays for itself within
// the first epoch. docs/performance.md has the figures and how they were measured.
//
// # gonum
//
// The subpackage arraycontainer/dense, a module of its own so that the kit builds
// without gonum, turns a *mat.Dense into a 2-d float64 array and a batch back into
// a *mat.Dense, both without copying.
//
// # Cost of each operation
//
//	New, NewStrided                        O(rank), no copy
//	ObsRange, Range, Transpose, WithDim       O(rank), no copy (a small header)
//	ObsRangeInto                              O(rank), no allocation
//	Fill, FillObs                          O(elements written), no allocation
//	Nobs, Rank, Dim, Offset, Data, At, Set O(1) or O(rank), no allocation
//	Item                                   O(rank), no allocation
//	Scalars                                no copy when contiguous, else O(n)
//	Shape, Strides, ObsShape               O(rank), a copy of the small int slice
//	GetObs                                 O(observation), newly allocated
//	GetObsInto                             O(batch), no allocation when dst has room
//	Clone, ObsFirst                        O(array), newly allocated
//	Equal, String                          O(array)
//
// # Errors and panics
//
// Constructors return errors wrapping [ErrShape] (bad shape or data length),
// [ErrLayout] (an element outside data; a layout gonum cannot use) or
// [obsdim.ErrAxis] (no such observation axis), checkable with errors.Is.
// Programmer errors panic at the call site with a message naming the package, the
// value and the bound: an index out of range (a [*container.IndexError] for
// observation indices), a wrong number of indices, an invalid range or
// permutation, a rank-0 array used as a container, a batch buffer that shares
// memory with the array it gathers from.
package arraycontainer
