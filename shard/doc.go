// Package shard reads and writes sharded data sets: samples split into
// shards (WebDataset tar files, RecordIO files or .npy files), each shard
// with an index, listed by a manifest, stored in a local directory or an
// object store. A set is a container like any other: splits, folds and loops
// take it unchanged, and its shards are its blocks, so that a shuffled epoch
// reads a window of shards at a time.
//
// # Samples and formats
//
// A [Sample] is a key and named fields of bytes, as WebDataset has them:
// "000017" with "jpg", "cls" and "seg.png". The [Format] says how a shard
// stores them:
//
//   - [Tar]: a WebDataset tar file, each field the member KEY.FIELD, the fields
//     of a sample consecutive (package wds has the grouping rules, read from
//     webdataset's source; Python's tarfile and webdataset read the shards the
//     kit writes, and the kit reads theirs, gzip-compressed ones too).
//   - [RecordIO]: a RecordIO file (package recordio), each field one record.
//   - [Npy]: one .npy file per field ("x.npy"), sample j of the shard its row
//     j: numeric arrays of one dtype and shape per field, which np.load reads.
//
// # Writing
//
// A [Packer] splits samples into shards of a target size (256 MiB by
// default) and writes each shard's files, then its index, then at Close a
// part manifest of its shards. Several packers, in several processes or
// machines, write one set with no coordination: each has its number, which
// its names hold, and so writes names no other writes. Once all have closed,
// one [Commit] joins their parts, in the packers' order, into the manifest,
// which it writes last. [Pack] is the whole of a one-packer job.
//
//	p, err := shard.NewPacker(store, "train/s", shard.PackOptions{Writer: rank})
//	for _, s := range mySamples { err = p.Write(s) }
//	_, err = p.Close()
//	// once every rank has closed, in one process:
//	m, err := shard.Commit(store, "train/manifest.json", "train/s", ranks)
//
// Nothing is visible under a name before it is whole ([Store]'s Create and
// Commit), so a packer that dies leaves no part, Commit refuses to write a
// manifest without every part, a packer run again with its number rewrites
// its shards, removes the dead one's temporaries and first marks its earlier
// part unfinished (so a run again that dies leaves no part listing shards it
// replaced), and no manifest ever lists a shard that is not complete. [IndexTars] makes a set of tar shards
// another tool wrote, indexing each.
//
// # The manifest and the indexes
//
// The [Manifest] (JSON) lists the shards in order with their sample counts,
// files, sizes and SHA-256, their indexes' sizes and SHA-256, the fields
// and how many samples have each, and the label field. It is the only file
// [Open] reads: opening costs O(shards), not O(samples), and holds about
// 230 bytes per shard, so a reader of 10^5 shards starts in a fraction of
// a second without reading an index (BenchmarkShardOpen, among this
// package's benchmarks).
//
// A shard's index (binary, versioned, with a CRC-32C) lists its samples:
// each key, each field's offset, size and CRC-32C, and the sample's label
// when the packer knew it (a "cls" field, or the field PackOptions.Label
// names). A shard's index is read at the first read of one of its samples,
// checked against the manifest, and kept while the shard is open
// ([MaxOpen]). Labels are read from the indexes alone ([Set.Labels],
// [LabeledField]), so that a stratified split or a class-balanced loop over a
// set reads no shard.
//
// # Reading
//
// A [Set] is a container of Samples in the manifest's order: sample i is
// found by a binary search over the shards' starts, and its fields are read
// at their offsets (a ranged read each, through io.ReaderAt) and checked
// against their CRC-32C. A field alone is a container of its bytes
// ([Set.Field]: container.Encoded, which imagedata decodes into images with
// no allocation per image), a field of .npy arrays an array container
// ([ArraysOf]), and a field beside the labels labeled data ([LabeledField]).
// All have the set's blocks, its shards (container.Blocked), so
// eachobs.ShuffleBlocks's two-level order, its positions, resume and
// partitions across ranks apply with no special case:
//
//	set, err := shard.Open(shard.Dir("/data"), "train/manifest.json")
//	data, err := shard.LabeledField(set, "jpg")
//	train := imagedata.Decode(data, pipeline, turbo.New(imagecodec.Options{}))
//	for b := range eachobs.Batches(train, 64, eachobs.ShuffleBlocks(seed, 8)) { ... }
//
// A shard whose second sample is read while it is open is read whole into
// memory, within [MaxMemory] ([ReadAhead]): a loop in the two-level order
// reads each shard once, sequentially, rather than a seek per sample.
// [Set.Prefetch] reads the shards a loop will reach next (index.Upcoming
// over its order) on another core while the loop reads the ones before,
// checking their checksums there:
//
//	order := index.NewBlocksAt(set.BlockStarts(), 8, seed, epoch) // ShuffleBlocks(seed, 8)'s
//	ahead := set.Prefetch(index.Upcoming(order.At, set.BlockStarts(), 0, 1), 8)
//	defer ahead.Stop()
//
// A gzip-compressed tar shard cannot be read at an offset: it is decompressed
// whole, once, when first read, and held in memory while open, within
// MaxMemory. Uncompressed tar, RecordIO and .npy shards are read at random.
//
// # Errors
//
// Opening reads and checks the manifest: its errors wrap [ErrManifest] (or
// the store's, fs.ErrNotExist for a missing one). A read can fail later, for
// what only the shard can tell: a missing shard (the store's error naming
// it), an index or file whose size or SHA-256 is not the manifest's, or a
// member whose CRC-32C fails ([ErrCorrupt], naming the shard, the sample's
// key, the field and the offset). [Set.ReadSample] and the views'
// AppendObs return these errors; GetObs panics with them, and the kit's loops
// deliver them as a *container.PanicError. Nothing read from a file sizes an
// allocation before it is checked against the bytes that hold it: a damaged
// index or manifest is an error, never gigabytes allocated. [Verify] checks
// every byte of a set against its manifest.
//
// # Storage
//
// A [Store] is three methods: Open (an io.ReaderAt of ranged reads), Create
// (visible only at Commit) and List. [Dir] is a local directory; an object
// store's Store lives in a module of its own, and every path of the set (the
// manifest's names are relative to its directory) reads through it
// unchanged.
package shard
