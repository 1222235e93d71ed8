// Package columnar holds what the kit's readers of columnar files (package
// arrowipc for Arrow IPC files and streams, package parquet for Parquet tables)
// share: the containers their columns become, the batch of variable-length
// observations and the errors.
//
// It is the root of a nested module (github.com/obskit/obskit/columnar), as
// arraycontainer/dense is for gonum, so that the kit's own module builds
// without the Parquet and compression libraries; docs/design.md lists what the
// module adds to a build.
//
// # Columns as containers
//
// A column of a file is read into one of three containers, whatever the
// format:
//
//   - [Numbers]: fixed-width numbers (a scalar column, a fixed-size list, or
//     several scalar columns side by side as features), a container of
//     arraycontainer arrays whose batches are arrays, gathered with no
//     allocation into a reused buffer. An uncompressed Arrow file of one
//     record batch is one array view of the mapped file ([Numbers.Array]);
//   - [Lists]: variable-length lists of numbers (token ids, ragged features),
//     observations []E, batches [Ragged];
//   - [Strings]: text and bytes, dictionary-encoded or not, observations
//     string, batches [Ragged] of bytes; its [Binary] form has observations
//     []byte and is a container.Encoded, read into a caller's reused buffer
//     (a column of encoded images decodes with imagedata.NewImages).
//
// Each container reads its file's chunks (record batches, row groups) through
// a [Chunks]: the rows of each chunk and a function returning its data, views
// of a mapping or decoded on demand into a bounded cache. Gathers go chunk by
// chunk with a cursor, so consecutive indices in one chunk cost one comparison
// each; with labels from the format's Scalars they zip into a labeled
// container (tuples.Zip2) that subset.StratifiedSplit and eachobs take
// unchanged.
//
// # Nulls
//
// A null is never read as a silent zero. The format packages refuse a column
// holding nulls (an error wrapping [ErrNull]) unless the caller says what a
// null reads as: a fill value for numbers, empty for lists and strings, with
// the column's validity (Valid) beside it to tell them apart.
//
// # Chunks are blocks
//
// The containers' blocks (container.Blocked: [Numbers.BlockStarts]) are their
// chunks, and stay those of a tuple of them with labels or a split of it in
// data order. A loop built with eachobs.ShuffleBlocks(seed, window) reads the
// chunks in a random order and shuffles the rows of each window of chunks
// among themselves, so that a container caching a window of decoded chunks
// decodes each chunk once per epoch (a full shuffle decodes one for nearly
// every row), and the epoch resumes and splits across processes as any loop:
//
//	for b := range eachobs.NewLoader(data, 128, eachobs.ShuffleBlocks(seed, 4)).Epoch(e) { ... }
package columnar
