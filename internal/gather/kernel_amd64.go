//go:build !purego

package gather

import (
	"math"
	"unsafe"

	"golang.org/x/sys/cpu"
)

const hasKernel = true

// rowsAsm copies count rows of n bytes: row j from src+off+idx[j]*stride to
// dst+j*n, prefetching the first head bytes of each row dist bytes ahead
// along the gathered rows; rows of at least movs bytes move with REP MOVSB,
// others with 32-byte moves (AVX2) if wide is 1 and 16-byte moves if it is 0.
//
//go:noescape
func rowsAsm(dst, src unsafe.Pointer, off, n, stride int, idx *int, count, dist, movs, wide, head int)

// PrefetchHead is how many bytes of each row the kernel prefetches: its first
// two cache lines, which start the hardware's prefetch of the rest (bench's
// BenchmarkKernel/dram/head measures other heads on any machine).
const PrefetchHead = 128

// hasColumn reports whether columnAsm is the assembly's.
const hasColumn = true

// columnAsm copies count elements of size bytes (1, 2, 4 or 8), element j
// from src+off+idx[j]*scale to dst+j*size, and beside each prefetches
// src+next+idx[j]*scale: one outer position of an observation-last gather
// while the next one's picks are requested.
//
//go:noescape
func columnAsm(dst, src unsafe.Pointer, off, next, scale int, idx *int, count, size int)

// prefetchPicksAsm prefetches src+off+idx[j]*scale for j < count.
//
//go:noescape
func prefetchPicksAsm(src unsafe.Pointer, off, scale int, idx *int, count int)

// cpuid executes CPUID with the given leaf and subleaf: for the cache
// parameters, which golang.org/x/sys/cpu does not report.
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// hasAVX2 reports whether the CPU has AVX2 and the operating system saves
// the YMM registers (x/sys/cpu checks both).
var hasAVX2 = cpu.X86.HasAVX2

// cacheSize is the size in bytes of the CPU's largest cache, from CPUID's
// deterministic cache parameters (leaf 4 on Intel, 0x8000001D on AMD), or 0
// where the CPU does not say.
var cacheSize = func() int {
	leaf := uint32(4)
	if _, ebx, ecx, edx := cpuid(0, 0); ebx == 0x68747541 && ecx == 0x444d4163 && edx == 0x69746e65 { // "AuthenticAMD"
		if max, _, _, _ := cpuid(0x80000000, 0); max < 0x8000001D {
			return 0
		}
		leaf = 0x8000001D
	}
	size := 0
	for sub := uint32(0); sub < 16; sub++ {
		eax, ebx, ecx, _ := cpuid(leaf, sub)
		if eax&0x1f == 0 { // no more caches
			break
		}
		ways, parts, line := ebx>>22+1, (ebx>>12)&0x3ff+1, ebx&0xfff+1
		size = max(size, int(ways*parts*line*(ecx+1)))
	}
	return size
}()

// movsFrom is the row size in bytes from which rows move with REP MOVSB: 2 KiB
// on CPUs with enhanced REP MOVSB (ERMS), never on others, where REP MOVSB is
// slow.
var movsFrom = func() int {
	if !cpu.X86.HasERMS {
		return math.MaxInt
	}
	return 2 << 10
}()
