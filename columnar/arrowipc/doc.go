// Package arrowipc reads Arrow IPC data, the file format (.arrow, Feather v2)
// and the stream format (what Hugging Face datasets caches), memory-mapped, as
// containers of the kit.
//
//	f, err := arrowipc.Open("train.arrow")
//	x, err := arrowipc.Numbers[float32](f, "pixels") // fixed_size_list<float32>[784]: observations of shape [784]
//	y, err := arrowipc.Labels(f, "label")
//	data, err := tuples.Zip2(x, y)
//	for b := range eachobs.Batches(data, 128, eachobs.Shuffle(seed)) { ... }
//
// # Zero copy
//
// Open maps the file and reads its metadata (the schema, the headers of the
// record batches, the dictionaries) with the package's own reader of Arrow's
// flatbuffers: no column data is read. The columns of an uncompressed file are
// views of the mapping: a fixed-width column (int and uint of every width,
// float32, float64, timestamps, dates, times and durations as their integers,
// fixed-size lists of those) of one record batch is one
// [*arraycontainer.Array] over the file, whose gathers are the array's kernel;
// a file of several batches is one container over the views of each. Lists and
// strings (list<int32>, list<float32>, utf8, binary) view their offsets and
// values, and a batch of them copies bytes into a reused [columnar.Ragged] with
// no allocation per observation. The mapping stays mapped while any container
// read from it is reachable, as for npy.Open, and a read of a page lost to a
// truncation panics with an error wrapping [ErrFault] instead of crashing.
//
// # Compression
//
// Record batches whose buffers are compressed (LZ4 frame or ZSTD, Arrow's two
// codecs) are decompressed once, when a container first reads a row of the
// batch, into a cache shared by the file's containers that holds the last
// [Cache] batches (4 by default).
//
// # Types and nulls
//
// A dictionary-encoded column of text reads as its values. Nulls are explicit:
// a column holding nulls is an error wrapping [ErrNull] unless [Fill] (for
// numbers) or [NullEmpty] (for lists and strings) says what a null reads as,
// and [Valid] gives the validity beside it. Columns of other types (structs,
// maps, unions, decimals, view types) are listed by [File.Fields] and refused
// by every accessor with an error naming the column.
//
// # Errors
//
// Data errors name the file and, where it helps, the column, the batch and the
// byte: "arrowipc: x.arrow: malformed Arrow IPC file: message at byte 1032:
// body of 4096 bytes past the end of the 2048-byte file". Every error of Open
// starts with the package's name and names the file, a missing one included
// ("arrowipc: open x.arrow: no such file or directory"), and a file of another
// format is said to be one ("not an Arrow IPC file or stream: it starts with
// ...").
//
// Every size read from the file is checked against the bytes that hold it
// before anything is sized by it. Open checks each batch against the schema:
// every column's rows are its batch's, every array's rows and nulls fit its
// buffers (a validity bit, an offset, a value or an index a row), a child
// array holds what its parent needs; a compressed buffer's declared length is
// one its codec can make of its bytes, and a ZSTD frame may not declare more
// than that length. A column whose rows take no bytes (of type null, or
// run-end encoded) has as many rows as the file claims: [Valid] refuses it.
package arrowipc
