// Package cref is the C reference of the benchmark suite: the shuffled rows of
// a gather copied by C, as a C programmer would write it (a loop of memcpy
// calls, without and with software prefetch, compiled with -O2 by the C
// compiler that go test -race already needs), and the experiments' variants of
// the row kernel: its prefetch cursor at any distance, requesting any part of
// each row, around each copy routine of [Routine]. They are the measured
// limits and alternatives of a shuffled gather on the machine at hand, in the
// suite rather than in the kernel package.
//
// It is built only with cgo ([Available]); without it the functions panic and
// the benchmarks that use it leave their C sides out.
package cref

import (
	"runtime"

	"golang.org/x/sys/cpu"
)

// A Routine is the way [Cursor] copies each row.
type Routine int

const (
	Memcpy Routine = iota // C's memcpy (glibc's picks its own routine by size)
	Movsb                 // REP MOVSB
	SSE                   // 16-byte vector moves
	AVX2                  // 32-byte vector moves
	AVX512                // 64-byte vector moves
)

// Routines are every Routine, in order.
var Routines = []Routine{Memcpy, Movsb, SSE, AVX2, AVX512}

// String names the routine as the benchmarks' sides do: "movsb".
func (r Routine) String() string {
	return [...]string{"memcpy", "movsb", "sse", "avx2", "avx512"}[r]
}

// Available reports whether r runs here: the C reference is built and, for
// the vector routines on amd64, the CPU has the instructions (elsewhere every
// routine is memcpy).
func (r Routine) Available() bool {
	switch {
	case !Available:
		return false
	case r == AVX2:
		return runtime.GOARCH != "amd64" || cpu.X86.HasAVX2
	case r == AVX512:
		return runtime.GOARCH != "amd64" || cpu.X86.HasAVX512F
	}
	return true
}

// check panics unless dst holds len(idx) rows of n bytes and every row lies
// within src, so that the C code, which checks nothing, reads and writes only
// the memory it is given.
func check(dst, src []byte, n, stride int, idx []int) {
	if n <= 0 || len(dst) < n*len(idx) {
		panic("obskit/bench/internal/cref: dst does not hold the rows")
	}
	for _, i := range idx {
		if o := i * stride; i < 0 || o < 0 || o > len(src)-n || stride != 0 && o/stride != i {
			panic("obskit/bench/internal/cref: a row outside src")
		}
	}
}
