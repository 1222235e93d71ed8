package batchview

import (
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/internal/indexbuf"
)

var _ container.Random[[]int, [][]int] = (*View[[]int])(nil)

// A View is a container whose observations are the batches of another container,
// MLUtils' BatchView: observation i of the view is batch i of the source. The view
// is stateless and immutable, so it can be read by many goroutines at once, subset,
// shuffled by batch, or iterated like any container. B is the source's batch type.
//
// Batch i of epoch 0 covers source observations [i*size, min(n, (i+1)*size)) under
// [index.Keep]; the [index.Tail] decides the last batch (the rules are those of
// [index.Steps] of one part). Under [index.RollOver] the batches of a later epoch continue the
// stream of the earlier ones; [View.Epoch] returns the view of epoch e. A View does
// not shuffle: batch a shuffled view (subset.Shuffle) for shuffled batches, or use
// the eachobs loops, which reshuffle every epoch.
type View[B any] struct {
	gather func(dst B, idx []int) B
	rand   func(dst B, idx []int, r container.ObsRand) B // the source's GetObsRandInto, or GetObsInto
	steps  index.Steps                                   // of one part
	epoch  int
}

// New returns the view of c in batches of size with tail t. It panics with a
// [*container.ArgError] if size < 1 or t is not a tail. A size larger than
// c.Nobs() gives one batch with Keep and Pad and none with Drop. The view reads c
// when a batch is requested and never copies it.
func New[T, B any](c container.Batched[T, B], size int, t index.Tail) *View[B] {
	container.CheckArg(size >= 1, "batchview.New", "batch size", size, ">= 1")
	return &View[B]{
		gather: c.GetObsInto,
		rand: func(dst B, idx []int, r container.ObsRand) B {
			return container.GetObsRandInto(c, dst, idx, r)
		},
		steps: index.NewSteps(c.Nobs(), size, 1, false, t),
	}
}

// Epoch returns the view of epoch e: the same batches for every tail except
// [index.RollOver], whose epoch e begins with the tail left by epoch e-1. It
// panics with a [*container.ArgError] if e is outside [0, Steps().MaxEpoch()].
// The receiver is not changed.
func (v *View[B]) Epoch(e int) *View[B] {
	v.steps.Len(e) // checks e
	w := *v
	w.epoch = e
	return &w
}

// Steps returns the index arithmetic of the view: the schedule of one part
// whose steps are its batches, epoch by epoch.
func (v *View[B]) Steps() index.Steps { return v.steps }

// Size returns the batch size.
func (v *View[B]) Size() int { return v.steps.Size() }

// Nobs returns the number of batches.
func (v *View[B]) Nobs() int { return v.steps.Len(v.epoch) }

// Real returns the number of real observations in batch i: the batch size, except
// for the last batch under [index.Keep] and [index.Pad]. It panics with a
// [*container.IndexError] if i is out of range.
func (v *View[B]) Real(i int) int {
	_, _, real, _, _ := v.steps.Slots(v.epoch, i, 0)
	return real
}

// Indices writes the source indices of batch i into dst (reusing its memory when
// it has capacity) and returns them with the number of real observations, which
// come first. Under [index.Pad] the padding slots repeat the first indices of the
// epoch. It panics with a [*container.IndexError] if i is out of range.
func (v *View[B]) Indices(dst []int, i int) (idx []int, real int) {
	return v.indices(dst, i)
}

// indices is Indices: the stream positions of the batch, position g being
// source index g mod n.
func (v *View[B]) indices(dst []int, i int) (idx []int, real int) {
	idx, real = v.steps.Batch(dst, v.epoch, i, 0)
	n := v.steps.N()
	for j, g := range idx {
		idx[j] = g % n
	}
	return idx, real
}

// GetObs returns batch i, newly allocated. It panics with a [*container.IndexError]
// if i is out of range.
func (v *View[B]) GetObs(i int) B {
	var zero B
	p := indexbuf.Get()
	b := v.batchInto(zero, p, i, nil)
	indexbuf.Put(p)
	return b
}

// GetObsRand returns batch i, newly allocated, its observations drawn with r
// when the source is a [container.Random] container (each by its source index,
// so it draws what a loop over the source draws for it). It panics as GetObs
// does.
func (v *View[B]) GetObsRand(i int, r container.ObsRand) B {
	var zero B
	p := indexbuf.Get()
	b := v.batchInto(zero, p, i, &r)
	indexbuf.Put(p)
	return b
}

// GetObsInto gathers the batches at idx into dst, one element per batch, reusing
// dst's elements as buffers (each batch through the source's own GetObsInto), and
// returns them. The index list of each batch lives in a scratch buffer taken from
// a [sync.Pool], so a warm call allocates only the batches the buffers cannot
// hold. It panics with a [*container.IndexError] if an index is out of range.
func (v *View[B]) GetObsInto(dst []B, idx []int) []B {
	container.CheckIndices("batchview.View.GetObsInto", idx, v.Nobs())
	return v.batches(dst, idx, nil)
}

// GetObsRandInto is GetObsInto with the observations drawn with r when the source
// is a [container.Random] container.
func (v *View[B]) GetObsRandInto(dst []B, idx []int, r container.ObsRand) []B {
	container.CheckIndices("batchview.View.GetObsRandInto", idx, v.Nobs())
	return v.batches(dst, idx, &r)
}

// batches gathers the batches at checked indices idx into dst, drawn with r when
// r is not nil.
func (v *View[B]) batches(dst []B, idx []int, r *container.ObsRand) []B {
	if cap(dst) >= len(idx) {
		dst = dst[:len(idx)]
	} else {
		old := dst
		dst = make([]B, len(idx))
		copy(dst, old)
	}
	p := indexbuf.Get()
	for k, i := range idx {
		dst[k] = v.batchInto(dst[k], p, i, r)
	}
	indexbuf.Put(p)
	return dst
}

// batchInto gathers batch i into dst with *scratch as its index list, keeping
// the list's memory in *scratch, drawn with r when r is not nil.
func (v *View[B]) batchInto(dst B, scratch *[]int, i int, r *container.ObsRand) B {
	container.CheckIndex("batchview.View.GetObs", i, v.Nobs())
	idx, _ := v.indices(*scratch, i)
	*scratch = idx
	if r != nil {
		return v.rand(dst, idx, *r)
	}
	return v.gather(dst, idx)
}
