package dense

import (
	"fmt"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/obsdim"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// ToArray returns the gonum matrix m as a 2-d array without copying: the array
// shares m's backing data (writes to either are seen by both). Rows are
// observations with [obsdim.First], columns with [obsdim.Last]. m's row stride is
// kept, so a view made by m.Slice works too.
//
// ToArray returns an error wrapping [arraycontainer.ErrShape] when m is nil, and
// one wrapping [obsdim.ErrAxis] when dim names no axis of a 2-d array. An empty
// matrix (the zero mat.Dense) gives an array of shape [0 0].
func ToArray(m *mat.Dense, dim obsdim.Dim) (*arraycontainer.Array[float64], error) {
	if m == nil {
		return nil, fmt.Errorf("dense.ToArray: nil matrix: %w", arraycontainer.ErrShape)
	}
	if _, err := dim.Resolve(2); err != nil {
		return nil, fmt.Errorf("dense.ToArray: %w", err)
	}
	raw := m.RawMatrix()
	if raw.Rows == 0 || raw.Cols == 0 {
		return arraycontainer.New([]float64{}, []int{raw.Rows, raw.Cols}, dim)
	}
	a, err := arraycontainer.NewStrided(raw.Data, []int{raw.Rows, raw.Cols}, []int{raw.Stride, 1}, 0, dim)
	if err != nil {
		return nil, fmt.Errorf("dense.ToArray: %w", err)
	}
	return a, nil
}

// FromArray returns the 2-d array a as a gonum matrix without copying: the matrix
// shares a's memory. It works when each row of a is contiguous (column stride 1)
// and rows do not overlap (row stride at least the number of columns), which holds
// for any row-major array, any batch from [arraycontainer.Array.GetObsInto], and
// any ObsRange or Range of them. The observation axis does not matter to gonum: with
// [obsdim.Last] the observations are the matrix's columns.
//
// Otherwise FromArray returns an error wrapping [arraycontainer.ErrLayout] that
// says why, and the caller can copy first (FromArray(a.Clone()) always works on a
// non-empty 2-d array; for a transposed view, FromArray of the untransposed array
// followed by mat.Dense.T may avoid the copy). It returns an error wrapping
// [arraycontainer.ErrShape] when a is not 2-d or has no elements (gonum has no
// empty matrices).
//
// For an array over a memory-mapped file (npy.Open, idx.Open) the matrix views
// the mapping but, being gonum's, does not keep it mapped: keep a (or a view of
// it) reachable while the matrix is used, or pass a.Clone(). gonum's reads of
// the matrix are not guarded against a file truncated after it was mapped (see
// arraycontainer.Array.Data).
func FromArray(a *arraycontainer.Array[float64]) (*mat.Dense, error) {
	if a == nil || a.Rank() != 2 {
		rank := -1
		if a != nil {
			rank = a.Rank()
		}
		return nil, fmt.Errorf("dense.FromArray: rank %d array, want 2: %w", rank, arraycontainer.ErrShape)
	}
	shape, strides := a.Shape(), a.Strides()
	r, c := shape[0], shape[1]
	if r == 0 || c == 0 {
		return nil, fmt.Errorf("dense.FromArray: shape [%d %d] has no elements and gonum has no empty matrices: %w", r, c, arraycontainer.ErrShape)
	}
	if c > 1 && strides[1] != 1 {
		return nil, fmt.Errorf("dense.FromArray: column stride is %d, gonum needs 1 (a transposed or strided view; Clone it first): %w", strides[1], arraycontainer.ErrLayout)
	}
	stride := strides[0]
	if r == 1 {
		stride = c
	}
	if stride < c {
		return nil, fmt.Errorf("dense.FromArray: row stride %d is less than the %d columns, gonum needs rows that do not overlap (Clone it first): %w", stride, c, arraycontainer.ErrLayout)
	}
	off := a.Offset()
	var m mat.Dense
	m.SetRawMatrix(blas64.General{
		Rows:   r,
		Cols:   c,
		Stride: stride,
		Data:   a.Data()[off : off+(r-1)*stride+c],
	})
	return &m, nil
}
