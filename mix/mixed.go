package mix

import (
	"errors"
	"reflect"
	"strconv"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/internal/indexbuf"
	imix "github.com/obskit/obskit/internal/mix"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/transform"
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
	// ErrSource: the views given to [Views] are not views of one container.
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

var (
	_ container.IndexView[int, []int] = (*Mixed[int, []int])(nil)
	_ container.Random[int, []int]    = (*Mixed[int, []int])(nil)
	_ container.Encoded               = (*Mixed[[]byte, [][]byte])(nil)
)

// A Mixed is a container mixing the observations of several containers of one
// observation type by weights: observation i of the mix is an observation of one
// of the sources, chosen by a fixed schedule that [New] or [Views] works out once.
// It is immutable, holds O(sources) memory beside a block of at most 4096
// positions per phase, and finds the source of an index in O(1) (a division and
// a table look-up). The sources must not change their Nobs while the mix is in
// use.
//
// A Mixed is a view ([container.IndexView]) of one container: for [Views], the
// container its views read; for [New], the join of the sources
// (transform.Join), whose batches are slices read one GetObsInto call per source
// a batch touches. A loop gathers a batch of the mix with one GetObsInto call of
// that container on the mapped indices, so a mix of views of an array keeps the
// array's gather kernel.
type Mixed[T, B any] struct {
	s     schedule
	src   container.Batched[T, B]
	views []container.IndexView[T, B]
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
// (source j is read from its observation 0 up): [Mixed.ShuffleSources] reads
// each in a random order, to draw a random part of it, and a loop shuffles the
// mix (eachobs.ShuffleWithin keeps each batch's proportions, eachobs.Shuffle
// does not).
//
// The mix reads its sources through their join, transform.Join(sources...):
// batches are slices, and a source that draws per observation
// (container.Random) draws with r.Stream(j) as a join's part j does, so that two
// sources draw independent numbers and an observation draws alike wherever the
// mix puts it (a repeat of Resample draws as its first use, as a repeated index
// of subset.Of does). To mix arrays and keep their gather kernel, make the
// sources views of one array and mix them with [Views].
//
// New returns an error wrapping [container.ErrEmpty] when a source holds no
// observation under FirstExhausted or Resample (an empty source is never read out
// of range: AllExhausted leaves it out), [ErrWeights] for bad weights or rule,
// and [ErrSize] when the mix would not fit an int.
func New[T any](rule Rule, weights []float64, seed uint64, sources ...container.Container[T]) (*Mixed[T, []T], error) {
	for _, c := range sources {
		container.CheckArg(c != nil, "mix.New", "source", "nil", "a container")
	}
	join := transform.Join(sources...)
	views := make([]container.IndexView[T, []T], len(sources))
	lo := 0
	for j, c := range sources {
		views[j] = subset.Range(container.Batched[T, []T](join), lo, lo+c.Nobs())
		lo += c.Nobs()
	}
	return build("mix.New", rule, weights, seed, join, views)
}

// Views returns the mix of views, which must all be views of one container (their
// Source is the same), with the sizing and schedule of [New]; the mix is a view
// of that container, and a source that draws per observation draws as the views
// pass it on. It returns the errors of [New], and one wrapping [ErrSource] when
// two views have different sources.
//
//	train, err := mix.Views(mix.FirstExhausted, []float64{0.7, 0.3}, seed,
//		subset.Range(x, 0, 50000), subset.Range(x, 50000, 60000))
func Views[T, B any](rule Rule, weights []float64, seed uint64, views ...container.IndexView[T, B]) (*Mixed[T, B], error) {
	var src container.Batched[T, B]
	for j, v := range views {
		container.CheckArg(v != nil, "mix.Views", "view", "nil", "a container.IndexView")
		if j == 0 {
			src = v.Source()
		} else if !same(src, v.Source()) {
			return nil, errorf("mix.Views", ErrSource, "view %d reads %T, view 0 reads %T (not the same container)", j, v.Source(), src)
		}
	}
	return build("mix.Views", rule, weights, seed, src, append([]container.IndexView[T, B](nil), views...))
}

func build[T, B any](op string, rule Rule, weights []float64, seed uint64, src container.Batched[T, B], views []container.IndexView[T, B]) (*Mixed[T, B], error) {
	n := make([]int, len(views))
	for j, v := range views {
		n[j] = v.Nobs()
	}
	s, err := newSchedule(op, rule, weights, seed, n)
	if err != nil {
		return nil, err
	}
	return &Mixed[T, B]{s: s, src: src, views: views}, nil
}

// same reports whether a and b are the same container: equal interface values,
// compared only when their dynamic values are comparable (a struct of a
// comparable type may hold an interface whose value is not, as
// container.AsBatched of a struct holding a slice does: such containers are
// never known to be the same).
func same(a, b any) bool {
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	if ta != tb {
		return false
	}
	if ta.Comparable() {
		return reflect.ValueOf(a).Comparable() && reflect.ValueOf(b).Comparable() && a == b
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

// Nobs returns the number of observations of the mix.
func (m *Mixed[T, B]) Nobs() int { return m.s.total }

// Locate returns the source of observation i of the mix and the index of the
// observation within that source. It panics with a [*container.IndexError] when
// i is outside [0, Nobs()).
func (m *Mixed[T, B]) Locate(i int) (source, index int) {
	container.CheckIndex("mix.Mixed.Locate", i, m.s.total)
	return m.s.locate(i)
}

// Use returns the source of observation i of the mix and its use of that
// source: how many positions before i hold the same source. It is Locate's
// index but under Resample, where the index is use % the source's Nobs;
// [Mixed.Position] is its inverse. Orders that shuffle each source's uses among
// the positions the schedule gives that source (and so keep every batch in
// proportion) are built on the pair. It panics with a [*container.IndexError]
// when i is outside [0, Nobs()).
func (m *Mixed[T, B]) Use(i int) (source, use int) {
	container.CheckIndex("mix.Mixed.Use", i, m.s.total)
	return m.s.use(i)
}

// Counts returns how many observations of each source the mix holds, in the
// order of the sources (with repeats under Resample); newly allocated.
func (m *Mixed[T, B]) Counts() []int { return append([]int(nil), m.s.uses...) }

// Rule returns the rule the mix was built with.
func (m *Mixed[T, B]) Rule() Rule { return m.s.rule }

// Position returns the observation of the mix that holds the use-th observation
// the mix takes from source (use counts from 0 up to Counts()[source]): the
// inverse of [Mixed.Locate] on uses. Under Resample the use-th observation of a
// source is its observation use % Nobs. Position panics with a
// [*container.IndexError] when source or use is out of range.
func (m *Mixed[T, B]) Position(source, use int) int {
	container.CheckIndex("mix.Mixed.Position", source, len(m.s.uses))
	container.CheckIndex("mix.Mixed.Position", use, m.s.uses[source])
	return m.s.position(source, use)
}

// domainSources keeps the keys of ShuffleSources apart from the kit's other
// keys.
const domainSources = 0x6d69782d73726373 // "mix-srcs"

// ShuffleSources returns the mix m with each source read in a random order of
// its own instead of from its observation 0 up: source j's use u is its
// observation c_j(u), c_j the permutation index.NewCipher(n_j, key, 0) of its
// n_j observations, keyed by seed and j. Everything else is m's: the schedule,
// Nobs, Counts, Use and Position (on uses), the sources read. A first-exhausted
// mix then takes a random part of its larger sources, different for each seed,
// at no cost in memory (subset.Shuffle of each source holds 8 bytes per
// observation); under Resample every pass over a source reads it in the same
// order. The shuffled mix costs an evaluation of the cipher per index (and
// its ciphers, 240 bytes per source). m is not changed.
func (m *Mixed[T, B]) ShuffleSources(seed uint64) *Mixed[T, B] {
	c := *m
	c.s.order = make([]index.Cipher, len(m.s.n))
	for j, n := range m.s.n {
		c.s.order[j] = index.NewCipher(n, imix.Key(domainSources, seed, uint64(j)), 0)
	}
	return &c
}

// Source returns the container the mix is a view of: the views' container for
// [Views], the join of the sources for [New].
func (m *Mixed[T, B]) Source() container.Batched[T, B] { return m.src }

// MapIndices writes the source indices of the mix indices idx into dst, reusing
// dst's memory when it can, and returns it; dst may be idx itself. It panics with
// a [*container.IndexError] when an index is out of range.
func (m *Mixed[T, B]) MapIndices(dst, idx []int) []int {
	container.CheckIndices("mix.Mixed.MapIndices", idx, m.s.total)
	dst = container.Resize(dst, len(idx))
	for a, i := range idx {
		j, k := m.s.locate(i)
		dst[a] = k // mapped in place by the view: no scratch to allocate
		m.views[j].MapIndices(dst[a:a+1], dst[a:a+1])
	}
	return dst
}

// at returns the source index of the checked mix index i.
func (m *Mixed[T, B]) at(i int) int {
	j, k := m.s.locate(i)
	one := [1]int{k}
	return m.views[j].MapIndices(one[:], one[:])[0]
}

// GetObs returns observation i of the mix. It panics with a
// [*container.IndexError] when i is outside [0, Nobs()).
func (m *Mixed[T, B]) GetObs(i int) T {
	container.CheckIndex("mix.Mixed.GetObs", i, m.s.total)
	return m.src.GetObs(m.at(i))
}

// AppendObs appends the bytes of observation i of the mix to dst, read from
// its source as container.AppendObs reads them (the source's AppendObs when it
// has one: a mix of container.Encoded sources is Encoded). It panics as GetObs
// does, and with a [*container.ArgError] when the observations are not []byte.
func (m *Mixed[T, B]) AppendObs(dst []byte, i int) ([]byte, error) {
	container.CheckIndex("mix.Mixed.AppendObs", i, m.s.total)
	return container.AppendObs(m.src, dst, m.at(i))
}

// Where returns where observation i of the mix is stored, as its source says
// (container.Where). It panics as GetObs does.
func (m *Mixed[T, B]) Where(i int) string {
	container.CheckIndex("mix.Mixed.Where", i, m.s.total)
	return container.Where(m.src, m.at(i))
}

// GetObsInto gathers the observations at idx with one call of the source's
// GetObsInto on the mapped indices, reusing dst as that method does.
func (m *Mixed[T, B]) GetObsInto(dst B, idx []int) B {
	p := indexbuf.Get()
	*p = m.MapIndices(*p, idx)
	dst = m.src.GetObsInto(dst, *p)
	indexbuf.Put(p)
	return dst
}

// GetObsRand returns observation i of the mix drawn with r, as its source draws
// it. It panics as GetObs does.
func (m *Mixed[T, B]) GetObsRand(i int, r container.ObsRand) T {
	container.CheckIndex("mix.Mixed.GetObsRand", i, m.s.total)
	return container.GetObsRand(m.src, m.at(i), r)
}

// GetObsRandInto is GetObsInto with the observations drawn with r when the
// source draws per observation.
func (m *Mixed[T, B]) GetObsRandInto(dst B, idx []int, r container.ObsRand) B {
	p := indexbuf.Get()
	*p = m.MapIndices(*p, idx)
	dst = container.GetObsRandInto(m.src, dst, *p, r)
	indexbuf.Put(p)
	return dst
}
