package transform

import (
	"fmt"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/indexbuf"
)

var _ container.Random[[]int, [][]int] = (*Windowed[int, []int])(nil)

// Windowed is a container of sliding windows over a sequence container
// (MLUtils.slidingwindow). Build one with [Windows].
type Windowed[T, B any] struct {
	src          container.Batched[T, B]
	size, stride int
	n            int
}

// Windows returns the sliding windows of size observations of c, one starting
// every stride observations: observation i of the result is the batch of the
// observations [i*stride, i*stride+size) of c, gathered with c's GetObsInto, so a
// window of an array is an array. Only complete windows are included: there are
// (n-size)/stride+1 of them when n >= size and none otherwise. Windows panics if
// size < 1 or stride < 1.
//
// The result is Batched with batches of type []B, one window each; GetObsInto
// reuses the windows already in dst (each window's memory, as c's GetObsInto
// reuses a batch) and allocates nothing when they can hold the new windows.
// Windows are copies; they do not share memory with c.
func Windows[T, B any](c container.Batched[T, B], size, stride int) *Windowed[T, B] {
	if size < 1 || stride < 1 {
		panic(&container.ArgError{Op: "transform.Windows", Arg: "size and stride", Value: fmt.Sprintf("%d and %d", size, stride), Want: "both at least 1"})
	}
	w := &Windowed[T, B]{src: c, size: size, stride: stride}
	if n := c.Nobs(); n >= size {
		w.n = (n-size)/stride + 1
	}
	return w
}

// Nobs returns the number of complete windows.
func (w *Windowed[T, B]) Nobs() int { return w.n }

// GetObs returns window i in a newly allocated batch (the batch is the only
// allocation: the window's index list is borrowed from a pool).
func (w *Windowed[T, B]) GetObs(i int) B {
	container.CheckIndex("transform.Windowed.GetObs", i, w.n)
	buf := w.borrow()
	var zero B
	b := w.window(zero, i, *buf, nil)
	indexbuf.Put(buf)
	return b
}

// GetObsRand returns window i drawn with r: each observation of the source is
// drawn with r and its source index when the source is random, so windows that
// overlap hold the same draws of the observations they share. It panics as
// GetObs does.
func (w *Windowed[T, B]) GetObsRand(i int, r container.ObsRand) B {
	container.CheckIndex("transform.Windowed.GetObsRand", i, w.n)
	buf := w.borrow()
	var zero B
	b := w.window(zero, i, *buf, &r)
	indexbuf.Put(buf)
	return b
}

// GetObsRandInto is GetObsInto with the windows drawn with r, as GetObsRand.
func (w *Windowed[T, B]) GetObsRandInto(dst []B, idx []int, r container.ObsRand) []B {
	container.CheckIndices("transform.Windowed.GetObsRandInto", idx, w.n)
	return w.windows(dst, idx, &r)
}

// GetObsInto sets dst to the windows at idx, reusing dst and the windows in it.
func (w *Windowed[T, B]) GetObsInto(dst []B, idx []int) []B {
	container.CheckIndices("transform.Windowed.GetObsInto", idx, w.n)
	return w.windows(dst, idx, nil)
}

// windows sets dst to the windows at checked indices idx, drawn with r (nil:
// GetObsInto).
func (w *Windowed[T, B]) windows(dst []B, idx []int, r *container.ObsRand) []B {
	dst = container.Resize(dst, len(idx))
	buf := w.borrow()
	for j, i := range idx {
		dst[j] = w.window(dst[j], i, *buf, r)
	}
	indexbuf.Put(buf)
	return dst
}

// Source returns the sequence container the windows slide over.
func (w *Windowed[T, B]) Source() container.Batched[T, B] { return w.src }

// Start returns the index in the source of the first observation of window i:
// i*stride. It panics with a [*container.IndexError] when i is out of range.
func (w *Windowed[T, B]) Start(i int) int {
	container.CheckIndex("transform.Windowed.Start", i, w.n)
	return i * w.stride
}

// borrow takes an index buffer of one window's length from the shared pool;
// the caller returns it with indexbuf.Put.
func (w *Windowed[T, B]) borrow() *[]int {
	buf := indexbuf.Get()
	*buf = container.Resize(*buf, w.size)
	return buf
}

// window gathers window i into dst, writing its source indices into idx, drawn
// with r when r is not nil.
func (w *Windowed[T, B]) window(dst B, i int, idx []int, r *container.ObsRand) B {
	lo := i * w.stride
	for k := range idx {
		idx[k] = lo + k
	}
	if r != nil {
		return container.GetObsRandInto(w.src, dst, idx, *r)
	}
	return w.src.GetObsInto(dst, idx)
}
