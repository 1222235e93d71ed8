package main

import (
	"errors"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/imagedata"
)

// recoverRead, deferred by a command that loops over decoded images, turns
// the panic of an image that cannot be read or decoded (an error wrapping
// imagedata.ErrRead, which the loops deliver as a *container.PanicError) into
// the command's error, *err: the error itself, which names the file and the
// record, without the loop's wrapping and stack. Any other panic goes on.
func recoverRead(err *error) {
	r := recover()
	if r == nil {
		return
	}
	e, ok := r.(error)
	if !ok || !errors.Is(e, imagedata.ErrRead) {
		panic(r)
	}
	var pe *container.PanicError
	for errors.As(e, &pe) {
		e = pe.Unwrap() // an error, since e wraps ErrRead
	}
	*err = e
}
