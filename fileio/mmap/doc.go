// Package mmap maps files into memory as the storage of arrays, ties the life
// of each mapping to the arrays that view it, and turns a fault in a mapping
// into an error that names the file and the offset. The kit's file-format
// packages (npy, idx, recordio, and the Arrow and Parquet readers of the
// columnar module) map their files with it; a format package kept in another
// module uses it the same way:
//
//	r, err := mmap.Map(f, size, "myformat", myformat.ErrFault)
//	...
//	a, err := arraycontainer.New(elems, shape, obsdim.First) // elems view r.Bytes()
//	...
//	mmap.Attach(a, r) // r lives while a or any view of it is reachable
//
// and brackets its own reads of the mapping with
//
//	defer r.Recover(r.Guard())
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
// unreachable. npy and idx Close only drop their own reference. [Region.Release]
// unmaps at once, for a reader that fails before any array views the region.
// [Live] counts the mappings not yet released, for tests.
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
// [*FaultError] naming the file and the offset, which wraps the package's
// sentinel (ErrFault, the same value in every format: fileio.ErrFault);
// [Region.RecoverError] returns it instead, from a function that returns an
// error. Reads a caller makes through Array.Data are not guarded.
//
// # Platforms
//
// On Unix the mapping is private and writable (copy-on-write): writes through an
// array change private copies of the touched pages and never the file.
// Elsewhere [Map] reads the file into Go memory ([Mapping] says which), and
// nothing faults.
package mmap
