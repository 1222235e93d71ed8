// Package recordio reads and writes RecordIO, the record file format of
// dmlc-core that MXNet packs its data sets in (.rec files, with their .idx
// index), and the image records of MXNet's ImageRecordIter inside it.
//
// # The format
//
// A .rec file is a sequence of records, each an arbitrary byte string (its
// payload) of fewer than 2^29 bytes. A record is stored as a part: the
// little-endian word [Magic] (0xced7230a), a length word cflag<<29 | length,
// the payload and zero bytes up to a multiple of 4. So that a reader can find
// record boundaries by looking for the magic number alone, a payload that
// holds the magic number at an offset that is a multiple of 4 is cut there
// into several parts, the magic numbers left out: cflag 1 marks the first part,
// 2 the middle ones, 3 the last, and 0 a record in one part. Readers put the
// magic numbers back.
//
// [Writer] writes files byte for byte as dmlc-core's RecordIOWriter does, and
// so as MXNet's MXRecordIO, MXIndexedRecordIO and im2rec do for the same
// records; the tests hold it to files made by an independent writer.
//
// The index (.idx) is a text file of lines "key\toffset", one per record, in
// the order written: MXIndexedRecordIO's write_idx and im2rec write it, MXNet's
// iterators read it to seek, shuffle and partition by record. [Index] reads and
// writes it; [IndexPath] names the one beside a .rec.
//
// # Reading
//
// [Reader] reads the records of a stream in order, without an index (the
// sequential scan of dmlc-core's RecordIOReader): a pipe or a decompressor will
// do. [Open] memory-maps a file for random access and returns a [File], a
// container of the records in file order (observation i is the payload of
// record i as a []byte, a batch a [][]byte) that finds records by key
// ([File.Find]) through the index. Without an index, Open scans the file's
// part headers once to find the records, and [File.Index] is an index rebuilt
// from that scan. [NewFile] does the same over any io.ReaderAt.
//
//	f, err := recordio.Open("train.rec", recordio.IndexPath("train.rec"))
//	if err != nil { ... }
//	i, ok := f.Find(42)            // the record of key 42
//	rec := f.GetObs(i)             // its payload, a copy
//	batch = f.GetObsInto(batch, idx) // a batch, reusing batch's memory
//
// Reads copy each payload out: a record in one part is one copy from the
// mapping (or one ReadAt), a split record one copy per part. A File is a
// container like any other: subsets, shuffles, splits, batch loops and
// partitions of the kit apply to it unchanged. It is a container.Encoded:
// [File.AppendObs] reads a record into a buffer the caller reuses, returning
// the error GetObs would panic with, and [File.Where] names a record's file,
// key and offset; the kit's views of a File keep both, and several files are
// read as one container by their join (transform.Join), whose errors name the
// file of the record.
//
// # Image records
//
// MXNet's image records (im2rec's output, ImageRecordIter's input) are
// records whose payload is a 24-byte [Header] (MXNet's IRHeader: flag, label,
// id, id2), then flag float32 labels when flag > 0, then the encoded image.
// [Pack] builds one as mxnet.recordio.pack does and [Unpack] splits one. The
// image containers of package imagedata build on them.
//
// # Partitions
//
// For data-parallel training (MXNet's num_parts and part_index), partition a
// File by records with subset.Partition, as any container: with index.Part's
// default Keep tail every record is in exactly one part and the parts differ
// by at most one record.
//
// MXNet partitions differently. Without an index, dmlc-core cuts the file into
// num_parts byte ranges of equal size (rounded up to a multiple of 4) and
// moves each boundary forward to the next record start; a record belongs to
// the part its first byte falls in. Parts then hold uneven numbers of records
// when record sizes vary, and a part can be empty. With an index (ImageRecordIter's
// path_imgidx), it gives each part ceil(n/num_parts) consecutive records, so
// the last parts are short or empty. For a file of ten records, the first of
// 1,000 bytes and nine of 10 bytes, in three parts: MXNet without the index
// gives 1, 0 and 9 records, MXNet with it 4, 4 and 2, and the kit 4, 3 and 3.
//
// # Errors
//
// Bytes that are not valid RecordIO are an error wrapping [ErrFormat] that
// names the file and the offset of the first bad part: a bad magic number, an
// invalid or misplaced part flag (a record that starts with a middle part, a
// split record interrupted by a new record), a length past the end of the file,
// a split record cut short, trailing bytes that are no record. An error about
// a file that ends too early also wraps io.ErrUnexpectedEOF. Index lines that
// do not parse, and repeated keys or offsets, name the line or the entries.
// Padding bytes are not checked, as dmlc-core does not.
//
// Opening with an index checks that every offset lies in the file, which costs
// nothing; whether a record starts at an offset is found when that record is
// read, so that opening a large file costs no reading. A read that fails then
// returns the error from [File.AppendObs], and panics with it from GetObs and
// GetObsInto (which return no error): the loops deliver it as a
// *container.PanicError. The error names the file, the record's key and the
// offset, whether the bytes are not a record, the mapping lost its pages or
// the io.ReaderAt of [NewFile] failed.
//
// No length read from a file is trusted for memory: [File] checks every length
// against the file's size before it copies, and [Reader] grows its memory with
// the data that actually arrives when the stream's size is not known.
package recordio
