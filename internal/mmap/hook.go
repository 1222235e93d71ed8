package mmap

// The array type lives in arraycontainer, which imports this package, so the
// two functions that reach its one field for regions are registered by
// arraycontainer's init, before any package that maps files can run.
var (
	attach func(a any, r *Region)
	of     func(a any) *Region
)

// Register is called once, by package arraycontainer: set attaches a region to an
// *arraycontainer.Array[E] given as any, get returns an array's region (nil for
// an array in Go memory or a value that is no array).
func Register(set func(a any, r *Region), get func(a any) *Region) {
	attach, of = set, get
}

// Attach makes the array a (an *arraycontainer.Array[E] viewing r's memory) hold
// r, so that r stays mapped while a, or any view made from a, is reachable.
func Attach(a any, r *Region) { attach(a, r) }

// Of returns the region the array a views, or nil.
func Of(a any) *Region { return of(a) }
