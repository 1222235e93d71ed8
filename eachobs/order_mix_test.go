package eachobs_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/mix"
)

// randomMix returns a mix of 1 to 4 sources of random sizes (observation j of
// source s is 1000*s + j) under a random rule, or nil when the draw is one New
// refuses (an empty source under a rule that cannot take it).
func randomMix(t *testing.T, rng *rand.Rand) *mix.Mixed[int, []int] {
	t.Helper()
	k := 1 + rng.IntN(4)
	srcs := make([]container.Container[int], k)
	w := make([]float64, k)
	for s := range srcs {
		src := make(container.Slice[int], rng.IntN(40))
		for j := range src {
			src[j] = 1000*s + j
		}
		srcs[s], w[s] = src, 0.5+rng.Float64()
	}
	rule := []mix.Rule{mix.FirstExhausted, mix.AllExhausted, mix.Resample}[rng.IntN(3)]
	m, err := mix.New(rule, w, rng.Uint64(), srcs...)
	if err != nil {
		if errors.Is(err, container.ErrEmpty) {
			return nil
		}
		t.Fatal(err)
	}
	return m
}

// TestShuffleWithin: over 100 random mixes, every epoch of a ShuffleWithin
// loop visits the mix's observations each once (as a multiset: Resample
// repeats some), position p holds the source the mix's own order puts there,
// epochs differ, equal seeds give equal epochs whatever the workers, and a
// loop resumed at any batch (with another batch size) gives the rest of the
// epoch the uninterrupted loop gives.
func TestShuffleWithin(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 3))
	for trial := 0; trial < 100; {
		m := randomMix(t, rng)
		if m == nil || m.Nobs() == 0 {
			continue
		}
		trial++
		n, seed, size := m.Nobs(), rng.Uint64(), 1+rng.IntN(9)
		want := container.Collect[int](m)
		slices.Sort(want)
		var epochs [][]int
		for e := range 2 {
			var got []int
			for b := range eachobs.NewLoader(m, size, eachobs.ShuffleWithin(seed, m)).Epoch(e) {
				for p, i := range b.Indices {
					if s, _ := m.Use(i); s != b.Data[p]/1000 {
						t.Fatalf("trial %d: index %d holds source %d, data %d", trial, i, s, b.Data[p])
					}
				}
				got = append(got, b.Data...)
			}
			for p, x := range got { // the mix's source at every position
				if s, _ := m.Use(p); s != x/1000 {
					t.Fatalf("trial %d epoch %d: position %d holds source %d, the mix's order source %d", trial, e, p, x/1000, s)
				}
			}
			epochs = append(epochs, got)
			sorted := slices.Sorted(slices.Values(got))
			if diff := cmp.Diff(want, sorted); diff != "" {
				t.Fatalf("trial %d epoch %d: observations mismatch (-want +got):\n%s", trial, e, diff)
			}
		}
		if n >= 20 && slices.Equal(epochs[0], epochs[1]) {
			t.Fatalf("trial %d: epochs 0 and 1 of %d observations are equal", trial, n)
		}
		var got []int
		if trial%4 == 0 {
			par := eachobs.NewLoader(m, size, eachobs.ShuffleWithin(seed, m), eachobs.Workers(3), eachobs.Prefetch(1))
			for b := range par.Epoch(1) {
				got = append(got, b.Data...)
			}
			if diff := cmp.Diff(epochs[1], got); diff != "" {
				t.Fatalf("trial %d: epoch 1 with 3 workers mismatch (-want +got):\n%s", trial, diff)
			}
		}
		l := eachobs.NewLoader(m, size, eachobs.ShuffleWithin(seed, m))
		stop := rng.IntN((n + size - 1) / size)
		var saved eachobs.Position
		k := 0
		for b := range l.Epoch(1) {
			saved = b.Next()
			if k == stop {
				break
			}
			k++
		}
		other := eachobs.NewLoader(m, 1+rng.IntN(9), eachobs.ShuffleWithin(seed, m))
		rest, err := resume(other, saved)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		got = nil
		for b := range rest {
			if b.Pos.Epoch > 1 {
				break
			}
			got = append(got, b.Data...)
		}
		wantRest := epochs[1][:0]
		if saved.Epoch == 1 { // else stopped after the epoch's last batch
			wantRest = epochs[1][saved.Consumed:]
		}
		if diff := cmp.Diff(wantRest, got, cmpEmpty); diff != "" {
			t.Fatalf("trial %d: the rest of epoch 1 after %v mismatch (-want +got):\n%s", trial, saved, diff)
		}
	}
}

// TestShuffleWithinRefuses: a loader resumes no position of another mix's
// strata (other counts), of Shuffle, or of another seed, and a loop over a
// container of another size than the strata panics.
func TestShuffleWithinRefuses(t *testing.T) {
	a := container.Slice[int]{0, 1, 2, 3, 4, 5}
	b := container.Slice[int]{10, 11, 12}
	m1, err := mix.New(mix.AllExhausted, []float64{2, 1}, 0, a, b)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := mix.New(mix.AllExhausted, []float64{1, 2}, 0, a[:3], a[3:]) // the same Nobs, other counts
	if err != nil {
		t.Fatal(err)
	}
	pos := start(eachobs.NewLoader(m1, 2, eachobs.ShuffleWithin(1, m1)))
	for _, tc := range []struct {
		what, option string
		l            *eachobs.Loader[[]int]
	}{
		{"other strata", "ShuffleWithin:", eachobs.NewLoader(m2, 2, eachobs.ShuffleWithin(1, m2))},
		{"other seed", "ShuffleWithin:", eachobs.NewLoader(m1, 2, eachobs.ShuffleWithin(2, m1))},
		{"Shuffle", "Shuffle:", eachobs.NewLoader(m1, 2, eachobs.Shuffle(1))},
	} {
		_, err := resume(tc.l, pos)
		if !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), tc.option) {
			t.Errorf("%s: error %v, want ErrPosition naming %q", tc.what, err, tc.option)
		}
	}
	for _, tc := range []struct {
		what string
		f    func()
	}{
		{"nil strata", func() { eachobs.ShuffleWithin(1, nil) }},
		{"other size", func() {
			for range eachobs.Batches(a, 2, eachobs.ShuffleWithin(1, m1)) {
			}
		}},
		{"two shuffles", func() { eachobs.Batches(m1, 2, eachobs.ShuffleWithin(1, m1), eachobs.Shuffle(1)) }},
	} {
		func() {
			defer func() {
				var ae *container.ArgError
				if err, _ := recover().(error); !errors.As(err, &ae) {
					t.Errorf("%s: recovered %v, want a *container.ArgError", tc.what, err)
				}
			}()
			tc.f()
		}()
	}
}
