//go:build cgo && (amd64 || arm64)

package cref

/*
#cgo CFLAGS: -O2
#include <stddef.h>
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

// rowsDist copies the same rows with memcpy while a cursor prefetches every
// line dist bytes ahead of the copy along the gathered rows, across row
// boundaries: the algorithm of obskit's row kernel, in C.
static void rowsDist(char *dst, const char *src, size_t n, ptrdiff_t stride,
                     const long long *idx, long count, long dist) {
	long pj = 0;
	size_t po = 0;
	long budget = dist;
	for (long j = 0; j < count; j++) {
		budget += (long)n;
		while (budget > 0 && pj < count) {
			const char *p = src + idx[pj] * stride;
			__builtin_prefetch(p + po);
			po += 64;
			budget -= 64;
			if (po >= n) {
				__builtin_prefetch(p + n - 1);
				budget += (long)(po - n);
				po = 0;
				pj++;
			}
		}
		memcpy(dst + j * n, src + idx[j] * stride, n);
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
// ahead > 0. The rows and dst must lie within src and dst; nothing is checked
// but the lengths.
func Rows(dst, src []byte, n, stride int, idx []int, ahead int) {
	if a, ok := args(dst, src, n, stride, idx); ok {
		C.rows(a.dst, a.src, a.n, a.stride, a.idx, a.count, C.long(ahead))
	}
}

// RowsDist copies the same rows with memcpy, prefetching every line dist bytes
// ahead of the copy along the gathered rows, the row kernel's algorithm in C.
func RowsDist(dst, src []byte, n, stride int, idx []int, dist int) {
	if a, ok := args(dst, src, n, stride, idx); ok {
		C.rowsDist(a.dst, a.src, a.n, a.stride, a.idx, a.count, C.long(dist))
	}
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
