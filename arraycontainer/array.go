package arraycontainer

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"unsafe"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/fileio/mmap"
	"github.com/obskit/obskit/internal/gather"
	"github.com/obskit/obskit/internal/hugemem"
	"github.com/obskit/obskit/obsdim"
	"golang.org/x/exp/constraints"
)

var (
	_ container.Batched[*Array[float32], *Array[float32]] = (*Array[float32])(nil)
	_ container.Batched[*Array[uint8], *Array[uint8]]     = (*Array[uint8])(nil)
)

// Number is the constraint of array elements: every Go integer and floating-point
// type.
type Number interface {
	constraints.Integer | constraints.Float
}

// MaxRank is the largest rank an [Array] may have, NumPy 2's limit. Constructors
// return an error wrapping [ErrShape] for more axes.
const MaxRank = 64

// The kernels size their scratch by their own MaxRank; this fails to compile if
// the two ever differ.
const _ = uint(MaxRank-gather.MaxRank) + uint(gather.MaxRank-MaxRank)

var (
	// ErrShape is wrapped by errors about a shape: a negative dimension, too many
	// axes, an element count that overflows int, a data length that does not match
	// the shape, or a rank an operation does not accept.
	ErrShape = errors.New("invalid shape")
	// ErrLayout is wrapped by errors about strides and offsets: an element that
	// would fall outside the data, or a layout another representation (such as a
	// gonum matrix) cannot express without copying.
	ErrLayout = errors.New("invalid layout")
)

// An Array is a dense N-d array of numbers bound to one observation axis: a
// [container.Batched] whose observation i is the sub-array at index i of that axis
// and whose batches are arrays too.
//
// An Array is a view: data + shape + strides (in elements) + offset, as in NumPy.
// Element (i0, i1, ...) lives at data[offset + i0*strides[0] + i1*strides[1] + ...].
// Several arrays may share one backing slice; the methods that return views say so,
// and the ones that copy say "newly allocated".
//
// Reading an Array from several goroutines at once is safe. Writing (with [Array.Set]
// or through [Array.Data]) while another goroutine reads the same elements is a data
// race, as for any slice.
//
// The zero Array holds no data and is not a valid array; build one with [New],
// [NewStrided] or [Zeros]. A pointer to a zero Array is, like nil, an
// empty buffer for [Array.GetObsInto] to fill.
type Array[E Number] struct {
	data    []E
	shape   []int
	strides []int
	offset  int
	dim     int          // resolved observation axis; -1 for rank 0
	mem     *mmap.Region // the file mapping data views, kept alive by every view; nil for Go memory
}

// New returns a row-major (C order) array viewing data, with observations along
// dim. It does not copy: the array and data share memory.
//
// New returns an error wrapping [ErrShape] when a dimension is negative, the rank
// exceeds [MaxRank], the element count overflows int, or len(data) is not the
// product of shape; and one wrapping [obsdim.ErrAxis] when dim names no axis of
// the shape. A rank-0 shape ([]int{} or nil) makes a scalar holding data[0]; it
// has no observation axis and accepts only [obsdim.First] or [obsdim.Last] as dim.
func New[E Number](data []E, shape []int, dim obsdim.Dim) (*Array[E], error) {
	n, err := checkShape("New", shape)
	if err != nil {
		return nil, err
	}
	if len(data) != n {
		return nil, fmt.Errorf("arraycontainer.New: %d elements for shape %v, want %d: %w", len(data), shape, n, ErrShape)
	}
	d, err := resolveDim("New", dim, len(shape))
	if err != nil {
		return nil, err
	}
	return header(data, shape, nil, 0, d), nil
}

// NewStrided returns an array viewing data with any strides (in elements, of any
// sign, zero included) and offset: Fortran-ordered data, views of other arrays,
// memory-mapped files. It does not copy.
//
// NewStrided returns an error wrapping [ErrShape] for a bad shape (see [New]) or
// len(strides) != len(shape), one wrapping [ErrLayout] when some element would fall
// outside data, and one wrapping [obsdim.ErrAxis] when dim names no axis. An array
// with no elements (a zero dimension) reads no data, so its strides and offset are
// not checked.
func NewStrided[E Number](data []E, shape, strides []int, offset int, dim obsdim.Dim) (*Array[E], error) {
	n, err := checkShape("NewStrided", shape)
	if err != nil {
		return nil, err
	}
	if len(strides) != len(shape) {
		return nil, fmt.Errorf("arraycontainer.NewStrided: %d strides for shape %v: %w", len(strides), shape, ErrShape)
	}
	if n > 0 {
		if err := checkExtent(len(data), shape, strides, offset); err != nil {
			return nil, err
		}
	}
	d, err := resolveDim("NewStrided", dim, len(shape))
	if err != nil {
		return nil, err
	}
	return header(data, shape, strides, offset, d), nil
}

// Zeros returns a newly allocated row-major array of zeros with the given shape
// and observation axis. Its errors are those of [New].
func Zeros[E Number](shape []int, dim obsdim.Dim) (*Array[E], error) {
	n, err := checkShape("Zeros", shape)
	if err != nil {
		return nil, err
	}
	return New(hugemem.Make[E](n), shape, dim)
}

// newArray returns an array whose shape and strides share one allocation.
func newArray[E Number](rank int) *Array[E] {
	buf := make([]int, 2*rank)
	return &Array[E]{shape: buf[:rank:rank], strides: buf[rank:]}
}

// header returns a new array over data with copies of shape and strides (the
// row-major strides of shape when strides is nil), offset and the resolved
// observation axis dim. It checks nothing: every constructor, view and copy
// validates first and then builds its result here.
func header[E Number](data []E, shape, strides []int, offset, dim int) *Array[E] {
	a := newArray[E](len(shape))
	copy(a.shape, shape)
	if strides == nil {
		rowMajor(a.strides, a.shape)
	} else {
		copy(a.strides, strides)
	}
	a.data, a.offset, a.dim = data, offset, dim
	return a
}

// checkShape validates shape and returns its element count.
func checkShape(op string, shape []int) (int, error) {
	if len(shape) > MaxRank {
		return 0, fmt.Errorf("arraycontainer.%s: rank %d exceeds MaxRank %d: %w", op, len(shape), MaxRank, ErrShape)
	}
	n := 1
	for k, s := range shape {
		if s < 0 {
			return 0, fmt.Errorf("arraycontainer.%s: negative dimension %d on axis %d of shape %s: %w", op, s, k, shapeString(shape), ErrShape)
		}
	}
	for _, s := range shape {
		if s == 0 {
			return 0, nil
		}
		if n > math.MaxInt/s {
			return 0, fmt.Errorf("arraycontainer.%s: element count of shape %s overflows int: %w", op, shapeString(shape), ErrShape)
		}
		n *= s
	}
	return n, nil
}

// checkExtent reports whether every element of a non-empty layout lies in
// [0, length).
func checkExtent(length int, shape, strides []int, offset int) error {
	if offset < 0 || offset >= length {
		return fmt.Errorf("arraycontainer.NewStrided: offset %d outside data of length %d: %w", offset, length, ErrLayout)
	}
	lo, hi := offset, offset
	for k, s := range strides {
		if shape[k] == 1 || s == 0 {
			continue
		}
		abs := s
		if abs < 0 {
			abs = -abs
		}
		// Element 1 along axis k lies at offset+s, so |s| < length for a valid
		// layout; testing it first keeps (shape[k]-1)*abs from overflowing.
		if abs >= length || shape[k]-1 > length/abs {
			return fmt.Errorf("arraycontainer.NewStrided: axis %d (length %d, stride %d) reaches outside data of length %d: %w", k, shape[k], s, length, ErrLayout)
		}
		if s > 0 {
			hi += (shape[k] - 1) * s
		} else {
			lo += (shape[k] - 1) * s
		}
		if lo < 0 || hi >= length {
			return fmt.Errorf("arraycontainer.NewStrided: shape %v with strides %v and offset %d spans elements %d..%d, outside data of length %d: %w",
				shape, strides, offset, lo, hi, length, ErrLayout)
		}
	}
	return nil
}

func resolveDim(op string, dim obsdim.Dim, rank int) (int, error) {
	if rank == 0 {
		if dim == obsdim.First || dim == obsdim.Last {
			return -1, nil
		}
		return 0, fmt.Errorf("arraycontainer.%s: observation axis %v of a rank-0 array: %w (a scalar has no axes; use obsdim.First)", op, dim, obsdim.ErrAxis)
	}
	d, err := dim.Resolve(rank)
	if err != nil {
		return 0, fmt.Errorf("arraycontainer.%s: %w", op, err)
	}
	return d, nil
}

// rowMajor sets strides to the C-order strides of shape.
func rowMajor(strides, shape []int) {
	s := 1
	for k := len(shape) - 1; k >= 0; k-- {
		strides[k] = s
		s *= shape[k]
	}
}

// Shape returns a newly allocated copy of the array's dimensions.
func (a *Array[E]) Shape() []int { return append([]int(nil), a.shape...) }

// Strides returns a newly allocated copy of the array's strides, in elements.
func (a *Array[E]) Strides() []int { return append([]int(nil), a.strides...) }

// Offset returns the position in [Array.Data] of the element at index (0, 0, ...).
func (a *Array[E]) Offset() int { return a.offset }

// Data returns the backing slice. It is shared, not copied: writes through it
// change the array and every view of the same memory. With a non-contiguous
// layout, some of its elements may belong to no element of the array.
//
// For an array over a memory-mapped file (npy.Open, idx.Open) the slice is the
// mapping, which stays mapped only while an array viewing it is reachable: keep
// a (or a view of it) alive while the slice is used, with runtime.KeepAlive(a)
// after the last use if nothing else does, or the mapping may be released under
// the slice. Reads and writes through the slice are not guarded as the methods'
// are: if the file was truncated after it was mapped, touching a page it lost
// is a fatal SIGBUS rather than a panic (see the package documentation).
func (a *Array[E]) Data() []E { return a.data }

// Dim returns the resolved observation axis, or -1 for a rank-0 array.
func (a *Array[E]) Dim() int { return a.dim }

// Rank returns the number of axes.
func (a *Array[E]) Rank() int { return len(a.shape) }

// Len returns the number of elements, the product of the shape (1 for rank 0).
func (a *Array[E]) Len() int {
	n := 1
	for _, s := range a.shape {
		n *= s
	}
	return n
}

// Bytes returns the size of the array's elements in bytes: Len times the size
// of an element. A loop measured with eachobs.Measure counts the bytes it
// gathers with it.
func (a *Array[E]) Bytes() int {
	var zero E
	return a.Len() * int(unsafe.Sizeof(zero))
}

// ObsShape returns a newly allocated copy of the shape of one observation: the
// shape without the observation axis. It panics on a rank-0 array.
func (a *Array[E]) ObsShape() []int {
	a.mustObsAxis("ObsShape")
	out := make([]int, 0, len(a.shape)-1)
	out = append(out, a.shape[:a.dim]...)
	return append(out, a.shape[a.dim+1:]...)
}

// ObsLen returns the number of elements of one observation. It panics on a rank-0
// array.
func (a *Array[E]) ObsLen() int {
	a.mustObsAxis("ObsLen")
	n := 1
	for k, s := range a.shape {
		if k != a.dim {
			n *= s
		}
	}
	return n
}

// Nobs returns the length of the observation axis.
//
// Nobs panics on a rank-0 array: a scalar has no observation axis (as len() of a
// 0-d NumPy array raises), and treating it as an empty container would silently
// drop its value. Read a scalar with [Array.Item].
func (a *Array[E]) Nobs() int {
	a.mustObsAxis("Nobs")
	return a.shape[a.dim]
}

func (a *Array[E]) mustObsAxis(op string) {
	if len(a.shape) == 0 {
		panic(&container.ArgError{Op: "arraycontainer.Array." + op, Arg: "array", Value: "of rank 0", Want: "an observation axis (a rank-0 array has none; read its value with Item)"})
	}
}

// IsContiguous reports whether the elements are stored in row-major order with no
// gaps, so that the array is data[offset : offset+Len()]. Axes of length 1 may have
// any stride; an array with no elements is contiguous.
func (a *Array[E]) IsContiguous() bool {
	if a.Len() == 0 {
		return true
	}
	want := 1
	for k := len(a.shape) - 1; k >= 0; k-- {
		if a.shape[k] == 1 {
			continue
		}
		if a.strides[k] != want {
			return false
		}
		want *= a.shape[k]
	}
	return true
}

// index returns the position in data of the element at ix, panicking with a
// message naming op when ix does not address an element.
func (a *Array[E]) index(op string, ix []int) int {
	if len(ix) != len(a.shape) {
		panic(&container.ArgError{Op: "arraycontainer.Array." + op, Arg: "number of indices", Value: len(ix), Want: fmt.Sprintf("%d for a rank-%d array", len(a.shape), len(a.shape))})
	}
	off := a.offset
	for k, i := range ix {
		if uint(i) >= uint(a.shape[k]) {
			panic(&container.IndexError{Op: fmt.Sprintf("arraycontainer.Array.%s on axis %d", op, k), Index: i, Nobs: a.shape[k]})
		}
		off += i * a.strides[k]
	}
	return off
}

// At returns the element at the index ix, one index per axis. It panics when
// len(ix) differs from the rank or an index is out of range.
func (a *Array[E]) At(ix ...int) E {
	if a.mem != nil {
		return a.atMapped(ix)
	}
	return a.data[a.index("At", ix)]
}

// atMapped is At guarded against faults of a mapped file, out of line so that
// At stays inlinable.
func (a *Array[E]) atMapped(ix []int) E {
	defer a.mem.Recover(a.mem.Guard())
	return a.data[a.index("At", ix)]
}

// Set sets the element at index ix to v, writing through to the shared memory. It
// panics like [Array.At].
func (a *Array[E]) Set(v E, ix ...int) {
	if a.mem != nil {
		a.setMapped(v, ix)
		return
	}
	a.data[a.index("Set", ix)] = v
}

// setMapped is Set guarded against faults of a mapped file.
func (a *Array[E]) setMapped(v E, ix []int) {
	defer a.mem.Recover(a.mem.Guard())
	a.data[a.index("Set", ix)] = v
}

// Item returns the only element of an array of one element, such as a rank-0
// array (what GetObs of a rank-1 array returns). It panics when Len() != 1.
func (a *Array[E]) Item() E {
	if a.Len() != 1 {
		panic(&container.ArgError{Op: "arraycontainer.Array.Item", Arg: "array", Value: fmt.Sprintf("of shape %v (%d elements)", a.shape, a.Len()), Want: "1 element"})
	}
	if a.mem != nil {
		defer a.mem.Recover(a.mem.Guard())
	}
	return a.data[a.offset] // the only element has index (0, 0, ...)
}

// Equal reports whether a and b hold the same values in the same shape along the
// same observation axis, whatever their strides and offsets. NaN equals NaN (a
// missing value equals itself), and -0 equals +0. Two nil arrays are equal. go-cmp
// uses this method to compare arrays.
func (a *Array[E]) Equal(b *Array[E]) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.dim != b.dim || len(a.shape) != len(b.shape) {
		return false
	}
	for k := range a.shape {
		if a.shape[k] != b.shape[k] {
			return false
		}
	}
	if a.mem != nil {
		defer a.mem.Recover(a.mem.Guard())
	}
	if b.mem != nil {
		defer b.mem.Recover(b.mem.Guard())
	}
	return gather.Equal(a.data, b.data, a.shape, a.strides, b.strides, a.offset, b.offset)
}

// shapeString formats a shape as fmt's %v does, without letting it escape: the
// shape arguments of hot functions (Resize) stay on the caller's stack.
func shapeString(shape []int) string {
	b := []byte{'['}
	for k, s := range shape {
		if k > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(s), 10)
	}
	return string(append(b, ']'))
}
