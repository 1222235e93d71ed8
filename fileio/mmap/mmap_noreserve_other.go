//go:build unix && !linux

package mmap

// noreserve is Linux-only; elsewhere private writable mappings are not charged up
// front (BSDs, Darwin) or the flag does not exist.
const noreserve = 0
