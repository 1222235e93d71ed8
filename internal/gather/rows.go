package gather

import (
	"fmt"
	"math"
	"runtime"
	"unsafe"
)

// The row kernel: copying the rows of a shuffled batch.
//
// A shuffled observation-first batch copies len(idx) rows from random places of
// an array. Where the array is larger than the CPU's largest cache, the time of
// such a copy is the memory latency of each row's first lines: on the AMD EPYC
// (Zen 5) of docs/performance.md a loop of copy() calls moved 3136-byte rows at
// 9-10 GB/s where copy() of one block moved 25-29 GB/s. The kernel closes most
// of that gap with software prefetch along the gathered stream: a cursor runs
// [PrefetchDistance] bytes ahead of the copy, across row boundaries, and
// requests the first two cache lines of each row it passes (on amd64; every
// line on arm64); the hardware's stream prefetcher, started by them, brings the
// rest of the row, and requesting every line was 0.70-0.94 as fast on the Zen 3
// for rows of 3136 bytes and 0.88-1.0 for rows of 784. Where the array fits in
// that cache, the hardware keeps up and the prefetches only cost (10% for
// 3136-byte rows on a Zen 3), so the kernel does not prefetch there: the plan
// depends on the array's size against the cache (planFor). The rows move with
// 32-byte moves on CPUs with AVX2 (16-byte ones without), stored aligned to 32
// bytes from 256-byte rows on (as glibc's memcpy does: a row of 784 bytes
// starts 16 bytes off a 32-byte boundary every other batch position, where half
// the stores would split a cache line) and with a row's last 128 bytes loaded
// before the rest (as glibc's memcpy does too: the misses of a row's two ends
// overlap), or, from arrays larger than the cache,
// with REP MOVSB from 2 KiB on CPUs with fast string moves (ERMS), which the
// measurements preferred for rows that large on the Zen 5. docs/design.md gives
// the reason for each choice, docs/performance.md the measurements.

// PrefetchDistance is how far ahead of the copy, in bytes of the gathered
// batch, the row kernel prefetches. 8 KiB was the best of none and 1 to 32 KiB
// for rows of 784 and 3136 bytes on the AMD EPYC of docs/performance.md
// (bench's BenchmarkKernel/distance measures it on any machine).
const PrefetchDistance = 8 << 10

// blocks copies the contiguous block of n elements at base+idx[j]*sa to
// d[j*n:], for every j; p summarizes idx. When blocks are adjacent in memory
// (sa == n) and the indices run consecutively often enough, runs of consecutive
// indices move as one copy; otherwise the row kernel copies block by block.
//
//go:noinline
func blocks[E Elem](d, src []E, base, sa, n int, idx []int, p picks) {
	if sa == n && p.runs {
		for j := 0; j < len(idx); {
			i := idx[j]
			r := 1
			for j+r < len(idx) && idx[j+r] == i+r {
				r++
			}
			o := base + i*n
			copy(d[j*n:(j+r)*n], src[o:o+r*n])
			j += r
		}
		return
	}
	rows(d, src, base, sa, n, idx, p, planFor(len(src)*int(unsafe.Sizeof(src[0]))))
}

// A plan is how the row kernel copies: how many bytes of the batch it
// prefetches ahead of the copy (none if <= 0) and how many bytes of each row
// it requests, the row size in bytes from which rows move with REP MOVSB, and
// whether the rows below move with 32-byte moves (AVX2) rather than 16-byte
// ones.
type plan struct {
	dist, head, movs int
	wide             bool
}

// kernelPlan is the kernel's plan on this CPU for an array that does not fit
// in its largest cache.
var kernelPlan = plan{PrefetchDistance, PrefetchHead, movsFrom, hasAVX2}

// planFor returns the plan for a gather from an array of size bytes: the
// kernel's, or, when the array fits in the CPU's largest cache (where the
// hardware's own prefetch keeps up with the copy and the kernel's
// instructions only cost), no prefetch and, with AVX2, 32-byte moves at every
// row size (REP MOVSB was 0.90-0.95 of them there for 3136- and 6272-byte
// rows on the Zen 3).
func planFor(size int) plan {
	if size <= cacheSize {
		if kernelPlan.wide {
			return plan{0, 0, math.MaxInt, true}
		}
		return plan{0, 0, kernelPlan.movs, false}
	}
	return kernelPlan
}

// rows copies the block of n elements at base+idx[j]*sa to d[j*n:] for every
// j with plan pl; p summarizes idx. d holds exactly len(idx)*n elements.
func rows[E Elem](d, src []E, base, sa, n int, idx []int, p picks, pl plan) {
	if len(idx) == 0 || n == 0 {
		return
	}
	if !hasKernel || !p.inBounds(len(src), base, sa, n) {
		// copy() checks every row; a row out of bounds panics there, after the
		// rows before it are written, as the kernel has always done.
		for j, i := range idx {
			o := base + i*sa
			copy(d[j*n:(j+1)*n], src[o:o+n])
		}
		return
	}
	size := int(unsafe.Sizeof(d[0]))
	_ = d[len(idx)*n-1] // d holds the batch
	dist := pl.dist
	if dist <= 0 {
		dist = math.MinInt / 2 // the budget never turns positive
	}
	wide := 0
	if pl.wide {
		wide = 1
	}
	rowsAsm(unsafe.Pointer(unsafe.SliceData(d)), unsafe.Pointer(unsafe.SliceData(src)),
		base*size, n*size, sa*size, unsafe.SliceData(idx), len(idx), dist, pl.movs, wide, pl.head)
}

// picks summarizes an index list for the kernel, once per list rather than once
// per outer position of an observation-last gather: its smallest and largest
// index, and whether it runs through consecutive values often enough (four
// indices per run on average) that copying runs beats picking rows.
type picks struct {
	lo, hi int
	runs   bool
	empty  bool
}

func summarize(idx []int) picks {
	if len(idx) == 0 {
		return picks{empty: true}
	}
	p := picks{lo: idx[0], hi: idx[0]}
	runs := 1
	for j := 1; j < len(idx); j++ {
		i := idx[j]
		p.lo, p.hi = min(p.lo, i), max(p.hi, i)
		if i != idx[j-1]+1 {
			runs++
		}
	}
	p.runs = 4*runs <= len(idx)
	return p
}

// inBounds reports whether every block [base+i*sa, base+i*sa+n) of the indices
// lies within [0, size), computed without overflow from the extreme indices (the
// offsets are linear in the index). The assembly kernel reads without bounds
// checks, so it runs only when this holds.
func (p picks) inBounds(size, base, sa, n int) bool {
	if n > size || base < 0 || base > size || p.lo < 0 {
		return false
	}
	lim := size - n
	if p.empty {
		return true
	}
	if sa == 0 {
		return base <= lim // every index reads the same block
	}
	if sa < -size || sa > size || p.hi > size/max(sa, -sa)+1 {
		return false // no overflow below: |i*sa| <= size + |sa| <= 2*size
	}
	lo, hi := base+p.lo*sa, base+p.hi*sa
	if sa < 0 {
		lo, hi = hi, lo
	}
	return uint(lo) <= uint(lim) && uint(hi) <= uint(lim)
}

// prefetchPicks prefetches the elements src[base+idx[j]*sa] for every j: the
// picks of the next outer position of an observation-last gather, each in a
// cache line of its own, requested while the current position's picks are
// copied. Prefetches cannot fault, so the addresses need no bounds check.
func prefetchPicks[E any](src []E, base, sa int, idx []int) {
	if !hasKernel || len(idx) == 0 || len(src) == 0 {
		return
	}
	var z E
	size := int(unsafe.Sizeof(z))
	prefetchPicksAsm(unsafe.Pointer(unsafe.SliceData(src)), base*size, sa*size, unsafe.SliceData(idx), len(idx))
}

// Describe says how the row kernel copies rows on this build and CPU, for the
// benchmark report: "amd64 assembly; 32-byte moves (AVX2, stores aligned from
// 256-byte rows), REP MOVSB from 2 KiB rows (ERMS) of arrays larger than the
// cache; prefetching 8 KiB ahead along the gathered rows (the first 128 bytes
// of each) from arrays larger than the 32 MiB cache; observation-last picks
// prefetched a row ahead", or the pure-Go loop.
func Describe() string {
	if !hasKernel {
		return "copy() per row, no prefetch (pure Go: the purego tag or an architecture without the assembly kernel)"
	}
	s := runtime.GOARCH + " assembly; " + map[bool]string{true: "32-byte moves (AVX2, stores aligned from 256-byte rows)", false: "16-byte moves"}[hasAVX2]
	if movsFrom != math.MaxInt {
		s += fmt.Sprintf(", REP MOVSB from %d KiB rows (ERMS)", movsFrom>>10)
		if hasAVX2 && cacheSize > 0 {
			s += " of arrays larger than the cache"
		}
	}
	s += fmt.Sprintf("; prefetching %d KiB ahead along the gathered rows", PrefetchDistance>>10)
	if PrefetchHead != math.MaxInt {
		s += fmt.Sprintf(" (the first %d bytes of each)", PrefetchHead)
	}
	if cacheSize > 0 {
		s += fmt.Sprintf(" from arrays larger than the %d MiB cache", cacheSize>>20)
	}
	if hasColumn {
		s += "; observation-last picks prefetched a row ahead"
	}
	return s
}
