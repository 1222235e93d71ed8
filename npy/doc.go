// Package npy reads and writes NumPy .npy files as arrays: memory-mapped, read
// into memory, or written for np.load.
//
// # Opening a file
//
// [Open] memory-maps a file: it reads the header, maps the file, and returns an
// array whose storage is the file itself. Opening costs the same for a kilobyte
// and for twenty gigabytes; the operating system reads pages when observations
// are first touched and keeps them in its page cache, so a data set larger than
// memory works, and once the pages are cached a batch loop runs as fast as over an
// array in memory:
//
//	x, err := npy.Open[float32]("train-x.npy", obsdim.First)
//	if err != nil { ... }
//	batch = x.GetObsInto(batch, idx)
//
// There is nothing to close, as with numpy.memmap: the mapping lives as long as
// the array or any view of it is reachable, and the garbage collector unmaps the
// file once none is. An opened array can be returned from a helper, zipped with
// its labels or kept only as a view. Batches and observations are copies and never
// hold the file. The file must not be truncated or rewritten while mapped: reading
// a page it lost makes the array's methods panic with an error wrapping
// [ErrFault] that names the file (the program would otherwise die of SIGBUS); see
// [Open].
//
// [Load] reads a file into memory, and [Read] reads one array from any
// io.Reader. All three return an [*arraycontainer.Array], the same Go type, so a
// mapped file and an array in memory mix in one tuple or provider: a
// container whose observations lie along the axis the caller names with package
// obsdim; the file itself has no observation axis.
//
// # Element types
//
// The readers are typed: Open[float32] opens a float32 file and refuses any other
// with an error wrapping [ErrType] that names both types. When the dtype is only
// known at run time, read the header first with [Stat] (or [ReadHeader]) and
// choose the type from [Header.Dtype]; [Dtype.GoType] names it.
//
//	dtype (descr)            Go type
//	<f4 <f8                  float32 float64
//	|i1 <i2 <i4 <i8          int8 int16 int32 int64
//	|u1 <u2 <u4 <u8          uint8 uint16 uint32 uint64
//	|b1 (bool)               uint8, 0 for False and 1 for True
//
// A Go int, uint or uintptr reads the integer dtype of its size (int64 on 64-bit
// machines). Other dtypes (float16, complex, strings, datetimes, Python objects,
// structured records) are refused with an error wrapping [ErrUnsupported] that
// names the dtype; their headers can still be read with Stat.
//
// # Layout and byte order
//
// Row-major (C order) files become row-major arrays; Fortran-ordered files keep
// their layout, expressed as strides, with no copy. Use Array.ObsFirst once to
// relayout such data for the fastest batches.
//
// Load and Read convert big-endian data to the machine's byte order. Open cannot:
// a mapping is the file's bytes, and converting them would read and copy the
// whole file, which is what Open exists to avoid. It refuses such files, and data
// not aligned for the element type, with an error wrapping [ErrUnsupported] that
// points to Load. Files written by NumPy on common machines, and by [Write], are
// little-endian with data aligned to 64 bytes, and map.
//
// # Formats and limits
//
// The readers accept format versions 1.0, 2.0 and 3.0 and 0-d arrays (rank-0
// arrays, read with Array.Item; they are not containers). Writing produces
// version 1.0 (2.0 for headers over 64 KiB), little-endian on little-endian
// machines, data aligned to 64 bytes, which every NumPy since 1.0 reads.
//
// # Errors
//
// Malformed files return an error that names the file and the problem, wrapping
// [ErrFormat]: a bad magic string or version, a header that does not parse (the
// dict is parsed, never evaluated), keys missing or unknown, a negative shape, a
// shape too large for any file (its data would take more than 2^63-1 bytes; the
// arithmetic is overflow-safe), a file shorter or longer than its header says. A
// valid file of a dtype the kit does not read is refused for its dtype
// ([ErrUnsupported]) before its size is checked; the size check knows NumPy's
// item sizes (4 bytes per character for '<U10', 8 for datetimes).
//
// A corrupt header cannot make a reader allocate what it claims: [Load] and
// [Open] check the header against the file size before allocating or mapping,
// and [Read] allocates at most 1 MiB before the stream shows it holds the data
// (it checks the size of a seekable stream first, and otherwise grows its memory
// with the data actually read). No input makes a reader panic.
package npy
