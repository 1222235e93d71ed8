// Package gather holds the strided-walk kernels behind arraycontainer: gathering
// the observations at an index list out of a strided N-d array into a contiguous
// row-major buffer ([Gather]), copying a strided array into contiguous memory
// (Clone and the observation-first relayout, [Copy]), setting every element of a
// strided array ([Fill]) and comparing two ([Equal]).
//
// They share one walk: the axes of a layout are merged where memory allows, as
// NumPy's iterator coalesces them, and a counter steps through the merged axes
// one row of the last axis at a time, tracking the element offset as it goes.
//
// A gather of contiguous observations goes through the row kernel: software
// prefetch a fixed distance ahead along the gathered rows for arrays larger
// than the CPU's largest cache and a copy routine chosen by row size and CPU
// features, in assembly on amd64 and arm64 and a loop of copy() calls
// elsewhere or with the purego build tag. [GatherPart] gathers
// part of a batch, so that several workers can fill one batch together; the
// kernels themselves start no goroutine.
//
// The kernels are generic over the element type, never allocate, and trust their
// callers: every index and every layout is validated by package arraycontainer
// before a kernel runs. A layout is data + shape + strides (in elements, any sign)
// + offset, as in NumPy.
package gather
