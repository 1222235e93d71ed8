// Package hugemem allocates the large slices behind arrays so that the kernel can
// back them with transparent huge pages.
//
// A shuffled batch reads observations from random places of a large array, and
// with 4 KiB pages nearly every observation costs a TLB miss. On Linux with
// transparent huge pages in "madvise" mode (the common default), memory is backed
// by 2 MiB pages only where a program asks for it with madvise(MADV_HUGEPAGE);
// NumPy asks for every allocation of 4 MiB or more. Measured on the 2-core Intel
// Xeon VM of docs/performance.md, a shuffled gather of 60000x784 float32 in
// batches of 128 ran at 8.1-8.3 GB/s from huge pages and 7.2-7.5 GB/s from 4 KiB
// pages; on the 2-core AMD EPYC VM, once the row kernel prefetched, 1.5x faster
// from huge pages (bench's BenchmarkKernel/pages).
//
// [Make] does what NumPy does: a slice of at least [Threshold] bytes is aligned to
// 2 MiB (over-allocating by at most 2 MiB) and advised before it is first touched.
// The advice is only a hint: where the kernel has no transparent huge pages, or
// the memory was touched before the advice (a heap span the runtime reused), the
// slice is ordinary memory. On other systems Make is make.
package hugemem

import "unsafe"

// Threshold is the size in bytes from which [Make] aligns and advises.
const Threshold = 4 << 20

// pageSize is the size of a huge page on the systems that have them (x86-64,
// arm64 with 4 KiB base pages).
const pageSize = 2 << 20

// Make returns a new zeroed slice of n elements of E, with length and capacity n.
// A slice of at least [Threshold] bytes starts at a 2 MiB boundary and is advised
// for huge pages. Make panics if n < 0, as make does.
func Make[E any](n int) []E {
	var z E
	size := int(unsafe.Sizeof(z))
	if size == 0 || n < Threshold/size {
		return make([]E, n)
	}
	pad := pageSize / size
	raw := make([]E, n+pad)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	off := int((p+pageSize-1)&^(pageSize-1)-p) / size
	s := raw[off : off+n : off+n]
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), n*size)
	advise(b[:len(b)&^(pageSize-1)])
	return s
}
