package convert

import (
	"fmt"
	"sync"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/obsdim"
	"golang.org/x/exp/constraints"
)

var _ container.Batched[int32, []int32] = (*Scalars[int32])(nil)

// OneHot returns the container of the labels of c encoded one-hot: observation
// i is an array of classes values of type To, hot at index c.GetObs(i) and 0
// elsewhere, and a batch is a [len(idx) classes] array. The target type is hot's:
//
//	y1, err := convert.OneHot(y, 10, float32(1))
//
// Every label is read once, now, and OneHot returns an error wrapping [ErrRange]
// that names the first label outside [0, classes) and its index. It panics with a
// [*container.ArgError] when classes < 1.
func OneHot[L constraints.Integer, To arraycontainer.Number](c container.Batched[L, []L], classes int, hot To) (*Arrays[To], error) {
	container.CheckArg(classes >= 1, "convert.OneHot", "classes", classes, ">= 1")
	for i := range c.Nobs() {
		if l := c.GetObs(i); l < 0 || uint64(l) >= uint64(classes) {
			return nil, fmt.Errorf("convert.OneHot: label %d at index %d outside [0, %d): %w", l, i, classes, ErrRange)
		}
	}
	k := &onehot[L, To]{src: c, n: c.Nobs(), classes: classes, hot: hot}
	k.pool.New = func() any { return new(labelScratch[L]) }
	return &Arrays[To]{k: k, blocks: container.BlockStarts(c)}, nil
}

type labelScratch[L any] struct {
	labels []L
	shape  [2]int
}

type onehot[L constraints.Integer, To arraycontainer.Number] struct {
	src     container.Batched[L, []L]
	n       int
	classes int
	hot     To
	pool    sync.Pool // of *labelScratch[L]
}

func (k *onehot[L, To]) nobs() int { return k.n }

func (k *onehot[L, To]) layout() ([]int, int) { return []int{k.classes}, 0 }

func (k *onehot[L, To]) into(dst *arraycontainer.Array[To], idx []int, d draw) *arraycontainer.Array[To] {
	sc := k.pool.Get().(*labelScratch[L])
	defer k.pool.Put(sc)
	sc.labels = gather(k.src, sc.labels, idx, d)
	sc.shape = [2]int{len(idx), k.classes}
	dst = arraycontainer.Resize(dst, sc.shape[:], obsdim.First)
	out := dst.Data()
	clear(out)
	for j, l := range sc.labels {
		if l < 0 || uint64(l) >= uint64(k.classes) { // checked when wrapped: c changed
			panic(fmt.Errorf("convert.OneHot: label %d outside [0, %d): the container changed after it was wrapped: %w", l, k.classes, ErrRange))
		}
		out[j*k.classes+int(l)] = k.hot
	}
	return dst
}

func (k *onehot[L, To]) then([]float64, []float64) (kernel[To], bool) { return nil, false }

// Scalars is a container of numbers converted from another container of
// numbers: the result of [Cast]. Its batches are slices.
type Scalars[To arraycontainer.Number] struct {
	n      int
	gather func(dst []To, idx []int, d draw) []To
	get    func(i int, d draw) To
	blocks []int // the source's block starts, or nil
}

// Cast returns the container of the values of c converted to To, for labels a
// model wants in another type (int to int32, int64 to int). Go cannot infer To
// from the arguments, so it is the one call of the package that takes a type
// argument:
//
//	y32, err := convert.Cast[int32](digits.Y())
//
// Every value is read once, now, and Cast returns an error wrapping [ErrRange]
// that names the first value To cannot hold and its index (a float with a
// fraction is truncated toward zero, as Go's conversion does).
func Cast[To, From arraycontainer.Number](c container.Batched[From, []From]) (*Scalars[To], error) {
	var one [1]To
	for i := range c.Nobs() {
		v := c.GetObs(i)
		if castInto(one[:], []From{v}) >= 0 {
			return nil, rangeError[To]("Cast", v, i)
		}
	}
	pool := sync.Pool{New: func() any { return new([]From) }}
	return &Scalars[To]{
		n:      c.Nobs(),
		blocks: container.BlockStarts(c),
		// Cast checked the values GetObs read when it wrapped c; a value read
		// later is checked again, since c may have changed since (a reused
		// slice, a file rewritten under its mapping), and a random source's
		// draws with another ObsRand were never checked. A value To cannot hold
		// panics: GetObs has no error result.
		get: func(i int, d draw) To {
			var v From
			if !d.on {
				v = c.GetObs(i)
			} else {
				v = container.GetObsRand(c, i, d.r)
			}
			var out [1]To
			if castInto(out[:], []From{v}) >= 0 {
				panic(changedError[To](v, i))
			}
			return out[0]
		},
		gather: func(dst []To, idx []int, d draw) []To {
			p := pool.Get().(*[]From)
			defer pool.Put(p)
			*p = gather(c, *p, idx, d)
			dst = container.Resize(dst, len(idx))
			if j := castInto(dst, *p); j >= 0 {
				panic(changedError[To]((*p)[j], idx[j]))
			}
			return dst
		},
	}, nil
}

// Nobs returns the number of values.
func (s *Scalars[To]) Nobs() int { return s.n }

// BlockStarts returns the block starts of the wrapped container
// (container.Blocked), or nil when it has no blocks.
func (s *Scalars[To]) BlockStarts() []int { return s.blocks }

// GetObs returns value i, converted. It panics with a [*container.IndexError]
// when i is out of range.
func (s *Scalars[To]) GetObs(i int) To {
	container.CheckIndex("convert.Scalars.GetObs", i, s.n)
	return s.get(i, draw{})
}

// GetObsRand returns value i, converted, drawn with r when the wrapped container
// is random. It panics as GetObs does, and with an error wrapping [ErrRange]
// when the drawn value does not fit To (Cast checked the values GetObs reads).
func (s *Scalars[To]) GetObsRand(i int, r container.ObsRand) To {
	container.CheckIndex("convert.Scalars.GetObsRand", i, s.n)
	return s.get(i, draw{r, true})
}

// GetObsInto gathers the values at idx, converted, into dst (reused when it can
// hold them). It panics with a [*container.IndexError] when an index is out of
// range.
func (s *Scalars[To]) GetObsInto(dst []To, idx []int) []To {
	container.CheckIndices("convert.Scalars.GetObsInto", idx, s.n)
	return s.gather(dst, idx, draw{})
}

// GetObsRandInto is GetObsInto with the values drawn with r when the wrapped
// container is random; it panics as GetObsRand does.
func (s *Scalars[To]) GetObsRandInto(dst []To, idx []int, r container.ObsRand) []To {
	container.CheckIndices("convert.Scalars.GetObsRandInto", idx, s.n)
	return s.gather(dst, idx, draw{r, true})
}
