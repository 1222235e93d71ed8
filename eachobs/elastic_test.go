package eachobs_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
)

// epochSlots returns the real indices of b (a batch of part of parts, batches
// of size, over n observations) whose stream positions lie in epoch e: the
// step begins at position Consumed of epoch Pos.Epoch (before it, with
// RollOver), and a slot's position is the step's start plus its offset.
func epochSlots(b rec, n, e, parts, size, part int, strided bool) []int {
	start := b.Pos.Epoch*n + b.Pos.Consumed
	var out []int
	for j, x := range b.Indices[:b.Real] {
		off := part*size + j
		if strided {
			off = part + j*parts
		}
		if (start+off)/n == e {
			out = append(out, x)
		}
	}
	return out
}

// TestElasticResume: a job of P parts with batches of B, stopped after any step
// of an epoch, resumed by P' parts with batches of B' (and other workers) from
// the position every part saved, visits the rest of the epoch: what the two
// runs consumed together is every observation of the epoch exactly once (Keep,
// Pad, RollOver; with Drop each at most once, all but the remainder of the new
// steps). 10^4 random configurations of n, P, P', B, B', tail, order, layout,
// workers and the step stopped at.
func TestElasticResume(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 42))
	const e = 1
	trials := 10_000
	if testing.Short() {
		trials = 1000
	}
	for trial := range trials {
		n := 1 + rng.IntN(90)
		p1, p2 := 1+rng.IntN(6), 1+rng.IntN(6)
		b1, b2 := 1+rng.IntN(8), 1+rng.IntN(8)
		s1, s2 := rng.IntN(2) == 0, rng.IntN(2) == 0
		tail := tails[rng.IntN(len(tails))]
		o := orders[rng.IntN(len(orders))]
		seed := rng.Uint64()
		par := parallelism[0]
		if trial%8 == 0 {
			par = parallelism[rng.IntN(len(parallelism))]
		}
		loaders := func(parts, size int, strided bool, extra ...eachobs.Option) []*eachobs.Loader[[]int] {
			var out []*eachobs.Loader[[]int]
			for p := range parts {
				opts := append(o.options(seed), eachobs.Tail(tail), eachobs.Partition(index.Part{Index: p, Parts: parts, Strided: strided}))
				out = append(out, eachobs.NewLoader(blockedTens(n), size, append(opts, extra...)...))
			}
			return out
		}
		first := loaders(p1, b1, s1)
		steps := first[0].Len(e)
		if steps == 0 {
			continue
		}
		k := rng.IntN(steps) // stop after step k of epoch e
		what := fmt.Sprintf("trial %d: n=%d %v %s, %dx%d (strided %v) stopped after step %d of %d, resumed %dx%d (strided %v)", trial, n, tail, o.name, p1, b1, s1, k, steps, p2, b2, s2)

		var seen []int
		var saved eachobs.Position
		for p, l := range first {
			for bi, b := range collect(l.Epoch(e)) {
				if b.Pos.Batch > k || b.Pos.Epoch != e {
					break
				}
				seen = append(seen, epochSlots(b, n, e, p1, b1, p, s1)...)
				if p == 0 && bi == k {
					saved = b.Next
				}
			}
		}
		consumed := len(seen)
		for p, l := range loaders(p2, b2, s2, parOpts(par.prefetch, par.workers)...) {
			seq, err := resume(l, saved)
			if err != nil {
				t.Fatalf("%s: Resume(%v): %v", what, saved, err)
			}
			for b := range seq {
				r := recOf(b)
				if r.Pos.Epoch*n+r.Pos.Consumed >= (e+1)*n { // the step starts after epoch e
					break
				}
				seen = append(seen, epochSlots(r, n, e, p2, b2, p, s2)...)
			}
		}
		slices.Sort(seen)
		if len(slices.Compact(slices.Clone(seen))) != len(seen) {
			t.Fatalf("%s: an observation visited twice: %v", what, seen)
		}
		want := n
		if tail == index.Drop {
			c := saved.Consumed
			if saved.Epoch != e {
				c = n
			}
			want = consumed + (n-c)/(p2*b2)*(p2*b2)
		}
		if len(seen) != want {
			t.Fatalf("%s: %d observations of the epoch visited, want %d (saved %v)", what, len(seen), want, saved)
		}
	}
}

// TestResumeRefusesWhatItCannotAbsorb: in 1,000 random trials each, a
// position resumed under another batch size or number of parts continues with
// the rest of the epoch (TestElasticResume checks the observations); under
// another tail, another number of observations (+-1), or Shuffle(0) against no
// shuffle, Resume returns ErrPosition naming the option, where the position of
// the first version resumed and lost or repeated observations.
func TestResumeRefusesWhatItCannotAbsorb(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := range 1000 {
		n, size := 2+rng.IntN(80), 1+rng.IntN(16)
		tail := tails[rng.IntN(len(tails))]
		l := eachobs.NewLoader(tens(n), size, eachobs.Shuffle(0), eachobs.Tail(tail))
		var saved eachobs.Position
		for b := range l.Epoch(1) { // after a random batch of epoch 1
			saved = b.Next()
			if rng.IntN(3) == 0 {
				break
			}
		}
		if saved.Order == "" {
			continue // Drop with a batch larger than the epoch: no batch
		}
		for _, tc := range []struct {
			what, option string
			other        *eachobs.Loader[[]int]
		}{
			{"batch size", "", eachobs.NewLoader(tens(n), 1+rng.IntN(16), eachobs.Shuffle(0), eachobs.Tail(tail))},
			{"parts", "", eachobs.NewLoader(tens(n), size, eachobs.Shuffle(0), eachobs.Tail(tail), eachobs.Partition(index.Part{Parts: 1 + rng.IntN(4)}))},
			{"tail", "Tail:", eachobs.NewLoader(tens(n), size, eachobs.Shuffle(0), eachobs.Tail(tails[(int(tail)+1+rng.IntN(3))%4]))},
			{"size+1", "the container:", eachobs.NewLoader(tens(n+1), size, eachobs.Shuffle(0), eachobs.Tail(tail))},
			{"size-1", "the container:", eachobs.NewLoader(tens(n-1), size, eachobs.Shuffle(0), eachobs.Tail(tail))},
			{"no shuffle", "no shuffle:", eachobs.NewLoader(tens(n), size, eachobs.Tail(tail))},
		} {
			_, err := resume(tc.other, saved)
			if tc.option == "" {
				if err != nil {
					t.Fatalf("trial %d: another %s: %v, want the rest of the epoch", trial, tc.what, err)
				}
				continue
			}
			if !errors.Is(err, container.ErrState) || !strings.Contains(err.Error(), tc.option) {
				t.Fatalf("trial %d: another %s: error %v, want ErrPosition naming %q", trial, tc.what, err, tc.option)
			}
		}
	}
}

// TestRepartitionAtScale simulates, with no data read, a job of 1,024
// processes over n = 10^10 observations (a container that computes index i as
// observation i), stopped a third of the way into an epoch and restarted on
// 1,000 processes with another batch size. For each of the 1,024 old parts the
// batch of the step before the stop holds the cipher's observations at its
// positions; for each of the 1,000 new parts the first batch holds the
// observations of the next positions, none consumed before, each once; and a
// part's loader and first batch take the same memory for n = 10^10 as for
// n = 10^4.
func TestRepartitionAtScale(t *testing.T) {
	const n, e, oldSize, newSize, oldParts, newParts = 10_000_000_000, 2, 32, 40, 1024, 1000
	data := container.FromFunc(n, func(i int) int { return i })
	loader := func(c container.Batched[int, []int], part, parts, size int) *eachobs.Loader[[]int] {
		return eachobs.NewLoader(c, size, eachobs.Shuffle(7), eachobs.Tail(index.Pad), eachobs.Partition(index.Part{Index: part, Parts: parts}))
	}
	order := index.NewCipher(n, 7, e)
	l0 := loader(data, 0, oldParts, oldSize)
	k := l0.Len(e) / 3
	before := start(l0)
	before.Epoch, before.Consumed, before.Batch = l0.Steps().After(e, k-1) // the start of step k
	var saved eachobs.Position
	for p := range oldParts {
		seq, err := resume(loader(data, p, oldParts, oldSize), before)
		if err != nil {
			t.Fatal(err)
		}
		for b := range seq {
			for j, x := range b.Data {
				if want := order.At(before.Consumed + p*oldSize + j); x != want {
					t.Fatalf("old part %d slot %d holds %d, the cipher's %d", p, j, x, want)
				}
			}
			saved = b.Next()
			break
		}
	}
	if saved.Consumed != (k+1)*oldSize*oldParts {
		t.Fatalf("saved %v, want %d consumed", saved, (k+1)*oldSize*oldParts)
	}
	seen := make(map[int]bool, newParts*newSize)
	for p := range newParts {
		seq, err := resume(loader(data, p, newParts, newSize), saved)
		if err != nil {
			t.Fatal(err)
		}
		for b := range seq {
			for j, x := range b.Data {
				pos := order.Pos(x)
				if pos != saved.Consumed+p*newSize+j || pos < saved.Consumed || seen[x] {
					t.Fatalf("new part %d slot %d holds %d at position %d: consumed before, twice, or out of place", p, j, x, pos)
				}
				seen[x] = true
			}
			break
		}
	}
	// Memory per part does not grow with n.
	bytes := func(size int) uint64 {
		c := container.FromFunc(size, func(i int) int { return i })
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		for p := range 20 {
			l := loader(c, p, newParts, newSize)
			pos := start(l)
			pos.Epoch, pos.Consumed, pos.Batch = l.Steps().After(0, 0)
			seq, err := resume(l, pos)
			if err != nil {
				t.Fatal(err)
			}
			for range seq {
				break
			}
		}
		runtime.ReadMemStats(&m1)
		return (m1.TotalAlloc - m0.TotalAlloc) / 20
	}
	small, large := bytes(newParts*newSize*10), bytes(n)
	t.Logf("bytes allocated per part (loader, resume, first batch): n=%d: %d, n=%d: %d", newParts*newSize*10, small, n, large)
	if large > small+1024 || large > 64<<10 {
		t.Errorf("a part allocates %d bytes for n=10^10 and %d for n=%d: memory grows with n", large, small, newParts*newSize*10)
	}
}
