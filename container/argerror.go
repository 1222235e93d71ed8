package container

import "fmt"

// An ArgError is the panic value of a programmer error other than an index out of
// range: an argument outside the values a function accepts, such as a batch size
// below 1 or a nil *rand.Rand. Like [IndexError] it is an error, so a recovered
// panic can be inspected with errors.As; it names the function, the argument, the
// value given and what was wanted.
//
// Data errors (a malformed file, fractions that do not add up, labels a split
// cannot honour) are not ArgErrors: they are returned as errors.
type ArgError struct {
	Op    string // the function that was called, such as "eachobs.Batches"
	Arg   string // the argument, such as "batch size"
	Value any    // the value given
	Want  string // what was wanted, such as ">= 1"
}

// Error returns "<Op>: <Arg> <Value>, want <Want>", as in "eachobs.Batches:
// batch size 0, want >= 1".
func (e *ArgError) Error() string {
	return fmt.Sprintf("%s: %s %v, want %s", e.Op, e.Arg, e.Value, e.Want)
}

// CheckArg panics with an [*ArgError] naming op, arg, value and want when ok is
// false. It is how the kit checks arguments at the call site; user containers may
// use it too. It is generic so that a passing check costs no allocation: value is
// boxed into the ArgError only when the check fails.
func CheckArg[V any](ok bool, op, arg string, value V, want string) {
	if !ok {
		panic(&ArgError{Op: op, Arg: arg, Value: value, Want: want})
	}
}
