package transform

import (
	"sync"

	"github.com/obskit/obskit/container"
)

var (
	_ container.Random[int, []int]   = (*Mapped[string, int])(nil)
	_ container.Random[int, []int64] = (*MappedBatches[string, []string, int, []int64])(nil)
)

// Mapped is a container whose observation i is f(observation i of a source),
// computed on every access (MLUtils.mapobs). Build one with [Map].
type Mapped[T, U any] struct {
	src container.Container[T]
	f   func(T) U
}

// Map returns the lazy map of c by f: observation i is f(c.GetObs(i)), computed on
// every access, nothing stored. The result is Batched with slice batches: its
// GetObsInto applies f per observation. To map whole batches in one call, keeping
// a batched source's gather kernel, use [MapBatches]. f must be safe for
// concurrent use if the result is read by several goroutines.
func Map[T, U any](c container.Container[T], f func(T) U) *Mapped[T, U] {
	check("transform.Map", c == nil, "function", f == nil)
	return &Mapped[T, U]{src: c, f: f}
}

// Nobs returns the number of observations of the source.
func (m *Mapped[T, U]) Nobs() int { return m.src.Nobs() }

// BlockStarts returns the block starts of the source (container.Blocked), or
// nil when it has none: a map keeps every observation in its block.
func (m *Mapped[T, U]) BlockStarts() []int { return container.BlockStarts(m.src) }

// GetObs returns f(source.GetObs(i)).
func (m *Mapped[T, U]) GetObs(i int) U { return m.f(m.src.GetObs(i)) }

// GetObsInto sets dst to f of each source observation at idx, reusing dst's memory
// when it can hold len(idx) observations.
func (m *Mapped[T, U]) GetObsInto(dst []U, idx []int) []U {
	n := m.src.Nobs()
	container.CheckIndices("transform.Mapped.GetObsInto", idx, n)
	dst = container.Resize(dst, len(idx))
	for j, i := range idx {
		dst[j] = m.f(m.src.GetObs(i))
	}
	return dst
}

// GetObsRand returns f(source.GetObsRand(i, r)): a map of a random source draws
// its observations with r. It panics as the source's GetObs does.
func (m *Mapped[T, U]) GetObsRand(i int, r container.ObsRand) U {
	return m.f(container.GetObsRand(m.src, i, r))
}

// GetObsRandInto is GetObsInto with the source's observations drawn with r when
// the source is random.
func (m *Mapped[T, U]) GetObsRandInto(dst []U, idx []int, r container.ObsRand) []U {
	container.CheckIndices("transform.Mapped.GetObsRandInto", idx, m.src.Nobs())
	dst = container.Resize(dst, len(idx))
	for j, i := range idx {
		dst[j] = m.f(container.GetObsRand(m.src, i, r))
	}
	return dst
}

// MappedBatches is a container mapped observation by observation and batch by
// batch. Build one with [MapBatches].
type MappedBatches[T, B, U, C any] struct {
	src     container.Batched[T, B]
	obs     func(T) U
	batch   func(dst C, src B) C
	scratch sync.Pool // of *B: source batches, reused across calls
}

// MapBatches returns the lazy map of c by a pair of functions that must agree:
// obs maps one observation (GetObs is obs(c.GetObs(i))), and batch maps a whole
// batch of c into a batch of the result, reusing dst's memory when it can (the
// GetObsInto convention). GetObsInto gathers the source batch with c's own
// GetObsInto, into a source buffer kept in a pool of the result (no allocation
// once warm), and calls batch once: a batch loop over the result stays one gather
// and one call per batch, at the source's speed. obs and batch must be safe for
// concurrent use if the result is read by several goroutines.
func MapBatches[T, B, U, C any](c container.Batched[T, B], obs func(T) U, batch func(dst C, src B) C) *MappedBatches[T, B, U, C] {
	check("transform.MapBatches", c == nil, "observation function", obs == nil)
	check("transform.MapBatches", false, "batch function", batch == nil)
	m := &MappedBatches[T, B, U, C]{src: c, obs: obs, batch: batch}
	m.scratch.New = func() any { return new(B) }
	return m
}

// Nobs returns the number of observations of the source.
func (m *MappedBatches[T, B, U, C]) Nobs() int { return m.src.Nobs() }

// BlockStarts returns the block starts of the source (container.Blocked), or
// nil when it has none: a map keeps every observation in its block.
func (m *MappedBatches[T, B, U, C]) BlockStarts() []int { return container.BlockStarts(m.src) }

// GetObs returns obs(source.GetObs(i)).
func (m *MappedBatches[T, B, U, C]) GetObs(i int) U { return m.obs(m.src.GetObs(i)) }

// GetObsInto gathers the source batch at idx and returns batch(dst, that batch).
// The source batch is reused by later calls: batch must not keep it.
func (m *MappedBatches[T, B, U, C]) GetObsInto(dst C, idx []int) C {
	b := m.scratch.Get().(*B)
	*b = m.src.GetObsInto(*b, idx)
	dst = m.batch(dst, *b)
	m.scratch.Put(b)
	return dst
}

// GetObsRand returns obs(source.GetObsRand(i, r)).
func (m *MappedBatches[T, B, U, C]) GetObsRand(i int, r container.ObsRand) U {
	return m.obs(container.GetObsRand(m.src, i, r))
}

// GetObsRandInto is GetObsInto with the source batch drawn with r when the source
// is random.
func (m *MappedBatches[T, B, U, C]) GetObsRandInto(dst C, idx []int, r container.ObsRand) C {
	b := m.scratch.Get().(*B)
	*b = container.GetObsRandInto(m.src, *b, idx, r)
	dst = m.batch(dst, *b)
	m.scratch.Put(b)
	return dst
}
