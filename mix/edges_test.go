package mix_test

import (
	"errors"
	"math"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/mix"
	"github.com/obskit/obskit/subset"
)

// span is a container of n observations that are their own indices, held
// in no memory, so that a source may be as large as an int allows.
type span int

func (s span) Nobs() int        { return int(s) }
func (s span) GetObs(i int) int { return i }

// TestLongRunWeights checks that a long stretch of a mix follows weights
// that no block of at most 4096 positions holds exactly (1 : sqrt 2 : pi):
// after 200,000 positions, the count of each source is within 1.5 of its
// share, which needs the block's positions apportioned by largest
// remainders, the error of a block not growing with the blocks.
func TestLongRunWeights(t *testing.T) {
	w := []float64{1, math.Sqrt2, math.Pi}
	m, err := mix.New(mix.FirstExhausted, w, 0, span(1e6), span(1e6), span(1e6))
	if err != nil {
		t.Fatal(err)
	}
	sum := w[0] + w[1] + w[2]
	counts := make([]int, 3)
	for p := range 200000 {
		j, _ := m.Locate(p)
		counts[j]++
		if (p+1)%10000 != 0 {
			continue
		}
		for j := range w {
			if share := float64(p+1) * w[j] / sum; math.Abs(float64(counts[j])-share) > 1.5 {
				t.Fatalf("first %d positions: source %d has %d, its share is %.2f", p+1, j, counts[j], share)
			}
		}
	}
}

// TestLargestMix checks the bound of a mix's size: every source's last use
// must fall at a position an int counts. Two views of 2^62 and 10
// observations at 1:1: blocks of two positions, so the first source's last
// use is at position MaxInt-1 when the seed puts it first in the block (it
// fits), at MaxInt when second (an error wrapping ErrSize).
func TestLargestMix(t *testing.T) {
	x := container.AsBatched[int](span(math.MaxInt))
	views := func(n int, seed uint64) (*mix.Mixed[int, []int], error) {
		return mix.Views(mix.FirstExhausted, []float64{1, 1}, seed,
			container.IndexView[int, []int](subset.Range(x, 0, n)), subset.Range(x, 5, 15))
	}
	fits := map[bool]bool{}
	for seed := range uint64(8) {
		small, err := views(100, seed)
		if err != nil {
			t.Fatal(err)
		}
		first, _ := small.Locate(0)
		m, err := views(1<<62, seed)
		fits[first == 0] = true
		if first == 0 && (err != nil || m.Nobs() != 20) {
			t.Errorf("seed %d: the first source's last use at MaxInt-1: %v, want a mix of 20", seed, err)
		}
		if first == 1 && !errors.Is(err, mix.ErrSize) {
			t.Errorf("seed %d: the first source's last use at MaxInt: %v, want ErrSize", seed, err)
		}
	}
	if len(fits) != 2 {
		t.Errorf("8 seeds put the first source only first (or second) in its block: %v", fits)
	}
}

// pair is a container that is a struct holding slices: a type that is not
// comparable, so two of them are never known to be the same container.
type pair struct{ a, b []int }

func (p pair) Nobs() int        { return len(p.a) }
func (p pair) GetObs(i int) int { return p.a[i] + p.b[i] }

func (p pair) GetObsInto(dst []int, idx []int) []int {
	dst = dst[:0]
	for _, i := range idx {
		dst = append(dst, p.GetObs(i))
	}
	return dst
}

// loose is a plain container (no GetObsInto) holding a slice: its
// container.AsBatched is of a comparable type holding a value that is not.
type loose struct{ a []int }

func (l loose) Nobs() int        { return len(l.a) }
func (l loose) GetObs(i int) int { return l.a[i] }

// table is a container of a map type: two are the same container when they
// are one map.
type table map[int]int

func (t table) Nobs() int        { return len(t) }
func (t table) GetObs(i int) int { return t[i] }

func (t table) GetObsInto(dst []int, idx []int) []int {
	dst = dst[:0]
	for _, i := range idx {
		dst = append(dst, t[i])
	}
	return dst
}

// TestViewsOfOtherContainers checks that Views refuses views of different
// containers that a comparison of lengths would take for one: two slices of
// the same length, two maps, and two containers of a type that is not comparable.
func TestViewsOfOtherContainers(t *testing.T) {
	x, y := container.Slice[int]{1, 2, 3, 4}, container.Slice[int]{5, 6, 7, 8}
	if _, err := mix.Views(mix.AllExhausted, []float64{1, 1}, 0, container.IndexView[int, []int](subset.Range(x, 0, 2)), subset.Range(y, 2, 4)); !errors.Is(err, mix.ErrSource) {
		t.Errorf("views of two slices of one length: error %v, want ErrSource", err)
	}
	if _, err := mix.Views(mix.AllExhausted, []float64{1, 1}, 0, container.IndexView[int, []int](subset.Range(x, 0, 2)), subset.Range(x, 2, 4)); err != nil {
		t.Errorf("views of one slice: %v", err)
	}
	s, u := table{0: 1, 1: 2}, table{0: 1, 1: 2}
	if _, err := mix.Views(mix.AllExhausted, []float64{1, 1}, 0, container.IndexView[int, []int](subset.Range(s, 0, 1)), subset.Range(u, 1, 2)); !errors.Is(err, mix.ErrSource) {
		t.Errorf("views of two maps: error %v, want ErrSource", err)
	}
	if _, err := mix.Views(mix.AllExhausted, []float64{1, 1}, 0, container.IndexView[int, []int](subset.Range(s, 0, 1)), subset.Range(s, 1, 2)); err != nil {
		t.Errorf("views of one map: %v", err)
	}
	p, q := pair{[]int{1, 2}, []int{3, 4}}, pair{[]int{5, 6}, []int{7, 8}}
	if _, err := mix.Views(mix.AllExhausted, []float64{1, 1}, 0, container.IndexView[int, []int](subset.Range(p, 0, 1)), subset.Range(q, 1, 2)); !errors.Is(err, mix.ErrSource) {
		t.Errorf("views of two containers of a type that is not comparable: error %v, want ErrSource", err)
	}
	l, o := container.AsBatched[int](loose{[]int{1, 2}}), container.AsBatched[int](loose{[]int{5, 6}})
	if _, err := mix.Views(mix.AllExhausted, []float64{1, 1}, 0, container.IndexView[int, []int](subset.Range(l, 0, 1)), subset.Range(o, 1, 2)); !errors.Is(err, mix.ErrSource) {
		t.Errorf("views of two adapted containers holding slices: error %v, want ErrSource", err)
	}
}

// TestTiesBySeed checks that the seed, not the order of the sources, breaks
// the schedule's ties: at equal weights every slot is a tie, each block holds
// each source once, and over seeds each source comes first.
func TestTiesBySeed(t *testing.T) {
	const k = 4
	sources := []container.Container[int]{span(100), span(100), span(100), span(100)}
	firsts := map[int]bool{}
	for seed := range uint64(40) {
		m, err := mix.New(mix.FirstExhausted, []float64{1, 1, 1, 1}, seed, sources...)
		if err != nil {
			t.Fatal(err)
		}
		block := map[int]bool{}
		for p := range k {
			j, _ := m.Locate(p)
			block[j] = true
		}
		if len(block) != k {
			t.Fatalf("seed %d: the first %d positions hold sources %v, want each once", seed, k, block)
		}
		j, _ := m.Locate(0)
		firsts[j] = true
	}
	if len(firsts) != k {
		t.Errorf("over 40 seeds, the first position held only sources %v of %d", firsts, k)
	}
}
