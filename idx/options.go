package idx

import "github.com/obskit/obskit/fileio"

// DefaultLimit is the limit on the decompressed data of a gzip-compressed file
// that [Load] and [Read] apply, and [LoadWith] and [ReadWith] with a zero
// [Options.Limit]: 1 GiB, twice the largest IDX data set we know of (EMNIST
// ByClass, whose training images take 547 MB).
const DefaultLimit = 1 << 30

// Options tunes [LoadWith] and [ReadWith]. The zero Options is what [Load] and
// [Read] use.
type Options struct {
	// Limit is the largest data size, in bytes, accepted from a
	// gzip-compressed file or stream; 0 means [DefaultLimit].
	//
	// The size of decompressed data cannot be checked against anything before
	// it is decompressed, and the readers allocate the array once, at the size
	// the header claims, so that a real 4 GiB file costs 4 GiB and not the
	// sum of a growing buffer's copies. The limit bounds what a claim can make
	// them allocate: a header claiming more returns an error wrapping
	// [ErrTooLarge], before anything is allocated. A gzip file (or seekable
	// stream) is also refused as truncated, whatever the limit, when its
	// compressed size could not hold the claimed data even at deflate's
	// highest ratio (1032:1).
	//
	// Uncompressed data needs no limit: a plain file's size is checked against
	// its header, and a plain stream's memory grows only as its data arrives.
	Limit int64
}

// checkLimit checks the decompressed size h claims against the limit.
func (o Options) checkLimit(name string, h Header) error {
	limit := o.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	if size := h.DataSize(); size > limit {
		return format.Errorf(name, ErrTooLarge, "header %v claims %d bytes of data, over the limit of %d bytes (Options.Limit; raise it with LoadWith or ReadWith for a file you trust)", h, size, limit)
	}
	return nil
}

// maxRatio is the most deflate can compress: a 258-byte match coded in 2 bits is
// 1032:1 (zlib's "Maximum Compression Factor"); gzip's header and trailer only
// lower it.
const maxRatio = 1032

// checkInflate checks that compressed bytes of gzip (the rest of a file or a
// seekable stream, from its first byte; [fileio.Unknown] skips the check) could
// hold the header and data h describes.
func checkInflate(name string, h Header, compressed int64) error {
	if compressed == fileio.Unknown {
		return nil
	}
	need := h.DataOffset + h.DataSize() // no overflow: readHeader checked it
	if (need-1)/maxRatio+1 > compressed {
		return format.Errorf(name, ErrFormat, "truncated: header %v claims %d bytes of data, more than a %d-byte gzip stream can hold (deflate compresses at most %d:1)", h, h.DataSize(), compressed, maxRatio)
	}
	return nil
}
