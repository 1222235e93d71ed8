package transform

import (
	"math/rand/v2"

	"github.com/obskit/obskit/container"
)

var _ container.Random[int, []int] = (*RandMapped[string, int])(nil)

// RandMapped is a container whose observation i is f(observation i of a source,
// the generator of observation i): a random map. Build one with [MapRand].
type RandMapped[T, U any] struct {
	src container.Container[T]
	f   func(T, *rand.Rand) U
}

// MapRand returns the lazy random map of c by f: observation i is f(x, rng) with
// x observation i of c and rng the generator of i of the pass
// (container.ObsRand.For(i)), so in a loop of package eachobs it depends on the
// loop's seed, the epoch and i alone, whatever the worker count, the order or a
// resume:
//
//	noisy := transform.MapRand(images, func(x Image, rng *rand.Rand) Image {
//		return jitter(x, rng.Float64())
//	})
//	for b := range eachobs.Batches(noisy, 64, eachobs.Shuffle(seed), eachobs.Workers(4)) { ... }
//
// The result is a [container.Random] container with slice batches, computed per
// observation. Read outside a loop (GetObs, GetObsInto), it draws as the zero
// container.ObsRand does: seed 0, epoch 0, the same every time. When c is random
// too, it is drawn with r.Stream(1), so that f and c draw independent numbers
// and random maps can be stacked.
//
// f must not keep rng: it is reseeded for the next observation. f must be safe
// for concurrent use if the result is read by several goroutines (each with its
// own ObsRand, as the loops' workers are).
func MapRand[T, U any](c container.Container[T], f func(x T, rng *rand.Rand) U) *RandMapped[T, U] {
	check("transform.MapRand", c == nil, "function", f == nil)
	return &RandMapped[T, U]{src: c, f: f}
}

// Nobs returns the number of observations of the source.
func (m *RandMapped[T, U]) Nobs() int { return m.src.Nobs() }

// BlockStarts returns the block starts of the source (container.Blocked), or
// nil when it has none.
func (m *RandMapped[T, U]) BlockStarts() []int { return container.BlockStarts(m.src) }

// GetObs returns observation i drawn with the zero container.ObsRand (seed 0,
// epoch 0). It panics as the source's GetObs does.
func (m *RandMapped[T, U]) GetObs(i int) U { return m.GetObsRand(i, container.ObsRand{}) }

// GetObsInto sets dst to the observations at idx drawn as GetObs draws them,
// reusing dst's memory when it can hold len(idx) observations. It allocates one
// generator per call.
func (m *RandMapped[T, U]) GetObsInto(dst []U, idx []int) []U {
	return m.GetObsRandInto(dst, idx, container.NewObsRand(0, 0))
}

// GetObsRand returns f(x, r.For(i)), with x observation i of the source (drawn
// with r.Stream(1) when the source is random). It panics with a
// [*container.IndexError] when i is out of range.
func (m *RandMapped[T, U]) GetObsRand(i int, r container.ObsRand) U {
	container.CheckIndex("transform.RandMapped.GetObsRand", i, m.src.Nobs())
	x := container.GetObsRand(m.src, i, r.Stream(1))
	return m.f(x, r.For(i))
}

// GetObsRandInto sets dst to the observations at idx drawn with r, as GetObsRand
// draws them, reusing dst's memory when it can hold len(idx) observations: no
// allocation beyond what f and the source allocate.
func (m *RandMapped[T, U]) GetObsRandInto(dst []U, idx []int, r container.ObsRand) []U {
	container.CheckIndices("transform.RandMapped.GetObsRandInto", idx, m.src.Nobs())
	dst = container.Resize(dst, len(idx))
	inner := r.Stream(1)
	for j, i := range idx {
		x := container.GetObsRand(m.src, i, inner)
		dst[j] = m.f(x, r.For(i))
	}
	return dst
}
