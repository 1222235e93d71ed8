package gather

import (
	"unsafe"

	"golang.org/x/exp/constraints"
)

// Elem is the constraint of the gather kernel's elements: every Go integer and
// floating-point type, the element types of arraycontainer (its Number, the same
// constraint). None holds a pointer, which is what lets the row kernel move them
// with assembly that the garbage collector does not see.
type Elem interface {
	constraints.Integer | constraints.Float
}

// Gather writes the sub-array of src selected by idx along axis into dst, in
// row-major order of the output shape (shape with shape[axis] replaced by
// len(idx)). dst must have exactly that many elements. src is described by shape,
// strides and offset (validated by the caller, rank at most MaxRank); every idx
// entry must lie in [0, shape[axis]).
//
// The axes before the observation axis (outer) and after it (inner, one
// observation's element) are merged separately. Then, for every outer position:
//
//   - the observation is one element (observation-last data): a tight loop that
//     picks one element per index and, beside each pick, prefetches the same
//     pick of the next outer position (pickColumn), or copies of runs when the
//     indices run consecutively through unit-stride memory;
//   - the observation is a contiguous block: the row kernel ([rows]), which
//     prefetches a fixed distance ahead along the gathered rows and picks a copy
//     routine by row size; runs of consecutive indices move as one copy when
//     observations are adjacent in memory (observation-first data), so a
//     contiguous range moves as one memmove;
//   - otherwise: a strided walk over the merged inner axes, copying rows whose
//     stride is 1.
func Gather[E Elem](dst, src []E, shape, strides []int, offset, axis int, idx []int) {
	GatherPart(dst, src, shape, strides, offset, axis, idx, 0, len(idx))
}

// GatherPart does the part of [Gather] that idx[lo:hi] selects: it writes exactly
// the elements of dst that Gather would write for those indices, and no other,
// so that calls for disjoint ranges [lo, hi) may run at once on different
// goroutines and together write what one Gather writes. dst is the whole batch,
// as for Gather. It panics if lo and hi do not satisfy 0 <= lo <= hi <= len(idx).
//
// For observation-first data the part is the contiguous block of dst that holds
// observations lo to hi-1; for observation-last data, a run of hi-lo elements in
// every outer row of the batch.
func GatherPart[E Elem](dst, src []E, shape, strides []int, offset, axis int, idx []int, lo, hi int) {
	if lo < 0 || hi < lo || hi > len(idx) {
		panic("obskit/internal/gather.GatherPart: part out of range")
	}
	if len(dst) == 0 || lo == hi {
		return
	}
	var outer, inner axes
	outer.merge(shape[:axis], strides[:axis])
	inner.merge(shape[axis+1:], strides[axis+1:])
	obsLen := inner.size()
	step := len(idx) * obsLen // dst elements per outer position
	part := idx[lo:hi]
	first, last := lo*obsLen, hi*obsLen // the part's elements in each outer position
	sa := strides[axis]
	p := summarize(part)
	var c counter
	base := offset
	switch {
	case obsLen == 1:
		ahead := planFor(len(src)*int(unsafe.Sizeof(src[0]))).dist > 0 // the next position's picks
		for o := 0; o < len(dst); o += step {
			next := c.next(&outer, outer.n, base)
			d := dst[o+first : o+last]
			switch {
			case sa == 1 && p.runs:
				blocks(d, src, base, 1, 1, part, p)
			case hasColumn && p.inBounds(len(src), base, sa, 1):
				pre := next
				if o+step >= len(dst) {
					pre = base // the last position: nothing ahead
				}
				pickColumn(d, src, base, pre, sa, part)
			default:
				if ahead && o+step < len(dst) {
					prefetchPicks(src, next, sa, part)
				}
				column(d, src, base, sa, part)
			}
			base = next
		}
	case inner.contiguous():
		for o := 0; o < len(dst); o += step {
			blocks(dst[o+first:o+last], src, base, sa, obsLen, part, p)
			base = c.next(&outer, outer.n, base)
		}
	default:
		for o := 0; o < len(dst); o += step {
			d := dst[o+first : o+last]
			for j, i := range part {
				walk(d[j*obsLen:(j+1)*obsLen], src, base+i*sa, &inner)
			}
			base = c.next(&outer, outer.n, base)
		}
	}
}

// column sets d[j] = src[base+idx[j]*sa]: one element per observation.
//
// It is kept out of line: inlined into Gather, whose stack holds the axis
// scratch, its loop spilled its counters to memory and ran 25% slower.
//
//go:noinline
func column[E any](d, src []E, base, sa int, idx []int) {
	d = d[:len(idx)]
	if sa == 1 {
		s := src[base:]
		for j, i := range idx {
			d[j] = s[i]
		}
		return
	}
	for j, i := range idx {
		d[j] = src[base+i*sa]
	}
}

// pickColumn sets d[j] = src[base+idx[j]*sa] with the assembly's column
// loop, which prefetches src[next+idx[j]*sa] beside each pick. The caller has
// checked the picks against src (picks.inBounds).
//
// On the Zen 3 VM of docs/performance.md (bench's BenchmarkKernel/<regime>/last)
// it gathered 784 x 128 float32 picks 1.4-2x faster than the same loop
// without prefetch, from an array in the cache and from one in memory, in the
// runs up to 2026-11-26 03:46 UTC; in the two later runs, when the VM's memory
// answered faster, it was level with that loop from the cache and 0.88-0.92
// of it from memory. It stays: it gained up to 2x and lost at most 12%.
// Requesting all of the next row's picks before each row (the kernel's way
// before) was up to 1.6x slower.
func pickColumn[E Elem](d, src []E, base, next, sa int, idx []int) {
	if len(idx) == 0 {
		return
	}
	size := int(unsafe.Sizeof(d[0]))
	_ = d[len(idx)-1]
	columnAsm(unsafe.Pointer(unsafe.SliceData(d)), unsafe.Pointer(unsafe.SliceData(src)),
		base*size, next*size, sa*size, unsafe.SliceData(idx), len(idx), size)
}

// walk copies the layout x at off in src to the contiguous d, one row of the last
// merged axis at a time.
func walk[E any](d, src []E, off int, x *axes) {
	if x.n == 0 {
		d[0] = src[off]
		return
	}
	last := x.n - 1
	n, s := x.shape[last], x.stride[last]
	if last == 0 { // one row: no counter to set up
		if s == 1 {
			copy(d, src[off:off+n])
		} else {
			stridedRow(d, src, off, s)
		}
		return
	}
	var c counter
	for r := 0; r < len(d); r += n {
		row := d[r : r+n]
		if s == 1 {
			copy(row, src[off:off+n])
		} else {
			stridedRow(row, src, off, s)
		}
		off = c.next(x, last, off)
	}
}

// stridedRow sets row[j] = src[off+j*s].
//
// Like column, it is kept out of line so that its loop keeps its counters in
// registers.
//
//go:noinline
func stridedRow[E any](row, src []E, off, s int) {
	for j := range row {
		row[j] = src[off]
		off += s
	}
}
