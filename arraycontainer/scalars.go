package arraycontainer

import (
	"fmt"

	"github.com/obskit/obskit/container"
)

// Scalars returns the elements of a rank-1 array as a [container.Slice], a
// container whose observations are plain E values rather than rank-0 arrays: the
// form a label vector takes as a member of a tuple. When the elements are
// contiguous (stride 1) the slice shares a's memory and nothing is copied;
// otherwise, and for an array over a memory-mapped file (npy.Open, idx.Open),
// whose mapping a plain slice could not keep alive, it is newly allocated.
// Scalars returns an error wrapping [ErrShape] when a is not rank 1.
func (a *Array[E]) Scalars() (container.Slice[E], error) {
	if len(a.shape) != 1 {
		return nil, fmt.Errorf("arraycontainer.Array.Scalars: shape %v is rank %d, want 1: %w", a.shape, len(a.shape), ErrShape)
	}
	n := a.shape[0]
	if (a.strides[0] == 1 || n <= 1) && a.mem == nil {
		end := a.offset + n
		if n == 0 {
			return container.Slice[E]{}, nil
		}
		return a.data[a.offset:end:end], nil
	}
	return container.Slice[E](a.Clone().data), nil
}
