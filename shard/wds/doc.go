// Package wds reads and writes WebDataset tar shards: tar files whose
// consecutive members sharing a key are the fields of one sample, as
// PyTorch's and Hugging Face's users have them.
//
// # Samples
//
// WebDataset (webdataset/tariterators.py) reads a tar file as a stream and
// groups its members into samples by these rules, which [Scanner] follows:
//
//   - a member that is not a regular file (a directory, a link, a device, a
//     PAX global header) belongs to no sample, nor does a member whose name
//     [Meta] reports (such as "__meta__/info.json");
//   - [KeyExt] splits a name into a key and an extension at the first dot of
//     its last element: "sample/000017.seg.png" is key "sample/000017",
//     extension "seg.png"; a name without such a dot belongs to no sample;
//   - the extension lower-cased ([Field]) is the member's field;
//   - consecutive members with one key are one sample; the same key later,
//     after another, starts another sample;
//   - a field that appears twice in one sample is an error naming the key.
//
// [Writer] writes samples that read back as written under these rules, and
// refuses, before writing anything, a sample that would not ([CheckSample]).
//
// # Tar files
//
// Reading goes through the standard library's archive/tar over a reader
// that counts bytes, so that each member's header and data offsets are known
// (the per-shard index of package shard keeps them for random access): ustar,
// GNU (long names) and PAX (long names, large sizes, global headers) read as
// GNU tar and Python's tarfile read them. Shards compressed with gzip or
// bzip2 are read as a stream. Python's tarfile, and so webdataset, ends an
// archive quietly at a header it cannot read; a Scanner returns an [*Error]
// naming the shard and the offset, and so for a shard cut inside a member, a
// field twice, or anything but zeros after the end-of-archive blocks.
package wds
