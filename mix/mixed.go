package mix

import (
	"errors"
	"reflect"
	"strconv"
	"sync"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/indexbuf"
)

// Errors returned by the package. Each returned error wraps exactly one of them,
// or container.ErrEmpty for an empty source that a rule cannot mix (test with
// [errors.Is]), and names the function and the offending value.
var (
	// ErrWeights: no sources, a number of weights other than the number of
	// sources, a weight that is not a positive finite number, or an unknown rule.
	ErrWeights = errors.New("invalid weights")
	// ErrSize: the mix would hold more than math.MaxInt observations.
	ErrSize = errors.New("mix too large")
	// ErrSource: the sources given to [Views] are not views of one container.
	ErrSource = errors.New("views of different containers")
)

// A Rule says how large a mix is: when it stops drawing from its sources.
type Rule uint8

const (
	// FirstExhausted stops when the first source has given all its
	// observations: every observation appears at most once, every stretch of the
	// mix follows the weights, and the other sources are not read to their end
	// (tf.data's sample_from_datasets with stop_on_empty_dataset, Grain's
	// MapDataset.mix, torchdata's FIRST_DATASET_EXHAUSTED, Hugging Face's
	// first_exhausted).
	FirstExhausted Rule = iota
	// AllExhausted reads every observation of every source once: the mix follows
	// the weights until a source has given all it has, then goes on with the
	// others in the ratio of their weights, and so on (torchdata's
	// ALL_DATASETS_EXHAUSTED, Hugging Face's all_exhausted_without_replacement).
	// An empty source takes no part.
	AllExhausted
	// Resample follows the weights until every source has given all its
	// observations at least once: a source that runs out starts again from its
	// first observation, so the smaller sources repeat (torchdata's
	// CYCLE_UNTIL_ALL_DATASETS_EXHAUSTED, Hugging Face's all_exhausted). It is
	// the rule that asks for repeats.
	Resample
)

// String returns the rule's name: "first-exhausted", "all-exhausted" or
// "resample".
func (r Rule) String() string {
	switch r {
	case FirstExhausted:
		return "first-exhausted"
	case AllExhausted:
		return "all-exhausted"
	case Resample:
		return "resample"
	}
	return "Rule(" + strconv.Itoa(int(r)) + ")"
}

// plan is the part of a mix that does not depend on its sources' types.
type plan struct{ s schedule }

// Nobs returns the number of observations of the mix.
func (p *plan) Nobs() int { return p.s.total }

// Locate returns the source of observation i of the mix and the index of the
// observation within that source. It panics with a [*container.IndexError] when
// i is outside [0, Nobs()).
func (p *plan) Locate(i int) (source, index int) {
	container.CheckIndex("mix.Locate", i, p.s.total)
	return p.s.locate(i)
}

// Counts returns how many observations of each source the mix holds, in the
// order of the sources (with repeats under Resample); newly allocated.
func (p *plan) Counts() []int { return append([]int(nil), p.s.uses...) }

// Rule returns the rule the mix was built with.
func (p *plan) Rule() Rule { return p.s.rule }

// Position returns the observation of the mix that holds the use-th observation
// the mix takes from source (use counts from 0 up to Counts()[source]): the
// inverse of [Mixed.Locate] on uses. Under Resample the use-th observation of a
// source is its observation use % Nobs. Position panics with a
// [*container.IndexError] when source or use is out of range.
func (p *plan) Position(source, use int) int {
	container.CheckIndex("mix.Position", source, len(p.s.uses))
	container.CheckIndex("mix.Position", use, p.s.uses[source])
	return p.s.position(source, use)
}

var _ container.Random[int, []int] = (*Mixed[int])(nil)

// A Mixed is a container mixing the observations of several containers of one
// observation type by weights: observation i of the mix is an observation of one
// of the sources, chosen by a fixed schedule that [New] works out once. It is
// immutable, holds O(sources) memory beside a block of at most 4096 positions
// per phase, and finds the source of an index in O(1) (a division and a table
// look-up). The sources must not change their Nobs while the mix is in use.
//
// A Mixed is Batched with slice batches, as transform.Join is: GetObsInto reads
// each source that a batch touches with one GetObsInto call when the source is
// Batched[T, []T], and observation by observation otherwise. To mix arrays and
// keep their gather kernel, make the sources views of one array and mix them with
// [Views].
type Mixed[T any] struct {
	plan
	srcs []container.Container[T]
	// random[j] says whether source j draws per observation (has GetObsRand):
	// such a source is read with randomness of its own even outside a loop.
	random []bool
	tmp    sync.Pool // of *[]T: observations of one source before they are placed
}

// New returns the mix of sources by weights (one per source, any positive finite
// numbers: they are normalized) under rule, its interleaving drawn from seed.
//
// The sizing: FirstExhausted holds floor(min over sources of n_j / w_j)
// observations, to within one block (w_j the normalized weight), each at most
// once; AllExhausted holds every observation of every source once; Resample
// holds about max over sources of n_j / w_j, the smaller sources repeated. Every
// prefix of the mix (up to the first exhausted source) holds each source's share
// of its positions to within 1.5 observations: the weights are laid out by
// stride scheduling over a block of whole numbers of positions, exact when a
// block of at most 4096 positions holds the ratio (0.7 and 0.3 is a block of 10),
// else to within 1/4096. The seed orders the sources where the schedule has a
// tie (equal weights always tie). The order within a source is the source's own
// (source j is read from its observation 0 up): shuffle a source first
// (subset.Shuffle) to draw a random part of it, and shuffle the mix
// (eachobs.Shuffle) for a random order.
//
// New returns an error wrapping [container.ErrEmpty] when a source holds no observation
// under FirstExhausted or Resample (an empty source is never read out of
// range: AllExhausted leaves it out), [ErrWeights] for bad weights or rule, and
// [ErrSize] when the mix would not fit an int.
func New[T any](rule Rule, weights []float64, seed uint64, sources ...container.Container[T]) (*Mixed[T], error) {
	n := make([]int, len(sources))
	for j, c := range sources {
		container.CheckArg(c != nil, "mix.New", "source", "nil", "a container")
		n[j] = c.Nobs()
	}
	s, err := newSchedule("mix.New", rule, weights, seed, n)
	if err != nil {
		return nil, err
	}
	m := &Mixed[T]{plan: plan{s}, srcs: append([]container.Container[T](nil), sources...), random: make([]bool, len(sources))}
	for j, c := range sources {
		_, m.random[j] = c.(interface {
			GetObsRand(int, container.ObsRand) T
		})
	}
	m.tmp.New = func() any { return new([]T) }
	return m, nil
}

// GetObs returns observation i of the mix: the observation of its source that
// [Mixed.Locate] names. It panics with a [*container.IndexError] when i is
// outside [0, Nobs()).
func (m *Mixed[T]) GetObs(i int) T {
	container.CheckIndex("mix.Mixed.GetObs", i, m.s.total)
	j, k := m.s.locate(i)
	if m.random[j] {
		return container.GetObsRand(m.srcs[j], k, container.ObsRand{}.Stream(uint64(j)))
	}
	return m.srcs[j].GetObs(k)
}

// GetObsRand returns observation i drawn with r: the observation of source j
// that [Mixed.Locate] names, drawn with r.Stream(j) when the source draws per
// observation (container.Random), so that two sources draw independent numbers
// and an observation draws alike wherever the mix puts it (a repeat of
// Resample draws as its first use, as a repeated index of subset.Of does).
// GetObs and GetObsInto read a random source the same way with the zero
// ObsRand. It panics as GetObs does.
func (m *Mixed[T]) GetObsRand(i int, r container.ObsRand) T {
	container.CheckIndex("mix.Mixed.GetObsRand", i, m.s.total)
	j, k := m.s.locate(i)
	return container.GetObsRand(m.srcs[j], k, r.Stream(uint64(j)))
}

// GetObsInto sets dst to the observations at idx, reusing dst's memory when it
// can hold len(idx) observations; see [Mixed] for how sources are read. It panics
// with a [*container.IndexError] when an index is out of range.
func (m *Mixed[T]) GetObsInto(dst []T, idx []int) []T {
	container.CheckIndices("mix.Mixed.GetObsInto", idx, m.s.total)
	return m.gather(dst, idx, nil)
}

// GetObsRandInto is GetObsInto with the observations of source j drawn with
// r.Stream(j) when it draws per observation, as [Mixed.GetObsRand].
func (m *Mixed[T]) GetObsRandInto(dst []T, idx []int, r container.ObsRand) []T {
	container.CheckIndices("mix.Mixed.GetObsRandInto", idx, m.s.total)
	return m.gather(dst, idx, &r)
}

// gather reads the observations at the checked idx into dst, by source; r is
// the randomness of the loop, or nil outside one.
func (m *Mixed[T]) gather(dst []T, idx []int, r *container.ObsRand) []T {
	nobs := len(idx)
	dst = container.Resize(dst, nobs)
	if nobs == 0 {
		return dst
	}
	k := len(m.srcs)
	buf := indexbuf.Get()
	s := container.Resize(*buf, 3*nobs+k+1)
	*buf = s
	// Sort the batch positions by source (a stable counting sort), so that each
	// source is read with one call.
	srcOf, order, local, next := s[:nobs], s[nobs:2*nobs], s[2*nobs:3*nobs], s[3*nobs:]
	clear(next)
	for a, i := range idx {
		j, o := m.s.locate(i)
		srcOf[a], local[a] = j, o
		next[j+1]++
	}
	for j := range k {
		next[j+1] += next[j]
	}
	for a, j := range srcOf {
		order[next[j]] = a
		next[j]++
	}
	tmp := m.tmp.Get().(*[]T)
	lo := 0
	for j := range k {
		hi := next[j]
		if hi == lo {
			continue
		}
		sel := order[lo:hi]
		loc := srcOf[lo:hi] // srcOf is no longer needed: reuse it for the local indices
		for b, at := range sel {
			loc[b] = local[at]
		}
		*tmp = m.read(j, *tmp, loc, r)
		for b, at := range sel {
			dst[at] = (*tmp)[b]
		}
		clear(*tmp) // drop references the observations may hold
		lo = hi
	}
	m.tmp.Put(tmp)
	indexbuf.Put(buf)
	return dst
}

// read gathers the observations at idx of source j into dst, drawn with
// r.Stream(j) when the source is random (the zero ObsRand's when r is nil).
func (m *Mixed[T]) read(j int, dst []T, idx []int, r *container.ObsRand) []T {
	c := m.srcs[j]
	if !m.random[j] {
		if b, ok := c.(container.Batched[T, []T]); ok {
			return b.GetObsInto(dst, idx)
		}
		dst = container.Resize(dst, len(idx))
		for a, i := range idx {
			dst[a] = c.GetObs(i)
		}
		return dst
	}
	var rj container.ObsRand
	if r == nil {
		rj = container.NewObsRand(0, 0).Stream(uint64(j))
	} else {
		rj = r.Stream(uint64(j))
	}
	if b, ok := c.(container.Batched[T, []T]); ok {
		return container.GetObsRandInto(b, dst, idx, rj)
	}
	dst = container.Resize(dst, len(idx))
	for a, i := range idx {
		dst[a] = container.GetObsRand(c, i, rj)
	}
	return dst
}

var (
	_ container.IndexView[int, []int] = (*View[int, []int])(nil)
	_ container.Random[int, []int]    = (*View[int, []int])(nil)
)

// A View is a mix of views of one container (subsets, splits, ranges of it): a
// [container.IndexView] of that container, so that a loop gathers a batch of the
// mix with one call of the container's GetObsInto (an array's gather kernel).
// Build one with [Views]; its schedule is [Mixed]'s.
type View[T, B any] struct {
	plan
	src   container.Batched[T, B]
	views []container.IndexView[T, B]
}

// Views returns the mix of views, which must all be views of one container (their
// Source is the same), with the sizing and schedule of [New]. It returns the
// errors of [New], and one wrapping [ErrSource] when two views have different
// sources.
//
//	train, err := mix.Views(mix.FirstExhausted, []float64{0.7, 0.3}, seed,
//		subset.Range(x, 0, 50000), subset.Range(x, 50000, 60000))
func Views[T, B any](rule Rule, weights []float64, seed uint64, views ...container.IndexView[T, B]) (*View[T, B], error) {
	n := make([]int, len(views))
	var src container.Batched[T, B]
	for j, v := range views {
		container.CheckArg(v != nil, "mix.Views", "view", "nil", "a container.IndexView")
		n[j] = v.Nobs()
		if j == 0 {
			src = v.Source()
		} else if !same(src, v.Source()) {
			return nil, errorf("mix.Views", ErrSource, "view %d reads %T, view 0 reads %T (not the same container)", j, v.Source(), src)
		}
	}
	s, err := newSchedule("mix.Views", rule, weights, seed, n)
	if err != nil {
		return nil, err
	}
	return &View[T, B]{plan: plan{s}, src: src, views: append([]container.IndexView[T, B](nil), views...)}, nil
}

// same reports whether a and b are the same container: equal interface values,
// compared only when their dynamic type is comparable.
func same(a, b any) bool {
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	if ta != tb {
		return false
	}
	if ta.Comparable() {
		return a == b
	}
	// Slices, maps and funcs: the same when they share their pointer and length.
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	switch va.Kind() {
	case reflect.Slice:
		return va.Len() == vb.Len() && (va.Len() == 0 || va.Pointer() == vb.Pointer())
	case reflect.Map, reflect.Func:
		return va.Pointer() == vb.Pointer()
	}
	return false
}

// Source returns the container every view reads from.
func (v *View[T, B]) Source() container.Batched[T, B] { return v.src }

// MapIndices writes the source indices of the mix indices idx into dst, reusing
// dst's memory when it can, and returns it; dst may be idx itself. It panics with
// a [*container.IndexError] when an index is out of range.
func (v *View[T, B]) MapIndices(dst, idx []int) []int {
	container.CheckIndices("mix.View.MapIndices", idx, v.s.total)
	dst = container.Resize(dst, len(idx))
	for a, i := range idx {
		j, k := v.s.locate(i)
		dst[a] = k // mapped in place by the view: no scratch to allocate
		v.views[j].MapIndices(dst[a:a+1], dst[a:a+1])
	}
	return dst
}

// GetObs returns observation i of the mix. It panics with a
// [*container.IndexError] when i is outside [0, Nobs()).
func (v *View[T, B]) GetObs(i int) T {
	container.CheckIndex("mix.View.GetObs", i, v.s.total)
	j, k := v.s.locate(i)
	return v.views[j].GetObs(k)
}

// GetObsInto gathers the observations at idx with one call of the source's
// GetObsInto on the mapped indices, reusing dst as that method does.
func (v *View[T, B]) GetObsInto(dst B, idx []int) B {
	p := indexbuf.Get()
	*p = v.MapIndices(*p, idx)
	dst = v.src.GetObsInto(dst, *p)
	indexbuf.Put(p)
	return dst
}

// GetObsRand returns observation i of the mix drawn with r: the observation of
// the shared source that i maps to, drawn with r as the source draws it (as a
// subset view passes it on). It panics as GetObs does.
func (v *View[T, B]) GetObsRand(i int, r container.ObsRand) T {
	container.CheckIndex("mix.View.GetObsRand", i, v.s.total)
	var one [1]int
	one[0] = i
	v.MapIndices(one[:], one[:])
	return container.GetObsRand(v.src, one[0], r)
}

// GetObsRandInto is GetObsInto with the observations drawn with r when the
// source draws per observation.
func (v *View[T, B]) GetObsRandInto(dst B, idx []int, r container.ObsRand) B {
	p := indexbuf.Get()
	*p = v.MapIndices(*p, idx)
	dst = container.GetObsRandInto(v.src, dst, *p, r)
	indexbuf.Put(p)
	return dst
}
