package mmap

import "github.com/obskit/obskit/internal/memhook"

// Attach makes the array a (an *arraycontainer.Array[E] viewing r's memory) hold
// r, so that r stays mapped while a, or any view made from a, is reachable. A
// format package calls it on every array it makes over a region; a region no
// array holds is unmapped once the garbage collector finds it unreachable.
// Attach panics when a is not an *arraycontainer.Array.
func Attach(a any, r *Region) { memhook.Set(a, r) }

// Of returns the region the array a views, or nil for an array in Go memory
// and for a value that is not an *arraycontainer.Array.
func Of(a any) *Region {
	r, _ := memhook.Get(a).(*Region)
	return r
}
