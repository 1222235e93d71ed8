package transform

import (
	"fmt"
	"sync"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/indexbuf"
)

var (
	_ container.Random[int, []int] = (*Joined[int])(nil)
	_ container.Encoded            = (*Joined[[]byte])(nil)
)

// Joined is the concatenation of containers of one observation type
// (MLUtils.joinobs). Build one with [Join].
type Joined[T any] struct {
	parts []container.Container[T]
	start []int // start[p] is the index of the first observation of part p; start[len(parts)] = Nobs
	// random[p] says whether part p draws per observation (has GetObsRand):
	// such a part is read with randomness of its own even outside a loop.
	random []bool
	tmp    sync.Pool // of *[]T: observations of one part before they are placed
}

// Join returns the concatenation of parts: the observations of parts[0], then
// those of parts[1], and so on, without copying. A part that is itself a Joined
// is flattened into its parts, so joins of joins stay one level deep, and an
// index finds its part by binary search in O(log parts). The parts must not
// change their Nobs while the result is in use.
//
// The result is Batched with slice batches. GetObsInto reads each part that the
// requested indices touch with a single GetObsInto call of that part when the part
// is Batched[T, []T] (slices, functions, views of them), whatever the order of the
// indices, and reads other parts observation by observation. A batch within one
// part is gathered straight into the destination; otherwise each part's
// observations pass through a pooled buffer on their way to their places. A join
// of arrays (whose batches are arrays, not slices) is read observation by
// observation into a slice of observations; to keep the gather kernel, copy the
// arrays into one array instead (arraycontainer has no concatenation helper yet).
func Join[T any](parts ...container.Container[T]) *Joined[T] {
	j := &Joined[T]{start: []int{0}}
	j.tmp.New = func() any { return new([]T) }
	for k, p := range parts {
		container.CheckArg(p != nil, "transform.Join", fmt.Sprintf("part %d", k), "nil", "a container")
		if sub, ok := p.(*Joined[T]); ok {
			for k, q := range sub.parts {
				j.add(q, sub.start[k+1]-sub.start[k])
			}
			continue
		}
		j.add(p, p.Nobs())
	}
	return j
}

func (j *Joined[T]) add(p container.Container[T], n int) {
	j.random = append(j.random, draws(p))
	j.parts = append(j.parts, p)
	j.start = append(j.start, j.start[len(j.start)-1]+n)
}

// draws reports whether part p may draw per observation: it has GetObsRand
// and, when it is a view with slice batches, its source has too (a view of a
// container that does not draw has the method only to pass randomness on).
func draws[T any](p container.Container[T]) bool {
	type random interface {
		GetObsRand(int, container.ObsRand) T
	}
	if _, ok := p.(random); !ok {
		return false
	}
	if v, ok := p.(container.IndexView[T, []T]); ok {
		_, ok := v.Source().(random)
		return ok
	}
	return true
}

// Nobs returns the total number of observations of the parts.
func (j *Joined[T]) Nobs() int { return j.start[len(j.start)-1] }

// locate returns the part of the checked index i and i's index in it.
func (j *Joined[T]) locate(i int) (part, local int) {
	// Binary search for the last part whose start is at or before i, written so
	// that the compiler can use conditional moves (the part of a shuffled index is
	// unpredictable). Among parts starting at i, the last is the nonempty one.
	lo, n := 0, len(j.parts)
	for n > 1 {
		half := n >> 1
		if j.start[lo+half] <= i {
			lo += half
		}
		n -= half
	}
	return lo, i - j.start[lo]
}

// GetObs returns observation i: observation i-start of the part holding i.
func (j *Joined[T]) GetObs(i int) T {
	container.CheckIndex("transform.Joined.GetObs", i, j.Nobs())
	p, k := j.locate(i)
	if j.random[p] {
		return container.GetObsRand(j.parts[p], k, container.ObsRand{}.Stream(uint64(p)))
	}
	return j.parts[p].GetObs(k)
}

// AppendObs appends the bytes of observation i to dst: observation i-start
// of the part holding i, read by the part's AppendObs when it has one
// (container.AppendObs), so that a join of container.Encoded parts (several
// RecordIO files, image folders, views of them) is Encoded, its errors naming
// the part's file. A part that draws per observation is read as GetObs reads
// it. It panics as GetObs does, and with a [*container.ArgError] when the
// observations are not []byte.
func (j *Joined[T]) AppendObs(dst []byte, i int) ([]byte, error) {
	container.CheckIndex("transform.Joined.AppendObs", i, j.Nobs())
	p, k := j.locate(i)
	if j.random[p] {
		if b, ok := any(j.GetObs(i)).([]byte); ok {
			return append(dst, b...), nil
		}
	}
	return container.AppendObs(j.parts[p], dst, k)
}

// Where returns where observation i is stored, as the part holding it says
// (container.Where). It panics as GetObs does.
func (j *Joined[T]) Where(i int) string {
	container.CheckIndex("transform.Joined.Where", i, j.Nobs())
	p, k := j.locate(i)
	return container.Where(j.parts[p], k)
}

// Parts returns the parts of the join, flattened, in order. The slice is newly
// allocated; the parts are shared.
func (j *Joined[T]) Parts() []container.Container[T] {
	return append([]container.Container[T](nil), j.parts...)
}

// GetObsInto sets dst to the observations at idx, reusing dst's memory when it can
// hold len(idx) observations; see [Join] for how parts are read.
func (j *Joined[T]) GetObsInto(dst []T, idx []int) []T {
	container.CheckIndices("transform.Joined.GetObsInto", idx, j.Nobs())
	return j.gather(dst, idx, nil)
}

// GetObsRand returns observation i drawn with r: observation i-start of the part
// p holding i, drawn with r.Stream(p) when the part is random, so that the
// observations of two parts draw independent numbers. (GetObs and GetObsInto
// read a random part the same way with the zero ObsRand: a join's observation
// is not always the one its part gives alone.) It panics as GetObs does.
func (j *Joined[T]) GetObsRand(i int, r container.ObsRand) T {
	container.CheckIndex("transform.Joined.GetObsRand", i, j.Nobs())
	p, k := j.locate(i)
	return container.GetObsRand(j.parts[p], k, r.Stream(uint64(p)))
}

// GetObsRandInto is GetObsInto with the observations of part p drawn with
// r.Stream(p) when the part is random.
func (j *Joined[T]) GetObsRandInto(dst []T, idx []int, r container.ObsRand) []T {
	container.CheckIndices("transform.Joined.GetObsRandInto", idx, j.Nobs())
	return j.gather(dst, idx, &r)
}

// gather is GetObsInto of checked indices, drawing with r (nil: GetObs).
func (j *Joined[T]) gather(dst []T, idx []int, r *container.ObsRand) []T {
	m := len(idx)
	dst = container.Resize(dst, m)
	if m == 0 {
		return dst
	}
	np := len(j.parts)
	buf := indexbuf.Get()
	s := container.Resize(*buf, 3*m+np+1)
	*buf = s
	// Sort the batch positions by part (a stable counting sort), so that each
	// part is read with one call whatever the order of idx.
	partOf, order, local, next := s[:m], s[m:2*m], s[2*m:3*m], s[3*m:]
	clear(next)
	for k, i := range idx {
		p, _ := j.locate(i)
		partOf[k] = p
		next[p+1]++
	}
	for p := range np {
		next[p+1] += next[p]
	}
	if next[partOf[0]+1]-next[partOf[0]] == m { // one part: gather straight into dst
		p := partOf[0]
		for k, i := range idx {
			local[k] = i - j.start[p]
		}
		dst = j.read(p, dst, local, r)
		indexbuf.Put(buf)
		return dst
	}
	for k, p := range partOf {
		order[next[p]] = k
		next[p]++
	}
	tmp := j.tmp.Get().(*[]T)
	lo := 0
	for p := range np {
		hi := next[p] // after the sort, next[p] is the end of part p's positions
		if hi == lo {
			continue
		}
		sel, loc := order[lo:hi], local[lo:hi]
		for k, at := range sel {
			loc[k] = idx[at] - j.start[p]
		}
		*tmp = j.read(p, *tmp, loc, r)
		for k, at := range sel {
			dst[at] = (*tmp)[k]
		}
		clear(*tmp) // drop references the observations may hold
		lo = hi
	}
	j.tmp.Put(tmp)
	indexbuf.Put(buf)
	return dst
}

// read gathers the observations at local indices of part p into dst, drawn with
// r.Stream(p) when the part is random (the zero ObsRand's when r is nil).
func (j *Joined[T]) read(p int, dst []T, local []int, r *container.ObsRand) []T {
	part := j.parts[p]
	if !j.random[p] {
		if bp, ok := part.(container.Batched[T, []T]); ok {
			return bp.GetObsInto(dst, local)
		}
		dst = container.Resize(dst, len(local))
		for k, i := range local {
			dst[k] = part.GetObs(i)
		}
		return dst
	}
	var rp container.ObsRand
	if r == nil {
		rp = container.NewObsRand(0, 0).Stream(uint64(p))
	} else {
		rp = r.Stream(uint64(p))
	}
	if bp, ok := part.(container.Batched[T, []T]); ok {
		return container.GetObsRandInto(bp, dst, local, rp)
	}
	dst = container.Resize(dst, len(local))
	for k, i := range local {
		dst[k] = container.GetObsRand(part, i, rp)
	}
	return dst
}
