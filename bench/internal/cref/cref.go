//go:build cgo && (amd64 || arm64)

package cref

/*
#cgo CFLAGS: -O2
// Loops stay as written: GCC would otherwise turn the vector loops into memcpy.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-tree-loop-distribute-patterns")
#endif
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

// rows copies count rows of n bytes, row j from src + idx[j]*stride to
// dst + j*n, with memcpy. With ahead > 0 it first prefetches every line of
// the row ahead positions further on, the usual way to write a prefetching
// gather in C.
static void rows(char *dst, const char *src, size_t n, ptrdiff_t stride,
                 const long long *idx, long count, long ahead) {
	for (long j = 0; j < count; j++) {
		if (ahead > 0 && j + ahead < count) {
			const char *p = src + idx[j + ahead] * stride;
			for (size_t o = 0; o < n; o += 64)
				__builtin_prefetch(p + o);
			__builtin_prefetch(p + n - 1);
		}
		memcpy(dst + j * n, src + idx[j] * stride, n);
	}
}

// The copy routines of the experiments, each moving n bytes from s to d.
typedef void (*copyfn)(char *d, const char *s, size_t n);

static void mc(char *d, const char *s, size_t n) { memcpy(d, s, n); }

#if defined(__x86_64__)
#include <immintrin.h>

static void movsb(char *d, const char *s, size_t n) {
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

static void sse(char *d, const char *s, size_t n) {
	size_t o = 0;
	for (; o + 16 <= n; o += 16)
		_mm_storeu_si128((__m128i *)(d + o), _mm_loadu_si128((const __m128i *)(s + o)));
	memcpy(d + o, s + o, n - o);
}

__attribute__((target("avx2"))) static void avx2(char *d, const char *s, size_t n) {
	size_t o = 0;
	for (; o + 32 <= n; o += 32)
		_mm256_storeu_si256((__m256i *)(d + o), _mm256_loadu_si256((const __m256i *)(s + o)));
	memcpy(d + o, s + o, n - o);
}

__attribute__((target("avx512f"))) static void avx512(char *d, const char *s, size_t n) {
	size_t o = 0;
	for (; o + 64 <= n; o += 64)
		_mm512_storeu_si512((void *)(d + o), _mm512_loadu_si512((const void *)(s + o)));
	memcpy(d + o, s + o, n - o);
}

#else
#define movsb mc
#define sse mc
#define avx2 mc
#define avx512 mc
#endif

// cursor copies the rows as rows does, with routine r (an index of fns),
// while a cursor runs dist bytes ahead of the copy along the gathered rows,
// across row boundaries, and prefetches the lines of the first head bytes of
// each row (every line if head >= n): the algorithm of obskit's row kernel,
// in C. dist <= 0 prefetches nothing.
static void cursor(char *dst, const char *src, size_t n, ptrdiff_t stride,
                   const long long *idx, long count, long dist, int r, size_t head) {
	static const copyfn fns[] = {mc, movsb, sse, avx2, avx512};
	copyfn f = fns[r];
	long pj = 0, budget = dist > 0 ? dist : LONG_MIN / 2;
	size_t po = 0;
	for (long j = 0; j < count; j++) {
		budget += (long)n;
		while (budget > 0 && pj < count) {
			const char *p = src + idx[pj] * stride;
			__builtin_prefetch(p + po);
			po += 64;
			budget -= 64;
			if (po >= head || po >= n) {
				if (po >= n)
					__builtin_prefetch(p + n - 1);
				budget += (long)po - (long)n;
				po = 0;
				pj++;
			}
		}
		f(dst + j * n, src + idx[j] * stride, n);
	}
}

// columns gathers the 4-byte elements row[idx[j]] of each of width rows of
// rows elements of src into dst[f*count + j] (the observation-last gather).
// mode 0 goes row by row and, with ahead > 0, prefetches beside each pick the
// same pick ahead rows further on; mode 1 goes row by row and prefetches all
// the picks of the next row before copying the current one; mode 2 goes pick
// by pick down the rows (PyTorch's index_select(dim=1) loop order).
static void columns(uint32_t *dst, const uint32_t *src, long rows, long width,
                    const long long *idx, long count, long ahead, int mode) {
	if (mode == 2) {
		for (long j = 0; j < count; j++)
			for (long f = 0; f < width; f++)
				dst[f * count + j] = src[f * rows + idx[j]];
		return;
	}
	for (long f = 0; f < width; f++) {
		const uint32_t *row = src + f * rows;
		uint32_t *d = dst + f * count;
		if (mode == 1 && f + 1 < width) {
			for (long j = 0; j < count; j++)
				__builtin_prefetch(row + rows + idx[j]);
		}
		if (ahead > 0 && f + ahead < width) {
			const uint32_t *pre = row + ahead * rows;
			for (long j = 0; j < count; j++) {
				__builtin_prefetch(pre + idx[j]);
				d[j] = row[idx[j]];
			}
		} else {
			for (long j = 0; j < count; j++)
				d[j] = row[idx[j]];
		}
	}
}
*/
import "C"

import "unsafe"

// Available reports whether the C reference was built: it needs cgo and a C
// compiler, as go test -race does, and a 64-bit int (amd64, arm64), which
// the C code reads the indices as.
const Available = true

// Rows copies the n-byte rows at idx[j]*stride of src to dst[j*n:] with C's
// memcpy, prefetching every line of the row ahead positions further on when
// ahead > 0. It panics unless dst holds the rows and every row lies within
// src.
func Rows(dst, src []byte, n, stride int, idx []int, ahead int) {
	if a, ok := args(dst, src, n, stride, idx); ok {
		C.rows(a.dst, a.src, a.n, a.stride, a.idx, a.count, C.long(ahead))
	}
}

// Cursor copies the same rows with routine r while a cursor runs dist bytes
// ahead of the copy along the gathered rows and requests the first head
// bytes of each row it passes, every line of it if head >= n (nothing if dist
// <= 0): the row kernel's algorithm in C. r must be [Routine.Available].
func Cursor(dst, src []byte, n, stride int, idx []int, dist, head int, r Routine) {
	if !r.Available() {
		panic("obskit/bench/internal/cref: routine " + r.String() + " not supported by this CPU")
	}
	if a, ok := args(dst, src, n, stride, idx); ok {
		C.cursor(a.dst, a.src, a.n, a.stride, a.idx, a.count, C.long(dist), C.int(r), C.size_t(max(head, 0)))
	}
}

// A ColumnOrder is how [Columns] walks an observation-last gather.
type ColumnOrder int

const (
	RowByRow   ColumnOrder = iota // row by row, prefetching each pick some rows ahead beside it
	RowBurst                      // row by row, prefetching the next row's picks before each row
	PickByPick                    // pick by pick down the rows (PyTorch's index_select(dim=1))
)

// Columns gathers observation-last 4-byte elements, dst[f*len(idx)+j] =
// src[f*rows+idx[j]] for each of the len(src)/rows rows f, in order o; with
// RowByRow and ahead > 0 it prefetches each pick ahead rows further on. It
// panics unless dst holds len(src)/rows*len(idx) elements and every index is
// below rows.
func Columns(dst, src []uint32, rows int, idx []int, ahead int, o ColumnOrder) {
	width := len(src) / rows
	if len(dst) != width*len(idx) {
		panic("obskit/bench/internal/cref: Columns: dst does not hold the batch")
	}
	for _, i := range idx {
		if i < 0 || i >= rows {
			panic("obskit/bench/internal/cref: Columns: index out of range")
		}
	}
	C.columns((*C.uint32_t)(unsafe.SliceData(dst)), (*C.uint32_t)(unsafe.SliceData(src)), C.long(rows), C.long(width),
		(*C.longlong)(unsafe.Pointer(unsafe.SliceData(idx))), C.long(len(idx)), C.long(ahead), C.int(o))
}

// cArgs are the arguments the C functions share.
type cArgs struct {
	dst, src *C.char
	n        C.size_t
	stride   C.ptrdiff_t
	idx      *C.longlong
	count    C.long
}

// args checks the rows (see check) and converts them for C; ok is false when
// there is no row to copy.
func args(dst, src []byte, n, stride int, idx []int) (a cArgs, ok bool) {
	if len(idx) == 0 {
		return a, false
	}
	check(dst, src, n, stride, idx)
	return cArgs{
		(*C.char)(unsafe.Pointer(unsafe.SliceData(dst))), (*C.char)(unsafe.Pointer(unsafe.SliceData(src))),
		C.size_t(n), C.ptrdiff_t(stride), (*C.longlong)(unsafe.Pointer(unsafe.SliceData(idx))), C.long(len(idx)),
	}, true
}
