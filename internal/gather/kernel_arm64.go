//go:build !purego

package gather

import (
	"math"
	"unsafe"
)

const hasKernel = true

// rowsAsm copies count rows of n bytes: row j from src+off+idx[j]*stride to
// dst+j*n, prefetching every line of the rows dist bytes ahead along the
// gathered rows (PRFM PLDL1KEEP), with 16-byte pair loads and stores. movs,
// wide and head are ignored on arm64.
//
//go:noescape
func rowsAsm(dst, src unsafe.Pointer, off, n, stride int, idx *int, count, dist, movs, wide, head int)

// PrefetchHead is how many bytes of each row the kernel prefetches: all of
// them on arm64, where requesting only a row's head was never measured.
const PrefetchHead = math.MaxInt

// hasColumn reports whether columnAsm is the assembly's: not on this build,
// where an observation-last gather picks with Go's loop (column).
const hasColumn = false

func columnAsm(dst, src unsafe.Pointer, off, next, scale int, idx *int, count, size int) {
	panic("obskit/internal/gather: no column kernel on this build")
}

// prefetchPicksAsm prefetches src+off+idx[j]*scale for j < count.
//
//go:noescape
func prefetchPicksAsm(src unsafe.Pointer, off, scale int, idx *int, count int)

// arm64 has no string moves nor AVX2, and the largest cache
// is not read here (cacheSize 0: the kernel always prefetches).
var movsFrom = math.MaxInt

const (
	hasAVX2   = false
	cacheSize = 0
)
