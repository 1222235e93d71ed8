//go:build purego || !(amd64 || arm64)

package gather

import (
	"math"
	"unsafe"
)

// Without assembly the row kernel is a loop of copy() calls and nothing is
// prefetched.
const hasKernel = false

var movsFrom = math.MaxInt

// PrefetchHead is how many bytes of each row the kernel would prefetch:
// here it prefetches nothing.
const PrefetchHead = math.MaxInt

const (
	hasAVX2   = false
	cacheSize = 0
)

func rowsAsm(dst, src unsafe.Pointer, off, n, stride int, idx *int, count, dist, movs, wide, head int) {
	panic("obskit/internal/gather: no row kernel on this build")
}

// hasColumn reports whether columnAsm is the assembly's: not on this build,
// where an observation-last gather picks with Go's loop (column).
const hasColumn = false

func columnAsm(dst, src unsafe.Pointer, off, next, scale int, idx *int, count, size int) {
	panic("obskit/internal/gather: no column kernel on this build")
}

func prefetchPicksAsm(src unsafe.Pointer, off, scale int, idx *int, count int) {}
