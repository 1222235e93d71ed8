// Package shard reads and writes sharded data sets: WebDataset tar files,
// RecordIO files and .npy files, each with an index, listed by a manifest,
// stored in a local directory or an object store ([Store]).
package shard
