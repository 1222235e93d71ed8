package mix_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/mix"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/transform"
)

// tagged returns a container of n observations 1000*src + i, so that an
// observation names its source and its index.
func tagged(src, n int) container.Slice[int] {
	s := make([]int, n)
	for i := range s {
		s[i] = 1000*src + i
	}
	return s
}

// config draws a random mix: 1 to 5 sources of 0 to 150 observations (some
// empty), random weights, a rule.
func config(rng *rand.Rand) (rule mix.Rule, n []int, w []float64) {
	k := 1 + rng.IntN(5)
	n, w = make([]int, k), make([]float64, k)
	for j := range k {
		if rng.IntN(6) > 0 {
			n[j] = rng.IntN(150)
		}
		switch rng.IntN(3) {
		case 0:
			w[j] = float64(1 + rng.IntN(5))
		case 1:
			w[j] = rng.Float64() + 1e-3
		default:
			w[j] = 0.1 * float64(1+rng.IntN(9))
		}
	}
	return mix.Rule(rng.IntN(3)), n, w
}

// TestSizingProperties checks, over random mixes, the documented sizing and stop
// rules: which observations a mix holds and how often, that every index is in its
// source's range, that every stretch follows the weights, and that Position
// inverts Locate.
func TestSizingProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	trials := 3000
	if raceEnabled || testing.Short() {
		trials = 300
	}
	for trial := range trials {
		rule, n, w := config(rng)
		seed := rng.Uint64()
		srcs := make([]container.Container[int], len(n))
		for j := range n {
			srcs[j] = tagged(j, n[j])
		}
		m, err := mix.New(rule, w, seed, srcs...)
		empty := slices.Contains(n, 0)
		if rule != mix.AllExhausted && empty {
			if !errors.Is(err, container.ErrEmpty) {
				t.Fatalf("trial %d: %v mix of sizes %v: error %v, want ErrEmpty", trial, rule, n, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("trial %d: %v mix of sizes %v weights %v: %v", trial, rule, n, w, err)
		}
		what := fmt.Sprintf("trial %d: %v mix of sizes %v weights %v", trial, rule, n, w)
		seen := make([][]int, len(n))
		for j := range n {
			seen[j] = make([]int, n[j])
		}
		uses := make([]int, len(n))
		for i := range m.Nobs() {
			j, k := m.Locate(i)
			if j < 0 || j >= len(n) || k < 0 || k >= n[j] {
				t.Fatalf("%s: Locate(%d) = (%d, %d), out of range", what, i, j, k)
			}
			if got := m.GetObs(i); got != 1000*j+k {
				t.Fatalf("%s: GetObs(%d) = %d, want %d", what, i, got, 1000*j+k)
			}
			if js, u := m.Use(i); js != j || u != uses[j] {
				t.Fatalf("%s: Use(%d) = (%d, %d), want (%d, %d)", what, i, js, u, j, uses[j])
			}
			if p := m.Position(j, uses[j]); p != i {
				t.Fatalf("%s: Position(%d, %d) = %d, want %d", what, j, uses[j], p, i)
			}
			seen[j][k]++
			uses[j]++
		}
		if diff := cmp.Diff(m.Counts(), uses); diff != "" {
			t.Fatalf("%s: Counts() mismatch (-want +got):\n%s", what, diff)
		}
		switch rule {
		case mix.FirstExhausted:
			limited := false
			for j := range n {
				for k, c := range seen[j] {
					if c > 1 {
						t.Fatalf("%s: observation %d of source %d appears %d times", what, k, j, c)
					}
				}
				limited = limited || uses[j] == n[j]
			}
			if !limited {
				t.Fatalf("%s: no source is exhausted (uses %v)", what, uses)
			}
		case mix.AllExhausted:
			for j := range n {
				for k, c := range seen[j] {
					if c != 1 {
						t.Fatalf("%s: observation %d of source %d appears %d times, want once", what, k, j, c)
					}
				}
			}
		case mix.Resample:
			for j := range n {
				lo, hi := slices.Min(seen[j]), slices.Max(seen[j])
				if lo < 1 || hi-lo > 1 {
					t.Fatalf("%s: source %d's observations appear between %d and %d times, want at least once and evenly", what, j, lo, hi)
				}
			}
		}
		checkProportions(t, what, m, n, w, rule)
	}
}

// checkProportions checks that in every prefix of the first phase (all sources
// taking part) each source holds its share of positions to within one
// observation plus the rounding of the weights to a block.
func checkProportions(t *testing.T, what string, m *mix.Mixed[int, []int], n []int, w []float64, rule mix.Rule) {
	t.Helper()
	sum := 0.0
	for j := range w {
		if n[j] > 0 {
			sum += w[j]
		}
	}
	count := make([]int, len(n))
	full := make([]bool, len(n))
	for i := range m.Nobs() {
		j, _ := m.Locate(i)
		count[j]++
		if rule == mix.AllExhausted && count[j] == n[j] {
			full[j] = true
		}
		for s := range n {
			if n[s] == 0 {
				continue
			}
			want := float64(i+1) * w[s] / sum
			tol := 1.5 + float64(i+1)/4096
			if d := float64(count[s]) - want; d > tol || d < -tol {
				t.Fatalf("%s: after %d positions source %d has %d, want %.2f within %.2f", what, i+1, s, count[s], want, tol)
			}
		}
		if slices.Contains(full, true) {
			return // from here on the other sources share the positions
		}
	}
}

// TestEmptySources is Hugging Face's datasets issue 8626: an empty source mixed
// without replacement must contribute nothing, never a duplicate of another
// source's observation or an index out of range, wherever it stands.
func TestEmptySources(t *testing.T) {
	left, right, empty := container.Slice[int]{0, 1}, container.Slice[int]{10}, container.Slice[int]{}
	for _, order := range [][]container.Container[int]{{empty, left, right}, {left, right, empty}, {left, empty, right}} {
		for seed := range uint64(20) {
			m, err := mix.New(mix.AllExhausted, []float64{1, 1, 1}, seed, order...)
			if err != nil {
				t.Fatal(err)
			}
			got := container.Collect[int](m)
			slices.Sort(got)
			if diff := cmp.Diff([]int{0, 1, 10}, got); diff != "" {
				t.Fatalf("seed %d: all-exhausted mix with an empty source mismatch (-want +got):\n%s", seed, diff)
			}
		}
		for _, rule := range []mix.Rule{mix.FirstExhausted, mix.Resample} {
			if _, err := mix.New(rule, []float64{1, 1, 1}, 0, order...); !errors.Is(err, container.ErrEmpty) {
				t.Errorf("%v mix with an empty source: error %v, want ErrEmpty", rule, err)
			}
		}
	}
	m, err := mix.New(mix.AllExhausted, []float64{1, 2}, 0, empty, empty)
	if err != nil || m.Nobs() != 0 {
		t.Fatalf("all-exhausted mix of empty sources: Nobs %v, error %v; want 0, nil", m, err)
	}
}

func TestBadArguments(t *testing.T) {
	a := container.Slice[int]{1, 2, 3}
	for _, tc := range []struct {
		name string
		rule mix.Rule
		w    []float64
		srcs []container.Container[int]
		want error
	}{
		{"no sources", mix.FirstExhausted, nil, nil, mix.ErrWeights},
		{"too few weights", mix.FirstExhausted, []float64{1}, []container.Container[int]{a, a}, mix.ErrWeights},
		{"zero weight", mix.FirstExhausted, []float64{1, 0}, []container.Container[int]{a, a}, mix.ErrWeights},
		{"negative weight", mix.AllExhausted, []float64{1, -1}, []container.Container[int]{a, a}, mix.ErrWeights},
		{"NaN weight", mix.Resample, []float64{1, 0 / zero}, []container.Container[int]{a, a}, mix.ErrWeights},
		{"unknown rule", mix.Rule(9), []float64{1, 1}, []container.Container[int]{a, a}, mix.ErrWeights},
	} {
		if _, err := mix.New(tc.rule, tc.w, 0, tc.srcs...); !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
}

var zero float64

func TestExactRatio(t *testing.T) {
	a, b := tagged(0, 700), tagged(1, 300)
	m, err := mix.New(mix.FirstExhausted, []float64{0.7, 0.3}, 3, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if m.Nobs() <= 990 || m.Nobs() > 1000 { // b may run out within the last block
		t.Fatalf("Nobs %d, want 1000 to within a block of 10", m.Nobs())
	}
	for lo := 0; lo+10 <= m.Nobs(); lo += 10 { // every block of 10 holds 7 and 3
		c := 0
		for i := lo; i < lo+10; i++ {
			if j, _ := m.Locate(i); j == 0 {
				c++
			}
		}
		if c != 7 {
			t.Fatalf("positions [%d, %d) hold %d of source 0, want 7", lo, lo+10, c)
		}
	}
}

func TestConformance(t *testing.T) {
	m, err := mix.New(mix.AllExhausted, []float64{2, 1, 1}, 7, container.Container[int](tagged(0, 40)), tagged(1, 30), container.FromFunc(25, func(i int) int { return 2000 + i }))
	if err != nil {
		t.Fatal(err)
	}
	containertest.Run(t, m, containertest.SliceConfig[int]())
	x := tagged(0, 100)
	v, err := mix.Views(mix.Resample, []float64{1, 3}, 1, container.IndexView[int, []int](subset.Range(x, 0, 10)), subset.Range(x, 50, 100))
	if err != nil {
		t.Fatal(err)
	}
	containertest.Run(t, v, containertest.SliceConfig[int]())
}

// TestGathersBySource shows the fast paths: a batch of a Mixed reads each source
// with one GetObsInto call (through their join), and a batch of a mix of views
// reads the shared source with one call.
func TestGathersBySource(t *testing.T) {
	a, b := containertest.NewCounting(tagged(0, 50)), containertest.NewCounting(tagged(1, 50))
	m, err := mix.New(mix.FirstExhausted, []float64{1, 1}, 0, container.Container[int](a), b)
	if err != nil {
		t.Fatal(err)
	}
	idx := []int{5, 0, 17, 3, 9, 12}
	got := m.GetObsInto(nil, idx)
	for k, i := range idx {
		if got[k] != m.GetObs(i) {
			t.Fatalf("GetObsInto[%d] = %d, want %d", k, got[k], m.GetObs(i))
		}
	}
	a.Reset()
	b.Reset()
	m.GetObsInto(got, idx)
	if a.Batches() != 1 || b.Batches() != 1 || a.Singles()+b.Singles() != 0 {
		t.Errorf("a batch read the sources with %d+%d GetObsInto and %d GetObs calls, want 1+1 and 0", a.Batches(), b.Batches(), a.Singles()+b.Singles())
	}
	c := containertest.NewCounting(tagged(0, 100))
	v, err := mix.Views(mix.FirstExhausted, []float64{1, 1}, 0, container.IndexView[int, []int](subset.Range(c, 0, 50)), subset.Range(c, 50, 100))
	if err != nil {
		t.Fatal(err)
	}
	c.Reset()
	v.GetObsInto(nil, idx)
	if c.Batches() != 1 || c.Singles() != 0 {
		t.Errorf("a batch of a mix of views read the source with %d GetObsInto and %d GetObs calls, want 1 and 0", c.Batches(), c.Singles())
	}
	if _, err := mix.Views(mix.FirstExhausted, []float64{1, 1}, 0, container.IndexView[int, []int](subset.Range(c, 0, 50)), subset.Range(a, 0, 10)); !errors.Is(err, mix.ErrSource) {
		t.Errorf("views of two containers: error %v, want ErrSource", err)
	}
}

func TestSizes(t *testing.T) {
	a, b := tagged(0, 100), tagged(1, 1000)
	for _, tc := range []struct {
		rule mix.Rule
		want int
	}{
		{mix.FirstExhausted, 200}, // a runs out after 100 of each
		{mix.AllExhausted, 1100},
		{mix.Resample, 2000}, // b is used once, a ten times
	} {
		m, err := mix.New(tc.rule, []float64{1, 1}, 0, container.Container[int](a), b)
		if err != nil {
			t.Fatal(err)
		}
		if m.Nobs() < tc.want-1 || m.Nobs() > tc.want { // to within the block of 2
			t.Errorf("%v mix of 100 and 1000 at 1:1: Nobs %d, want %d to within a block", tc.rule, m.Nobs(), tc.want)
		}
	}
}

// TestRandomSources passes per-observation randomness through: a mix of random
// sources is random, its four methods agree (the conformance checker), and a
// source's observation draws alike in the mix and alone, with its source's
// stream.
func TestRandomSources(t *testing.T) {
	noisy := func(src int) *transform.RandMapped[int, int] {
		return transform.MapRand(container.Container[int](tagged(src, 40)), func(x int, rng *rand.Rand) int { return x*1000 + rng.IntN(1000) })
	}
	m, err := mix.New(mix.Resample, []float64{1, 2}, 5, container.Container[int](noisy(0)), tagged(1, 30))
	if err != nil {
		t.Fatal(err)
	}
	containertest.Run(t, m, containertest.SliceConfig[int]())
	r := container.NewObsRand(9, 3)
	for i := range m.Nobs() {
		j, k := m.Locate(i)
		got := m.GetObsRand(i, r)
		var want int
		if j == 0 {
			want = noisy(0).GetObsRand(k, r.Stream(0))
		} else {
			want = tagged(1, 30).GetObs(k)
		}
		if got != want {
			t.Fatalf("GetObsRand(%d) = %d, want %d (source %d, observation %d)", i, got, want, j, k)
		}
	}
	x := noisy(0)
	v, err := mix.Views(mix.AllExhausted, []float64{1, 1}, 0, container.IndexView[int, []int](subset.Range(x, 0, 20)), subset.Range(x, 20, 40))
	if err != nil {
		t.Fatal(err)
	}
	containertest.Run(t, v, containertest.SliceConfig[int]())
}

// TestShuffleSources: over random mixes, the mix with shuffled sources keeps the
// schedule (Nobs, Counts, Use) and reads, per source, the same number of
// observations, each use u at a distinct observation for u below the source's
// size (the use u % n after), drawn by the seed (equal seeds equal, another
// seed another order), and GetObs, GetObsInto and MapIndices agree; the mix it
// came from is unchanged.
func TestShuffleSources(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	trials := 1000
	if raceEnabled || testing.Short() {
		trials = 60
	}
	moved := 0
	for trial := range trials {
		rule, n, w := config(rng)
		srcs := make([]container.Container[int], len(n))
		for j := range n {
			srcs[j] = tagged(j, n[j])
		}
		m, err := mix.New(rule, w, rng.Uint64(), srcs...)
		if err != nil {
			continue // empty sources: TestSizingProperties
		}
		plain := container.Collect[int](m)
		seed := rng.Uint64()
		s := m.ShuffleSources(seed)
		what := fmt.Sprintf("trial %d: %v mix of sizes %v", trial, rule, n)
		if s.Nobs() != m.Nobs() || !slices.Equal(s.Counts(), m.Counts()) {
			t.Fatalf("%s: shuffled Nobs %d Counts %v, want %d %v", what, s.Nobs(), s.Counts(), m.Nobs(), m.Counts())
		}
		at := make([][]int, len(n)) // per source, the observation of each use
		for i := range s.Nobs() {
			j, u := m.Use(i)
			if js, us := s.Use(i); js != j || us != u {
				t.Fatalf("%s: shuffled Use(%d) = (%d, %d), want (%d, %d)", what, i, js, us, j, u)
			}
			js, k := s.Locate(i)
			if js != j || k < 0 || k >= n[j] {
				t.Fatalf("%s: shuffled Locate(%d) = (%d, %d): source %d of %d observations", what, i, js, k, j, n[j])
			}
			if got := s.GetObs(i); got != 1000*j+k {
				t.Fatalf("%s: shuffled GetObs(%d) = %d, want %d", what, i, got, 1000*j+k)
			}
			at[j] = append(at[j], k)
		}
		for j, ks := range at {
			first := ks[:min(len(ks), n[j])]
			if len(slices.Compact(slices.Sorted(slices.Values(first)))) != len(first) {
				t.Fatalf("%s: source %d's first %d uses read %v: a repeat", what, j, len(first), first)
			}
			for u := n[j]; u < len(ks); u++ {
				if ks[u] != ks[u%n[j]] {
					t.Fatalf("%s: source %d's use %d reads %d, use %d read %d", what, j, u, ks[u], u%n[j], ks[u%n[j]])
				}
			}
		}
		idx := rng.Perm(s.Nobs())
		got := s.GetObsInto(nil, idx)
		mapped := s.MapIndices(nil, idx)
		join := s.Source()
		for a, i := range idx {
			if want := s.GetObs(i); got[a] != want || join.GetObs(mapped[a]) != want {
				t.Fatalf("%s: GetObsInto/MapIndices at %d: %d, %d, want %d", what, i, got[a], join.GetObs(mapped[a]), want)
			}
		}
		if diff := cmp.Diff(plain, container.Collect[int](m)); diff != "" {
			t.Fatalf("%s: the mix changed (-before +after):\n%s", what, diff)
		}
		if diff := cmp.Diff(container.Collect[int](s), container.Collect[int](m.ShuffleSources(seed))); diff != "" {
			t.Fatalf("%s: equal seeds mismatch (-first +second):\n%s", what, diff)
		}
		if !slices.Equal(container.Collect[int](s), plain) {
			moved++
		}
	}
	if moved < trials/2 {
		t.Errorf("the shuffled sources changed the mix in %d of %d trials", moved, trials)
	}
	v, err := mix.New(mix.FirstExhausted, []float64{1, 1}, 0, container.Container[int](tagged(0, 40)), tagged(1, 100))
	if err != nil {
		t.Fatal(err)
	}
	containertest.Run(t, v.ShuffleSources(3), containertest.SliceConfig[int]())
}
