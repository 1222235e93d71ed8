package subset

import (
	"fmt"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/indexbuf"
)

var (
	_ container.IndexView[int, []int] = (*View[int, []int])(nil)
	_ container.Random[int, []int]    = (*View[int, []int])(nil)
	_ container.Encoded               = (*View[[]byte, [][]byte])(nil)
)

// A View is a lazy subset of a source container: observation i of the view is
// observation Index(i) of [View.Source]. It copies no observations. Every function of
// this package that returns data returns Views.
//
// A View of a View is flattened when it is built: its source is the original
// container and its index list maps straight into it, so a chain of views costs
// one index lookup and holds memory in proportion to its own length, not to the
// source's. Views are immutable and safe for concurrent use.
//
// A View is [container.Batched] with its source's batch type: GetObsInto maps the
// requested indices to source indices and gathers them with one call of the
// source's GetObsInto, so a subset of an array batches with the array's gather
// kernel. It is a [container.IndexView], so loops, label readers (tuples.Labels)
// and conversions go straight to the source. A View of byte strings is a
// [container.Encoded] container that reads its source's AppendObs, so an image
// decoder reads a split part of image files into its reused buffer.
type View[T, B any] struct {
	src container.Batched[T, B]
	n   int
	// Position i (after the gap shift below) maps to source index
	// start+i when ranged, else to idx[i].
	ranged bool
	start  int
	idx    []int
	// A view can leave out one block of its index space (a k-fold training set
	// is everything but the validation block): positions >= cut are read at
	// position+skip. Views without a gap have cut == n, skip == 0.
	cut, skip int
}

// Of returns the view of c at the indices idx, in that order; indices may repeat.
// Of copies idx (so later changes to idx do not affect the view) and panics with
// a [*container.IndexError] when an index is outside [0, c.Nobs()). When c is a
// View (or any [container.IndexView]), the result is flattened into c's source.
func Of[T, B any](c container.Batched[T, B], idx []int) *View[T, B] {
	if v, ok := c.(*View[T, B]); ok { // mapInto checks idx against v
		return explicit(v.src, v.mapInto("subset.Of", make([]int, len(idx)), idx))
	}
	if v, ok := c.(container.IndexView[T, B]); ok {
		return explicit(v.Source(), v.MapIndices(make([]int, len(idx)), idx))
	}
	container.CheckIndices("subset.Of", idx, c.Nobs())
	return explicit(c, append(make([]int, 0, len(idx)), idx...))
}

// Range returns the view of the observations lo, lo+1, ..., hi-1 of c (c[lo:hi]).
// A range of a container that is not a View, or of a View that is an index list or
// a range itself, costs O(1) memory: it shares the index list. As a slice
// expression does, Range accepts bounds 0 <= lo <= hi <= c.Nobs(); it panics with a
// [*container.IndexError] naming the first bound outside [0, c.Nobs()] (so its Nobs
// is c.Nobs()+1), and with a [*container.ArgError] when hi < lo.
func Range[T, B any](c container.Batched[T, B], lo, hi int) *View[T, B] {
	n := c.Nobs()
	container.CheckIndex("subset.Range", lo, n+1)
	container.CheckIndex("subset.Range", hi, n+1)
	if hi < lo {
		panic(&container.ArgError{Op: "subset.Range", Arg: "range", Value: fmt.Sprintf("[%d, %d)", lo, hi), Want: "lo <= hi"})
	}
	return viewOf(c).slice(lo, hi)
}

// explicit returns the view of src at idx, taking ownership of idx.
func explicit[T, B any](src container.Batched[T, B], idx []int) *View[T, B] {
	return &View[T, B]{src: src, n: len(idx), idx: idx, cut: len(idx)}
}

// viewOf returns c itself when it is a View, else the view of all of c.
func viewOf[T, B any](c container.Batched[T, B]) *View[T, B] {
	if v, ok := c.(*View[T, B]); ok {
		return v
	}
	if v, ok := c.(container.IndexView[T, B]); ok {
		idx := make([]int, v.Nobs())
		for i := range idx {
			idx[i] = i
		}
		return explicit(v.Source(), v.MapIndices(idx, idx))
	}
	n := c.Nobs()
	return &View[T, B]{src: c, n: n, ranged: true, cut: n}
}

// Nobs returns the number of observations of the view.
func (v *View[T, B]) Nobs() int { return v.n }

// GetObs returns observation i of the view, which is observation Index(i) of the
// source as the source's GetObs returns it.
func (v *View[T, B]) GetObs(i int) T {
	container.CheckIndex("subset.View.GetObs", i, v.n)
	return v.src.GetObs(v.at(i))
}

// GetObsInto gathers the observations at idx (view indices) with one call of the
// source's GetObsInto on the mapped indices, reusing dst as that method does. The
// mapped index list lives in a scratch buffer taken from a [sync.Pool], so a warm
// call allocates nothing beyond what the source's GetObsInto allocates. Callers
// that want no pool (a batch loop with its own buffers) use [View.MapIndices] and
// the source directly. GetObsInto panics with a [*container.IndexError] when an
// index is outside [0, Nobs()).
func (v *View[T, B]) GetObsInto(dst B, idx []int) B {
	p := indexbuf.Get()
	*p = v.mapInto("subset.View.GetObsInto", *p, idx)
	dst = v.src.GetObsInto(dst, *p)
	indexbuf.Put(p)
	return dst
}

// GetObsRand returns observation i of the view drawn with r: observation
// Index(i) of the source, drawn with r when the source is a [container.Random]
// container (an observation keeps the randomness of its source index, so a
// repeated index draws the same numbers). It panics as GetObs does.
func (v *View[T, B]) GetObsRand(i int, r container.ObsRand) T {
	container.CheckIndex("subset.View.GetObsRand", i, v.n)
	return container.GetObsRand(v.src, v.at(i), r)
}

// GetObsRandInto is GetObsInto with the observations drawn with r when the source
// is a [container.Random] container.
func (v *View[T, B]) GetObsRandInto(dst B, idx []int, r container.ObsRand) B {
	p := indexbuf.Get()
	*p = v.mapInto("subset.View.GetObsRandInto", *p, idx)
	dst = container.GetObsRandInto(v.src, dst, *p, r)
	indexbuf.Put(p)
	return dst
}

// AppendObs appends the bytes of observation i of the view to dst: those of
// observation Index(i) of the source, read by the source's AppendObs when it
// has one and by its GetObs otherwise (container.AppendObs). It returns the
// source's error, and panics with a [*container.IndexError] when i is out of
// range and with a [*container.ArgError] when the observations are not []byte.
func (v *View[T, B]) AppendObs(dst []byte, i int) ([]byte, error) {
	container.CheckIndex("subset.View.AppendObs", i, v.n)
	return container.AppendObs(v.src, dst, v.at(i))
}

// Where returns where observation i of the view is stored, as the source says
// of observation Index(i) (container.Where): "" when the source cannot say. It
// panics with a [*container.IndexError] when i is out of range.
func (v *View[T, B]) Where(i int) string {
	container.CheckIndex("subset.View.Where", i, v.n)
	return container.Where(v.src, v.at(i))
}

// MapIndices writes the source indices of the view indices idx into dst, reusing
// dst's memory when its capacity is at least len(idx), and returns it (dst may be
// idx itself):
//
//	scratch = v.MapIndices(scratch, idx)
//	buf = v.Source().GetObsInto(buf, scratch)
//
// is v.GetObsInto(buf, idx) with a buffer the caller owns, for batch loops that
// must not touch a shared pool. MapIndices panics with a [*container.IndexError]
// when an index is outside [0, Nobs()).
func (v *View[T, B]) MapIndices(dst, idx []int) []int {
	return v.mapInto("subset.View.MapIndices", dst, idx)
}

func (v *View[T, B]) mapInto(op string, dst, idx []int) []int {
	dst = container.Resize(dst, len(idx))
	n := v.n
	switch {
	case v.cut < n:
		for j, i := range idx {
			if uint(i) >= uint(n) {
				panic(&container.IndexError{Op: op, Index: i, Nobs: n})
			}
			dst[j] = v.at(i)
		}
	case v.ranged:
		for j, i := range idx {
			if uint(i) >= uint(n) {
				panic(&container.IndexError{Op: op, Index: i, Nobs: n})
			}
			dst[j] = v.start + i
		}
	default:
		src := v.idx[:n]
		for j, i := range idx {
			if uint(i) >= uint(n) {
				panic(&container.IndexError{Op: op, Index: i, Nobs: n})
			}
			dst[j] = src[i]
		}
	}
	return dst
}

// at maps a checked position to its source index.
func (v *View[T, B]) at(i int) int {
	if i >= v.cut {
		i += v.skip
	}
	if v.ranged {
		return v.start + i
	}
	return v.idx[i]
}

// Source returns the container the view indexes into. It is never a View.
func (v *View[T, B]) Source() container.Batched[T, B] { return v.src }

// Index returns the source index of observation i. It panics with a
// [*container.IndexError] when i is out of range.
func (v *View[T, B]) Index(i int) int {
	container.CheckIndex("subset.View.Index", i, v.n)
	return v.at(i)
}

// Indices returns the source index of every observation of the view, in order, in
// a newly allocated slice.
func (v *View[T, B]) Indices() []int {
	out := make([]int, v.n)
	for i := range out {
		out[i] = v.at(i)
	}
	return out
}

// slice returns the view of positions [lo, hi) of v. It shares v's index list
// (and keeps the part of v's gap that falls inside the range), so it costs O(1).
func (v *View[T, B]) slice(lo, hi int) *View[T, B] {
	n := hi - lo
	w := &View[T, B]{src: v.src, n: n, ranged: v.ranged, cut: n}
	off := lo
	switch {
	case lo >= v.cut:
		off += v.skip
	case hi > v.cut:
		w.cut, w.skip = v.cut-lo, v.skip
	}
	if v.ranged {
		w.start = v.start + off
	} else {
		end := off + n + w.skip
		w.idx = v.idx[off:end:end]
	}
	return w
}

// without returns the view of v with positions [lo, hi) left out. It shares v's
// index list unless v already has a gap, where it copies the remaining indices.
func (v *View[T, B]) without(lo, hi int) *View[T, B] {
	if lo == hi {
		return v
	}
	if v.cut < v.n {
		idx := make([]int, 0, v.n-(hi-lo))
		for i := range v.n {
			if i < lo || i >= hi {
				idx = append(idx, v.at(i))
			}
		}
		return explicit(v.src, idx)
	}
	w := *v
	w.n = v.n - (hi - lo)
	w.cut, w.skip = lo, hi-lo
	return &w
}

// positions returns the view of v at the positions pos, taking ownership of pos:
// the positions are overwritten with source indices.
func (v *View[T, B]) positions(pos []int) *View[T, B] {
	if !(v.ranged && v.start == 0 && v.cut == v.n) {
		for j, p := range pos {
			pos[j] = v.at(p)
		}
	}
	return explicit(v.src, pos)
}
