package mmap

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// A FaultError is the panic value of a read or write of a region that faulted:
// the file was truncated after it was mapped (the pages past its new end no
// longer exist) or its storage failed. It wraps the mapping package's sentinel
// (npy.ErrFault, idx.ErrFault) and the runtime's error.
type FaultError struct {
	Pkg    string // the package that mapped the file
	Name   string // the file
	Offset int64  // the byte of the mapping whose access faulted
	Size   int    // the size of the mapping
	fault  error
	cause  error
	region *Region
}

// Error names the file, the offset and the likely cause. The runtime's own
// message ("invalid memory address or nil pointer dereference") is left out,
// misleading here; the error still wraps it.
func (e *FaultError) Error() string {
	return fmt.Sprintf("%s: %s: %v: access to byte %d of the %d mapped bytes failed: the file was truncated after it was mapped, or its storage failed",
		e.Pkg, e.Name, e.fault, e.Offset, e.Size)
}

// Unwrap returns the package's sentinel and the runtime's error.
func (e *FaultError) Unwrap() []error { return []error{e.fault, e.cause} }

// Guard makes a fault during the caller's work a Go panic rather than a fatal
// error, for the current goroutine, and returns the previous setting for
// [Region.Recover]. Use the two as
//
//	defer r.Recover(r.Guard())
//
// in the function whose reads or writes of r's memory may fault. Both cost a few
// nanoseconds (a field of the goroutine set and restored, an open-coded defer).
func (r *Region) Guard() bool { return debug.SetPanicOnFault(true) }

// Recover restores the setting Guard returned and turns a recovered fault inside
// r's memory into a panic with a [*FaultError]. Any other panic (a fault
// elsewhere, an index out of range, a FaultError of an inner guard) goes on
// unchanged. It must be called by defer, directly, as Guard's doc shows.
func (r *Region) Recover(old bool) {
	debug.SetPanicOnFault(old)
	p := recover()
	if p == nil {
		return
	}
	if fe := r.faultError(p); fe != nil {
		panic(fe)
	}
	panic(p)
}

// RecoverError is [Region.Recover] for a function that returns an error: a fault
// inside r's memory, or a [*FaultError] of r from an inner guard, is stored in
// *err, and the function returns it instead of panicking. Use it as
//
//	defer r.RecoverError(r.Guard(), &err)
func (r *Region) RecoverError(old bool, err *error) {
	debug.SetPanicOnFault(old)
	p := recover()
	if p == nil {
		return
	}
	if fe := r.faultError(p); fe != nil {
		*err = fe
		return
	}
	panic(p)
}

// faultError returns the *FaultError of the panic value p when p is a fault
// inside r's memory, or a FaultError of r already, and nil otherwise.
func (r *Region) faultError(p any) *FaultError {
	if fe, ok := p.(*FaultError); ok {
		if fe.region == r {
			return fe
		}
		return nil
	}
	err, ok := p.(runtime.Error)
	if !ok {
		return nil
	}
	a, ok := p.(interface{ Addr() uintptr })
	if !ok {
		return nil
	}
	off, in := r.contains(a.Addr())
	if !in {
		return nil
	}
	return &FaultError{Pkg: r.pkg, Name: r.name, Offset: off, Size: len(r.data), fault: r.fault, cause: err, region: r}
}
