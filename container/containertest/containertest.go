// Package containertest checks that a container keeps the contract of package
// container, as testing/fstest checks an fs.FS: every container type of the
// kit passes it, in this module and in the others (columnar's columns), and a
// container written outside the kit can be held to the same rules in its own
// tests:
//
//	func TestTable(t *testing.T) {
//		containertest.Run(t, container.AsBatched(table), containertest.SliceConfig[Row]())
//	}
//
// [Run] checks that Nobs, GetObs and GetObsInto agree; that out-of-range
// indices panic with a *container.IndexError naming the index and the count;
// that index lists may be empty, reversed, shuffled and repeated; that buffers
// are reused without corrupting results; that concurrent readers do not
// interfere; that GetObsInto leaves the index list as it found it; that an
// IndexView's mapped index leads to the same observation; that a Random
// container's draws agree between GetObsRand and GetObsRandInto and are its
// GetObs and GetObsInto with the zero ObsRand; and that an Encoded container's
// AppendObs appends GetObs's bytes to a caller's buffer, from several
// goroutines at once, and panics as GetObs does out of range. A [Config] says
// how to look inside a batch.
//
// The containers [Counting], [Blobs] and [Draws] count how they are read, so
// that the tests of a wrapper (a view, a loop) show that it reaches its
// source's fast paths (one GetObsInto per batch, AppendObs, the randomness of
// a Random container) rather than reading observation by observation;
// [CheckPassesEncoded] checks that a wrapper passes the Encoded ability on.
package containertest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
)

// Config tells the checker how to look inside a batch.
type Config[T, B any] struct {
	// Obs returns observation j of batch b. Required.
	Obs func(b B, j int) T
	// Len returns the number of observations in b. Required.
	Len func(b B) int
	// Options are passed to cmp.Diff when comparing observations; arrays compare
	// with their Equal method without options.
	Options []cmp.Option
	// MaxObs bounds how many observations are visited one by one (default 200), so
	// that large containers check quickly.
	MaxObs int
}

// SliceConfig is the Config of containers whose batches are []T.
func SliceConfig[T any]() Config[T, []T] {
	return Config[T, []T]{
		Obs: func(b []T, j int) T { return b[j] },
		Len: func(b []T) int { return len(b) },
	}
}

// Run checks c against the container contract. c may be empty.
func Run[T, B any](t *testing.T, c container.Batched[T, B], cfg Config[T, B]) {
	t.Helper()
	if cfg.Obs == nil || cfg.Len == nil {
		t.Fatal("containertest.Run: Config.Obs and Config.Len are required")
	}
	if cfg.MaxObs <= 0 {
		cfg.MaxObs = 200
	}
	n := c.Nobs()
	if n < 0 {
		t.Fatalf("Nobs() = %d, want >= 0", n)
	}
	if m := c.Nobs(); m != n {
		t.Fatalf("Nobs() changed between calls: %d then %d", n, m)
	}
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	visit := visitList(n, cfg.MaxObs, rng)

	t.Run("GetObs", func(t *testing.T) {
		for _, i := range visit {
			a, b := c.GetObs(i), c.GetObs(i)
			if d := cmp.Diff(a, b, cfg.Options...); d != "" {
				t.Fatalf("GetObs(%d) differs between two calls (-first +second):\n%s", i, d)
			}
		}
	})

	t.Run("OutOfRange", func(t *testing.T) {
		for _, i := range []int{-1, n, n + 5} {
			wantPanic(t, fmt.Sprintf("GetObs(%d)", i), i, n, func() { c.GetObs(i) })
			var zero B
			wantPanic(t, fmt.Sprintf("GetObsInto(zero, [%d])", i), i, n, func() { c.GetObsInto(zero, []int{i}) })
			if n > 0 {
				wantPanic(t, fmt.Sprintf("GetObsInto(zero, [0, %d])", i), i, n, func() { c.GetObsInto(zero, []int{0, i}) })
			}
		}
	})

	lists := indexLists(n, cfg.MaxObs, rng)
	t.Run("GetObsInto", func(t *testing.T) {
		for name, idx := range lists {
			var zero B
			kept := slices.Clone(idx)
			got := c.GetObsInto(zero, idx)
			if !slices.Equal(idx, kept) {
				t.Fatalf("GetObsInto(zero, %s) changed the index list from %v to %v", name, kept, idx)
			}
			checkBatch(t, c, cfg, "GetObsInto(zero, "+name+")", got, idx)
		}
	})

	t.Run("Reuse", func(t *testing.T) {
		// One buffer through every list, large and small in turn: a reused buffer
		// must never leak observations of an earlier batch.
		var buf B
		for _, name := range []string{"all", "empty", "reversed", "shuffled-dups", "single", "all", "single"} {
			idx, ok := lists[name]
			if !ok {
				continue
			}
			buf = c.GetObsInto(buf, idx)
			checkBatch(t, c, cfg, "GetObsInto(reused, "+name+")", buf, idx)
		}
	})

	t.Run("Concurrent", func(t *testing.T) {
		idx := lists["shuffled-dups"]
		var wg sync.WaitGroup
		res := make([]B, 4)
		for g := range res {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var buf B
				for range 3 {
					buf = c.GetObsInto(buf, idx)
				}
				for _, i := range visit {
					c.GetObs(i)
				}
				res[g] = buf
			}()
		}
		wg.Wait()
		for g := range res {
			checkBatch(t, c, cfg, "concurrent GetObsInto", res[g], idx)
		}
	})

	if rc, ok := any(c).(container.Random[T, B]); ok {
		t.Run("Random", func(t *testing.T) { checkRandom(t, rc, cfg, visit, lists) })
	}

	if e, ok := any(c).(container.Encoded); ok {
		t.Run("Encoded", func(t *testing.T) { checkEncoded(t, e, visit) })
	}

	if v, ok := any(c).(container.IndexView[T, B]); ok {
		t.Run("IndexView", func(t *testing.T) {
			src := v.Source()
			idx := append([]int(nil), visit...)
			mapped := v.MapIndices(nil, idx)
			inPlace := v.MapIndices(idx, idx)
			for k, i := range visit {
				j := mapped[k]
				if inPlace[k] != j {
					t.Fatalf("MapIndices maps %d to %d, in place to %d", i, j, inPlace[k])
				}
				if j < 0 || j >= src.Nobs() {
					t.Fatalf("MapIndices maps %d to %d, outside the source's [0, %d)", i, j, src.Nobs())
				}
				if d := cmp.Diff(src.GetObs(j), c.GetObs(i), cfg.Options...); d != "" {
					t.Fatalf("MapIndices maps %d to %d, whose source observation is not the view's (-source +view):\n%s", i, j, d)
				}
			}
			// In place on a shuffled list with repeats, which a mapping written
			// back to front over 0..n-1 would not catch.
			dups := append([]int(nil), lists["shuffled-dups"]...)
			want := v.MapIndices(nil, dups)
			if got := v.MapIndices(dups, dups); !slices.Equal(got, want) {
				t.Fatalf("MapIndices in place of %v gives %v, into a new slice %v", lists["shuffled-dups"], got, want)
			}
			wantPanic(t, fmt.Sprintf("MapIndices([%d])", n), n, n, func() { v.MapIndices(nil, []int{n}) })
		})
	}

}

// checkRandom checks a Random container: GetObsRand and GetObsRandInto agree
// for one ObsRand whatever the batch, draw the same again, and are GetObs and
// GetObsInto with the zero ObsRand; bad indices panic.
func checkRandom[T, B any](t *testing.T, c container.Random[T, B], cfg Config[T, B], visit []int, lists map[string][]int) {
	t.Helper()
	n := c.Nobs()
	for _, i := range visit {
		if d := cmp.Diff(c.GetObs(i), c.GetObsRand(i, container.ObsRand{}), cfg.Options...); d != "" {
			t.Fatalf("GetObs(%d) is not GetObsRand(%d, zero ObsRand) (-GetObs +GetObsRand):\n%s", i, i, d)
		}
	}
	for _, pass := range []struct {
		seed  uint64
		epoch int
	}{{0, 0}, {1, 0}, {1, 7}, {1 << 40, 3}} {
		r := container.NewObsRand(pass.seed, pass.epoch)
		for _, i := range visit {
			a, b := c.GetObsRand(i, r), c.GetObsRand(i, container.NewObsRand(pass.seed, pass.epoch))
			if d := cmp.Diff(a, b, cfg.Options...); d != "" {
				t.Fatalf("GetObsRand(%d) of seed %d, epoch %d differs between two calls (-first +second):\n%s", i, pass.seed, pass.epoch, d)
			}
		}
		var buf B
		for name, idx := range lists {
			kept := slices.Clone(idx)
			buf = c.GetObsRandInto(buf, idx, r)
			if !slices.Equal(idx, kept) {
				t.Fatalf("GetObsRandInto(%s) changed the index list from %v to %v", name, kept, idx)
			}
			if got := cfg.Len(buf); got != len(idx) {
				t.Fatalf("GetObsRandInto(%s): batch holds %d observations, want %d", name, got, len(idx))
			}
			for j, i := range idx {
				if d := cmp.Diff(c.GetObsRand(i, r), cfg.Obs(buf, j), cfg.Options...); d != "" {
					t.Fatalf("GetObsRandInto(%s) of seed %d, epoch %d: observation %d (index %d) mismatch (-GetObsRand +batch):\n%s", name, pass.seed, pass.epoch, j, i, d)
				}
			}
		}
	}
	for _, i := range []int{-1, n} {
		var zero B
		wantPanic(t, fmt.Sprintf("GetObsRand(%d)", i), i, n, func() { c.GetObsRand(i, container.ObsRand{}) })
		wantPanic(t, fmt.Sprintf("GetObsRandInto(zero, [%d])", i), i, n, func() { c.GetObsRandInto(zero, []int{i}, container.ObsRand{}) })
	}
}

func checkBatch[T, B any](t *testing.T, c container.Batched[T, B], cfg Config[T, B], what string, b B, idx []int) {
	t.Helper()
	if got := cfg.Len(b); got != len(idx) {
		t.Fatalf("%s: batch holds %d observations, want %d", what, got, len(idx))
	}
	for j, i := range idx {
		want := c.GetObs(i)
		got := cfg.Obs(b, j)
		if d := cmp.Diff(want, got, cfg.Options...); d != "" {
			t.Fatalf("%s: observation %d of the batch (index %d) mismatch (-GetObs +batch):\n%s", what, j, i, d)
		}
	}
}

// wantPanic checks that f panics with a *container.IndexError for index i of a
// container of n. (The IndexError's message names both.)
func wantPanic(t *testing.T, what string, i, n int, f func()) {
	t.Helper()
	r := recovered(f)
	if r == nil {
		t.Fatalf("%s on a container of %d: did not panic", what, n)
	}
	err, _ := r.(error)
	var ie *container.IndexError
	if !errors.As(err, &ie) {
		t.Fatalf("%s: panic %v (%T), want a *container.IndexError", what, r, r)
	}
	if ie.Index != i || ie.Nobs != n {
		t.Fatalf("%s: IndexError{Index: %d, Nobs: %d}, want index %d of %d", what, ie.Index, ie.Nobs, i, n)
	}
}

// recovered calls f and returns the value it panicked with, or nil. Checking the
// value after f has returned, rather than in the deferred call, makes a failure
// point at the check, not at the panic.
func recovered(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

func visitList(n, max int, rng *rand.Rand) []int {
	if n <= max {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := []int{0, n - 1}
	for len(out) < max {
		out = append(out, rng.IntN(n))
	}
	return out
}

func indexLists(n, max int, rng *rand.Rand) map[string][]int {
	lists := map[string][]int{"empty": {}}
	if n == 0 {
		return lists
	}
	m := min(n, max)
	all := make([]int, m)
	for i := range all {
		all[i] = i
	}
	rev := make([]int, m)
	for i := range rev {
		rev[i] = n - 1 - i
	}
	dups := make([]int, 0, m+m/2+2)
	for range m + m/2 + 2 {
		dups = append(dups, rng.IntN(n))
	}
	lists["all"] = all
	lists["reversed"] = rev
	lists["shuffled-dups"] = dups
	lists["single"] = []int{n - 1}
	lists["repeat"] = []int{0, 0, 0}
	return lists
}
