//go:build !purego

package gather

import (
	"math"
	"unsafe"
)

const hasKernel = true

// rowsAsm copies count rows of n bytes: row j from src+off+idx[j]*stride to
// dst+j*n, prefetching dist bytes ahead along the gathered rows; rows of at
// least movs bytes move with REP MOVSB, others with 16-byte moves.
//
//go:noescape
func rowsAsm(dst, src unsafe.Pointer, off, n, stride int, idx *int, count, dist, movs int)

// prefetchPicksAsm prefetches src+off+idx[j]*scale for j < count.
//
//go:noescape
func prefetchPicksAsm(src unsafe.Pointer, off, scale int, idx *int, count int)

// cpuid executes CPUID with the given leaf and subleaf.
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// movsFrom is the row size in bytes from which rows move with REP MOVSB: 2 KiB
// on CPUs with enhanced REP MOVSB (ERMS, CPUID leaf 7 EBX bit 9), never on
// others, where REP MOVSB is slow.
var movsFrom = func() int {
	if max, _, _, _ := cpuid(0, 0); max < 7 {
		return math.MaxInt
	}
	if _, ebx, _, _ := cpuid(7, 0); ebx&(1<<9) == 0 {
		return math.MaxInt
	}
	return 2 << 10
}()
