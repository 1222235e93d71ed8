package container

// A Container is a finite collection of observations addressed by index
// 0..Nobs()-1.
//
// GetObs(i) returns observation i and panics with an [*IndexError] when i is outside
// [0, Nobs()). Implementations must be safe for concurrent use by several readers and
// must not change Nobs while they are in use.
type Container[T any] interface {
	// Nobs returns the number of observations.
	Nobs() int
	// GetObs returns observation i.
	GetObs(i int) T
}

// A Batched container can gather many observations at once.
//
// GetObsInto writes the observations at idx into dst and returns the batch. The
// indices may come in any order and may repeat; each must be in [0, Nobs()) or
// GetObsInto panics with an [*IndexError]. When dst can hold len(idx) observations
// its memory is reused and no allocation happens; otherwise (always for the zero
// value of B) a new batch is allocated. Callers keep the result, as with append:
//
//	buf = c.GetObsInto(buf, idx)
//
// The batch must not share memory with the container, and dst must not be a view of
// the container's own storage.
type Batched[T, B any] interface {
	Container[T]
	// GetObsInto gathers the observations at idx into dst, reusing its memory when
	// it can, and returns the batch.
	GetObsInto(dst B, idx []int) B
}

// An IndexView is a container whose observation i is observation MapIndices(i) of
// a source container, unchanged: the kit's subsets, shuffles, splits, folds and
// partitions. It is an optional ability, found by type assertion as [io.Copy]
// finds [io.WriterTo], and it only ever changes speed: a loop gathers from the
// source with the mapped indices in one call, a reader of labels maps once and
// reads the source's labels, a conversion gathers and converts straight from the
// source's memory. A container that is not an IndexView is read through its own
// methods, with the same result.
type IndexView[T, B any] interface {
	Batched[T, B]
	// Source returns the container every observation of the view comes from.
	Source() Batched[T, B]
	// MapIndices writes the source indices of the view indices idx into dst,
	// reusing dst's memory when it can, and returns it; dst may be idx itself.
	// It panics with an [*IndexError] when an index is out of range.
	MapIndices(dst, idx []int) []int
}
