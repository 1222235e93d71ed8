// Package idx reads IDX files, the format of the MNIST handwritten digits
// (train-images-idx3-ubyte, train-labels-idx1-ubyte and their .gz downloads), as
// arrays: memory-mapped or read into memory.
//
// # The format
//
// An IDX file is a 4-byte magic number (two zero bytes, an element type code, the
// rank), the rank's dimensions as big-endian uint32, then the elements in
// row-major order, big-endian. MNIST images have magic 0x00000803 (uint8, rank 3:
// count x 28 x 28), labels 0x00000801 (uint8, rank 1). Every element type of the
// format is read, at any rank:
//
//	code  element   Go type
//	0x08  unsigned  uint8
//	0x09  signed    int8
//	0x0B  short     int16
//	0x0C  int       int32
//	0x0D  float     float32
//	0x0E  double    float64
//
// # Reading
//
// [Open] maps a file and reads only its header; observations are read from disk
// when first touched. IDX stores multi-byte numbers big-endian and a mapping cannot
// convert them in place, so on a little-endian machine Open maps one-byte element
// types (all of MNIST) and refuses the others with an error wrapping
// [ErrUnsupported] that points to [Load]. Load reads a file into memory and
// converts the byte order; it also decompresses gzip files, as MNIST is
// downloaded. [Read] does the same from any io.Reader. [Stat] and [ReadHeader]
// read only the header, to choose the element type at run time:
//
//	images, err := idx.Open[uint8]("train-images-idx3-ubyte", obsdim.First)
//	if err != nil { ... }
//	labels, err := idx.Load[uint8]("train-labels-idx1-ubyte.gz", obsdim.First)
//
// A mapped array is an ordinary array, with nothing to close: it and its views
// keep the mapping alive, and a file truncated while mapped makes the array's
// methods panic with an error wrapping [ErrFault] instead of crashing (see
// [Open]).
//
// The arrays are row-major with observations along the axis named with package
// obsdim: obsdim.First makes each image one observation. A rank-1 label array
// becomes a container of plain values with its Scalars method, ready to pair with
// the images in package tuples.
//
// # Memory and limits
//
// A header is never trusted with memory. A plain file's size is checked against
// its header before anything is allocated, and the array is allocated once. A
// plain stream is allocated once when it can tell its size (an io.Seeker such as
// a file or a bytes.Reader) and holds the data; otherwise its memory grows from 1
// MiB as the data arrives.
//
// Decompressed data cannot be measured before it is decompressed, so a gzip
// file's claim is checked twice before the array is allocated once, at the
// claimed size and never more: against what the compressed bytes can hold at
// deflate's highest ratio (1032:1; a 1 MB file claiming 8 GiB is refused as
// truncated), and against a limit, [DefaultLimit] (1 GiB) unless [Options.Limit]
// sets another: a claim over it returns an error wrapping [ErrTooLarge] naming the
// claim and the limit. [LoadWith] and [ReadWith] take the options:
//
//	x, err := idx.LoadWith[uint8]("emnist-byclass-train-images-idx3-ubyte.gz", obsdim.First,
//		idx.Options{Limit: 2 << 30})
//
// # Errors
//
// A file that is not valid IDX returns an error naming the file and the problem,
// wrapping [ErrFormat]: a magic number without its leading zeros, an unknown
// element type, rank 0, a shape too large for any file, data shorter or longer
// than the header says, a damaged gzip stream. A typed reader given the wrong
// element type returns an error wrapping [ErrType] naming both; gzip data over
// the limit, [ErrTooLarge]. No input makes a reader panic.
package idx
