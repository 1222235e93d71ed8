// Package fileio is what the kit's file-format packages share, for those who
// write one: npy, idx, csvdata, recordio and imagecodec in this module, the
// Arrow and Parquet readers of the columnar module, and a format kept in any
// other module. A user reading files needs none of it; the format packages
// re-export what a caller tests for.
//
// # Errors
//
// Four sentinels mean the same thing in every format: [ErrType] (a typed reader
// asked for another element type than the file's), [ErrUnsupported] (a valid
// file the package does not read, or cannot read the way it was asked; it also
// wraps errors.ErrUnsupported), [ErrFault] (a memory-mapped file that faulted)
// and [ErrTooLarge] (a claim over the reader's limit). A format package
// re-exports those it returns under the same names (var ErrType = fileio.ErrType), as os
// re-exports io/fs's errors, so that npy.ErrType and parquet.ErrType are one
// value and one errors.Is covers every format. What names a format stays the
// package's own: its ErrFormat, "malformed .npy file".
//
// A [Format] pairs a package's name with its ErrFormat, and words its errors
// the kit's way: the package, the file, the sentinel, then what was wrong and
// where ("npy: x.npy: malformed .npy file: truncated: file has 80 bytes, header
// ... says 128"). A header reader returns a [*FormatError] ([Formatf]) or an
// early end, and [Format.HeaderError] turns either into the malformed-file
// error; [Format.SizeError] and [Format.DataError] say whether a file is
// truncated or has bytes to spare.
//
// # Elements
//
// [Elem] is the element constraint of the kit's arrays (every Go integer and
// floating-point type). [KindOf] gives an element type's storage class and size
// as a [Kind], which a format compares with the one its file declares;
// [TypeName] names the Go type in messages. [View] and [Bytes] see bytes as
// elements and elements as bytes without copying; [LittleEndian] and [Swap]
// handle byte order.
//
// # Sizes and reads from untrusted headers
//
// A header is never trusted with memory. [Extent] and [DataSize] compute the
// size of a shape's data with no overflow, and [ReadElems] reads the elements a
// header claims, allocating them at once only when the source is known to hold
// them ([Remaining]) and otherwise growing from 1 MiB as the data arrives: a
// header that claims terabytes costs at most 1 MiB before the short read is
// reported.
//
// # Mapped files
//
// [MapElems] and [MapArray] map a file's data and view it as elements or as an
// array, with the errors above; the mapping itself, its lifetime and its faults
// are package [github.com/obskit/obskit/fileio/mmap]'s.
package fileio
