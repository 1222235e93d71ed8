// Package memhook carries the two functions by which package fileio/mmap
// reaches the one field of arraycontainer.Array that holds a file mapping.
// mmap cannot import arraycontainer (arraycontainer imports mmap), so
// arraycontainer's init sets them here, before any package that maps files can
// run, and they stay out of mmap's public API.
package memhook

var (
	// Set makes the array a (an *arraycontainer.Array[E], given as any) hold
	// the region r (an *mmap.Region, given as any).
	Set func(a, r any)
	// Get returns the region the array a holds (a nil *mmap.Region for an
	// array in Go memory), or nil when a is no array.
	Get func(a any) any
)
