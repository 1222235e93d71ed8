package arraycontainer

import (
	"fmt"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/obsdim"
)

// Reshape returns the elements of a, in row-major order, as an array of the given
// shape with observation axis dim: NumPy's reshape. When a is contiguous the
// result is a view that shares a's memory (no copy, O(rank)); otherwise it is a
// newly allocated copy ([Array.Clone] first). One entry of shape may be -1: it is
// inferred from the others and the element count.
//
//	flat, err := images.Reshape([]int{-1, 64}, obsdim.First) // [1797 8 8] -> [1797 64]
//
// Reshape returns an error wrapping [ErrShape] when shape holds a negative entry
// other than one -1, or its element count differs from a's, and one wrapping
// [obsdim.ErrAxis] when dim names no axis of the new shape.
func (a *Array[E]) Reshape(shape []int, dim obsdim.Dim) (*Array[E], error) {
	const op = "Array.Reshape"
	shape = append([]int(nil), shape...)
	infer := -1
	known := make([]int, 0, len(shape))
	for k, s := range shape {
		switch {
		case s == -1 && infer < 0:
			infer = k
			continue
		case s < 0:
			return nil, fmt.Errorf("arraycontainer.%s: shape %v has entry %d on axis %d (only one -1 is allowed): %w", op, shape, s, k, ErrShape)
		}
		known = append(known, s)
	}
	m, err := checkShape(op, known)
	if err != nil {
		return nil, err
	}
	n := a.Len()
	if infer >= 0 {
		if m == 0 || n%m != 0 {
			return nil, fmt.Errorf("arraycontainer.%s: cannot infer the -1 of shape %v for %d elements: %w", op, shape, n, ErrShape)
		}
		shape[infer] = n / m
		m = n
	}
	if m != n {
		return nil, fmt.Errorf("arraycontainer.%s: shape %v holds %d elements, the array of shape %v holds %d: %w", op, shape, m, a.shape, n, ErrShape)
	}
	d, err := resolveDim(op, dim, len(shape))
	if err != nil {
		return nil, err
	}
	src := a
	if !a.IsContiguous() {
		src = a.Clone()
	}
	return src.share(shape, nil, src.offset, d), nil
}

// Resize returns an array of the given shape, row-major, with observation axis
// dim, that reuses dst's memory (its data and its header) when dst can hold it
// and is newly allocated otherwise: the buffer convention of GetObsInto, for
// containers of arrays written outside this package. The elements are not
// cleared. A nil dst allocates. Resize panics with a [*container.ArgError] when
// shape is invalid or dim names no axis of it.
func Resize[E Number](dst *Array[E], shape []int, dim obsdim.Dim) *Array[E] {
	n, err := checkShape("Resize", shape)
	if err != nil {
		panic(&container.ArgError{Op: "arraycontainer.Resize", Arg: "shape", Value: shapeString(shape), Want: "a valid shape (" + err.Error() + ")"})
	}
	d, err := resolveDim("Resize", dim, len(shape))
	if err != nil {
		panic(&container.ArgError{Op: "arraycontainer.Resize", Arg: "observation axis", Value: dim, Want: "an axis of the shape (" + err.Error() + ")"})
	}
	return reuse(dst, n, shape, d, -1)
}

// ResizeLike returns an array of like's shape and observation axis, row-major,
// that reuses dst's memory when it can hold it and is newly allocated otherwise,
// as [Resize] does: the buffer of an element-wise conversion of like. The
// elements are not cleared.
func ResizeLike[E, F Number](dst *Array[E], like *Array[F]) *Array[E] {
	return reuse(dst, like.Len(), like.shape, like.dim, -1)
}

// reuse makes dst (nil: a new array) a row-major array of n elements, of the
// given shape (with batch at the observation axis dim when batch >= 0) and
// observation axis dim, reusing its data and header when they can hold them:
// the buffer convention of GetObsInto, Resize and ResizeLike. Data newly
// allocated is Go memory, so dst then no longer keeps a file mapping alive.
func reuse[E Number](dst *Array[E], n int, shape []int, dim, batch int) *Array[E] {
	if dst == nil {
		dst = new(Array[E])
	}
	if cap(dst.data) < n {
		dst.mem = nil
	}
	r := len(shape)
	dst.data = container.Resize(dst.data, n)
	dst.shape = container.Resize(dst.shape, r)
	dst.strides = container.Resize(dst.strides, r)
	copy(dst.shape, shape)
	if batch >= 0 {
		dst.shape[dim] = batch
	}
	rowMajor(dst.strides, dst.shape)
	dst.offset, dst.dim = 0, dim
	return dst
}
