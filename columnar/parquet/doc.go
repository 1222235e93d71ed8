// Package parquet reads Parquet tables, one file or many (a directory, a glob,
// Hugging Face's shards train-00000-of-00012.parquet) as containers of the kit,
// decoding only the columns asked for, a row group at a time.
//
//	t, err := parquet.Open("data/train-*.parquet")
//	x, err := parquet.Numbers[float32](t, []string{"f0", "f1", "f2"}) // observations of shape [3]
//	y, err := parquet.Labels(t, "label")
//	data, err := tuples.Zip2(x, y)
//	parts, err := subset.StratifiedSplit(data, rng, 0.8)
//
// # Opening
//
// Open maps each file and reads its footer only: the row count (Nobs), the
// schema and the row groups, in O(files), whatever their size. The footers'
// counts are checked against each other and the chunks' positions against the
// file, so that a truncated file or a footer that lies is an error at Open,
// naming the file.
//
// # Random access by row
//
// A container finds the row group of a row from the row-group index and
// decodes that row group's selected columns into memory, keeping the last
// [Cache] row groups. Reading rows in a full shuffle then decodes a row group
// for nearly every row. The containers' blocks are the row groups
// ([File.RowGroupStarts]), so that a loop built with eachobs.ShuffleBlocks
// shuffles the row groups and the rows within windows of them, and a cache of
// a window decodes each row group once per epoch; the epoch still resumes and
// splits across processes. docs/performance.md has both epochs measured
// against a memory-mapped .npy file.
//
// # Decoding
//
// The package reads pages with parquet-go's lower-level API (its codecs:
// snappy, zstd, gzip, lz4, brotli; its encodings, dictionary encoding
// included) and rebuilds rows and lists from the repetition and definition
// levels itself. It never uses parquet-go's struct reader, which read the
// lists arrow-rs writes (whose element field is named "item") as zeros; every
// list layout, two- and three-level, whatever its inner names, reads the same.
//
// # Nulls
//
// A column holding nulls is an error wrapping [ErrNull] unless [Fill]
// (numbers) or [NullEmpty] (lists and strings) says what a null reads as;
// [Valid] gives the validity beside it. A null found while decoding a column
// whose footer counted none is the same error, raised in the gather. A list
// column's nulls are its null lists, as Arrow counts them: an empty list is
// a list, and a null value inside a list is the values' (Fill's) business.
// The footers count a list column's null lists, empty lists and null values
// together, so that [File.Nulls], [Lists] and [Numbers] read the column's
// levels once to tell them apart when the count is not zero.
//
// # Errors
//
// Decoding happens inside gathers, which return no error: a page that does
// not decode, or a row group that holds fewer rows than its footer claims,
// panics with an error wrapping [ErrFormat] that names the file, the row group
// and the column, and the kit's loops deliver it as a *container.PanicError.
//
// Every error of Open starts with the package's name and names the file, a
// missing one included ("parquet: stat x.parquet: no such file or
// directory"), and a file of another format is said to be one.
//
// parquet-go allocates what a file claims before it reads it: every length
// inside the footer, a page's uncompressed size and values, what a codec's
// data declares, the values of an RLE/bit-packed run. So the package checks
// each claim against the bytes that hold it, or against another claim, before
// parquet-go reads: Open walks the footer's Thrift lengths; before a column
// chunk's first page is decoded, every page header of the chunk is walked
// and checked (its sizes against the chunk and the codec's largest ratio, what
// the codec's data declares against the page, a dictionary's values against
// its bytes, the pages' values against the footer's count, which they must add
// up to, and the run headers against the page's values). A page that fails is
// the same error, naming the page.
package parquet
