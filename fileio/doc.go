// Package fileio is the machinery the file-format packages (npy, idx, csvdata)
// share: the element kinds of numeric Go types, zero-copy views between []E and
// []byte, byte swapping, overflow-safe sizes, bounded reads that never allocate
// from an untrusted size, and the typed view of a file mapping (the mapping
// itself, its lifetime and its faults are package mmap's).
package fileio
