// Package mmap maps files into memory as the storage of arrays, and ties the life
// of each mapping to the arrays that view it.
//
// # Lifetime
//
// Memory from mmap is not Go memory: the garbage collector neither sees pointers
// into it nor frees it, and a read of it after munmap is a fault or, once the
// address range is reused, a read of someone else's memory. So a mapping is
// unmapped only when nothing can read it any more: every array that views a
// [Region] holds a pointer to it (the one field arraycontainer.Array keeps for
// this, set through [Attach]), and a cleanup attached with runtime.AddCleanup
// unmaps the region once the Region, and so every array viewing it, is
// unreachable. npy and idx Close only drop their own reference. [Live] counts the
// mappings not yet released, for tests.
//
// A plain slice of the mapped memory does not hold the Region: arraycontainer
// copies where it would hand one out (Array.Scalars), and documents the one it
// cannot avoid (Array.Data).
//
// # Faults
//
// A mapped page whose part of the file is gone (the file was truncated after it
// was mapped, or its storage failed) raises SIGBUS on access, which Go turns into
// a fatal error. [Region.Guard] and [Region.Recover] bracket the kit's own reads
// and writes of a region: runtime/debug.SetPanicOnFault for the current
// goroutine, and a recovered fault inside the region becomes a panic with a
// [*FaultError] naming the file and the offset. Reads a caller makes through
// Array.Data are not guarded.
package mmap
