// Package filetest holds test helpers shared by the file-format packages.
package filetest

import (
	"io"
	"runtime"
	"unsafe"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container/containertest"
)

// ArrayConfig is the containertest configuration of array containers.
func ArrayConfig[E arraycontainer.Number]() containertest.Config[*arraycontainer.Array[E], *arraycontainer.Array[E]] {
	return containertest.Config[*arraycontainer.Array[E], *arraycontainer.Array[E]]{
		Obs: func(b *arraycontainer.Array[E], j int) *arraycontainer.Array[E] { return b.GetObs(j) },
		Len: func(b *arraycontainer.Array[E]) int { return b.Nobs() },
	}
}

// Float64s returns the elements of a in row-major (C) order as float64.
func Float64s[E arraycontainer.Number](a *arraycontainer.Array[E]) []float64 {
	c := a.Clone()
	out := make([]float64, 0, c.Len())
	for _, v := range c.Data()[c.Offset() : c.Offset()+c.Len()] {
		out = append(out, float64(v))
	}
	return out
}

// Size returns the size in bytes of E.
func Size[E arraycontainer.Number]() uintptr {
	var z E
	return unsafe.Sizeof(z)
}

// OnlyReader hides every method of a reader but Read: a reader that cannot Seek,
// such as a pipe or a network stream, whose size a file reader cannot ask.
type OnlyReader struct{ R io.Reader }

// Read reads from R.
func (o OnlyReader) Read(p []byte) (int, error) { return o.R.Read(p) }

// Allocated returns the bytes f allocates, as runtime.MemStats counts them (the
// whole process's TotalAlloc: run it where no other test allocates at once).
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
