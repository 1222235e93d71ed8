package container

var (
	_ Batched[int, []int] = Slice[int](nil)
	_ Batched[int, []int] = (*Func[int])(nil)
)

// Slice is a slice seen as a container: observation i is s[i]. It is
// Batched[T, []T]; a batch is a []T.
//
// GetObs returns the element itself; when T holds references (a slice, a map, a
// pointer) the observation shares them with the element.
type Slice[T any] []T

// FromSlice returns s as a [Slice] without copying. It exists so that the element
// type is inferred: FromSlice(labels) instead of Slice[int](labels).
func FromSlice[T any](s []T) Slice[T] { return s }

// Nobs returns len(s).
func (s Slice[T]) Nobs() int { return len(s) }

// GetObs returns s[i].
func (s Slice[T]) GetObs(i int) T {
	CheckIndex("container.Slice.GetObs", i, len(s))
	return s[i]
}

// GetObsInto sets dst to the elements at idx, reusing dst's memory when its
// capacity is at least len(idx), and returns it.
func (s Slice[T]) GetObsInto(dst []T, idx []int) []T {
	CheckIndices("container.Slice.GetObsInto", idx, len(s))
	dst = Resize(dst, len(idx))
	for j, i := range idx {
		dst[j] = s[i]
	}
	return dst
}

// Func is a container computed on demand: observation i is f(i). It is the
// map-style dataset of PyTorch, for data that is cheaper to compute or load than to
// keep. Build one with [FromFunc].
type Func[T any] struct {
	n int
	f func(i int) T
}

// FromFunc returns a container of n observations whose observation i is f(i). f is
// called on every access and must be safe for concurrent use if the container is
// read by several goroutines. FromFunc panics if n < 0.
func FromFunc[T any](n int, f func(i int) T) *Func[T] {
	CheckArg(n >= 0, "container.FromFunc", "count", n, ">= 0")
	CheckArg(f != nil, "container.FromFunc", "function", "nil", "a function of the index")
	return &Func[T]{n: n, f: f}
}

// Nobs returns the count given to [FromFunc].
func (c *Func[T]) Nobs() int { return c.n }

// GetObs returns f(i).
func (c *Func[T]) GetObs(i int) T {
	CheckIndex("container.Func.GetObs", i, c.n)
	return c.f(i)
}

// GetObsInto sets dst to f(i) for each i in idx, reusing dst's memory when it can.
func (c *Func[T]) GetObsInto(dst []T, idx []int) []T {
	CheckIndices("container.Func.GetObsInto", idx, c.n)
	dst = Resize(dst, len(idx))
	for j, i := range idx {
		dst[j] = c.f(i)
	}
	return dst
}

// Resize returns s with length n, reusing its memory when cap(s) >= n and
// allocating a new slice otherwise. The contents are unspecified: callers overwrite
// them. It is the buffer rule of every GetObsInto in the kit.
func Resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}
