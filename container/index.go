package container

import "strconv"

// An IndexError is the panic value of an index outside [0, Nobs). It names the
// operation, the index and the count, as in
//
//	subset.Of: index 12 out of range [0, 10)
//
// Like a slice index out of range it is a programmer error, raised at the call site.
type IndexError struct {
	Op    string // the function that was called, such as "container.Slice.GetObs"
	Index int    // the offending index
	Nobs  int    // the number of observations of the container
}

// Error implements the error interface.
func (e *IndexError) Error() string {
	return e.Op + ": index " + strconv.Itoa(e.Index) +
		" out of range [0, " + strconv.Itoa(e.Nobs) + ")"
}

// CheckIndex panics with an [*IndexError] for op when i is outside [0, n). It costs
// one comparison when i is in range, so containers call it on every access.
func CheckIndex(op string, i, n int) {
	if uint(i) >= uint(n) {
		panic(&IndexError{Op: op, Index: i, Nobs: n})
	}
}

// CheckIndices calls [CheckIndex] for every index in idx.
func CheckIndices(op string, idx []int, n int) {
	for _, i := range idx {
		if uint(i) >= uint(n) {
			panic(&IndexError{Op: op, Index: i, Nobs: n})
		}
	}
}
