package container

// AsBatched returns c as a Batched container whose batches are []T: the one step
// between a type with only Nobs and GetObs and the kit's subsets, batch views,
// loops and tuples (the package documentation says why Go needs it). If c already
// is a Batched[T, []T] it is returned unchanged; otherwise the result gathers by
// calling c.GetObs once per index.
func AsBatched[T any](c Container[T]) Batched[T, []T] {
	if b, ok := c.(Batched[T, []T]); ok {
		return b
	}
	return adapter[T]{c}
}

var _ Random[int, []int] = adapter[int]{}

type adapter[T any] struct{ c Container[T] }

func (a adapter[T]) Nobs() int      { return a.c.Nobs() }
func (a adapter[T]) GetObs(i int) T { return a.c.GetObs(i) }

func (a adapter[T]) GetObsInto(dst []T, idx []int) []T {
	CheckIndices("container.AsBatched.GetObsInto", idx, a.c.Nobs())
	dst = Resize(dst, len(idx))
	for j, i := range idx {
		dst[j] = a.c.GetObs(i)
	}
	return dst
}

// GetObsRand returns observation i drawn with r when the wrapped container is
// random, as [GetObsRand] does.
func (a adapter[T]) GetObsRand(i int, r ObsRand) T { return GetObsRand(a.c, i, r) }

// GetObsRandInto gathers the observations at idx, each drawn with r when the
// wrapped container is random.
func (a adapter[T]) GetObsRandInto(dst []T, idx []int, r ObsRand) []T {
	CheckIndices("container.AsBatched.GetObsRandInto", idx, a.c.Nobs())
	dst = Resize(dst, len(idx))
	for j, i := range idx {
		dst[j] = GetObsRand(a.c, i, r)
	}
	return dst
}

// AppendObs appends the bytes of observation i to dst, through the wrapped
// container's AppendObs when it has one ([AppendObs]).
func (a adapter[T]) AppendObs(dst []byte, i int) ([]byte, error) { return AppendObs(a.c, dst, i) }

// Where returns where observation i is stored, as the wrapped container says
// ([Where]).
func (a adapter[T]) Where(i int) string { return Where(a.c, i) }
