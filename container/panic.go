package container

import (
	"fmt"
	"strconv"
)

// A PanicError is the panic value with which a loop or stream of the kit reports,
// in the goroutine that ranges over it, a panic in the work it does for the
// caller: a container's GetObsInto, a decoder, a user's map function, whether
// that work ran in a background goroutine (prefetching, parallel gathering,
// parallel maps) or in the caller's own, so that what a caller recovers is the
// same whatever the number of workers. A panic in another goroutine would
// otherwise crash the program where no caller can recover it. A panic in the
// loop body itself is not wrapped.
//
// Every goroutine-starting part of obskit (eachobs, stream, provider) uses this one
// type, so one errors.As covers them all. Unwrap returns the original value when it
// is an error, so errors.Is and errors.As see through a PanicError to, for instance,
// an [*IndexError].
type PanicError struct {
	Op    string // the loop or decorator whose goroutine panicked, such as "eachobs" or "stream.ParallelMap"
	Step  int    // the step of the loop (a batch, counted from 0 in this run) that panicked; -1 when not known
	Value any    // the value passed to panic
	Stack []byte // the stack of the goroutine that panicked, at the panic
}

// Error describes the panic, its step when known, and the goroutine's stack.
func (e *PanicError) Error() string {
	at := ""
	if e.Step >= 0 {
		at = " at step " + strconv.Itoa(e.Step)
	}
	return fmt.Sprintf("%s: panic%s: %v\n\n%s", e.Op, at, e.Value, e.Stack)
}

// Unwrap returns Value when it is an error, and nil otherwise.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}
