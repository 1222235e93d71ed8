package eachobs_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/transform"
	"github.com/obskit/obskit/tuples"
)

// noisy is a random map: observation i is 1000*x_i plus a number drawn from the
// generator of i, with x_i = i.
func noisy(n int) *transform.RandMapped[int, int] {
	return transform.MapRand(container.FromFunc(n, func(i int) int { return i }), func(x int, rng *rand.Rand) int {
		return 1000*x + rng.IntN(1000)
	})
}

// checkDraws checks that every slot of every batch holds the draw of its index
// with the randomness of (seed, the batch's epoch).
func checkDraws(t *testing.T, what string, seed uint64, rs []rec) {
	t.Helper()
	ref := containertest.NewDraws(1 << 20)
	for _, r := range rs {
		obs := container.NewObsRand(seed, r.Pos.Epoch)
		for j, i := range r.Indices {
			if want := ref.Want(i, obs); r.Data[j] != want {
				t.Fatalf("%s: epoch %d batch %d slot %d (index %d) = %d, want %d", what, r.Pos.Epoch, r.Pos.Batch, j, i, r.Data[j], want)
			}
		}
	}
}

// TestRandomnessPerObservation: a random container in a loop draws each
// observation from (seed, epoch, index), the same for every number of workers
// and prefetch depth, and across a resume at a random position.
func TestRandomnessPerObservation(t *testing.T) {
	const n, size, seed = 103, 8, 77
	d := containertest.NewDraws(n)
	labels := container.FromSlice(iota(n))
	pair, err := tuples.Zip2(d, labels)
	if err != nil {
		t.Fatal(err)
	}
	firsts := func(b eachobs.Batch[tuples.Pair[[]int, []int]]) rec {
		return rec{slices.Clone(b.Data.X), slices.Clone(b.Indices), b.Real, b.Pos, b.Count, b.Next()}
	}
	cases := map[string]func(opts ...eachobs.Option) []rec{
		"random map": func(opts ...eachobs.Option) []rec {
			return collectFrom(t, eachobs.NewLoader(noisy(n), size, opts...), 3)
		},
		"view of a random container": func(opts ...eachobs.Option) []rec {
			return collectFrom(t, eachobs.NewLoader(subset.Range(d, 0, n), size, opts...), 3)
		},
		"tuple with a random member": func(opts ...eachobs.Option) []rec {
			l := eachobs.NewLoader(pair, size, opts...)
			seq, err := resume(l, start(l))
			if err != nil {
				t.Fatal(err)
			}
			var out []rec
			for b := range seq {
				if b.Pos.Epoch == 3 {
					break
				}
				out = append(out, firsts(b))
			}
			return out
		},
	}
	for name, run := range cases {
		for _, tail := range tails {
			var want []rec
			for _, par := range parallelism {
				opts := append(parOpts(par.prefetch, par.workers), eachobs.Shuffle(seed), eachobs.Tail(tail))
				got := run(opts...)
				if want == nil {
					want = got
					if tail != index.RollOver { // a roll-over batch draws with its own epoch
						checkDraws(t, name, seed, got)
					}
					continue
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Fatalf("%s, %v, prefetch %d, workers %d: batches differ from the serial loop's (-serial +got):\n%s", name, tail, par.prefetch, par.workers, d)
				}
			}
		}
	}
}

// collectFrom runs a loader from the start through epochs epochs.
func collectFrom(t *testing.T, l *eachobs.Loader[[]int], epochs int) []rec {
	t.Helper()
	seq, err := resume(l, start(l))
	if err != nil {
		t.Fatal(err)
	}
	var out []rec
	for b := range seq {
		if b.Pos.Epoch == epochs {
			break
		}
		out = append(out, recOf(b))
	}
	return out
}

// TestRandomnessAcrossResume: resumed at a random position, with other
// workers, a loop yields the very batches, draws included, that the
// uninterrupted loop yields from there.
func TestRandomnessAcrossResume(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for trial := range 20 {
		n, size := 1+rng.IntN(120), 1+rng.IntN(16)
		seed := rng.Uint64()
		tail := tails[rng.IntN(len(tails))]
		l := eachobs.NewLoader(noisy(n), size, eachobs.Shuffle(seed), eachobs.Tail(tail))
		all := collectFrom(t, l, 3)
		if len(all) == 0 {
			continue
		}
		k := rng.IntN(len(all))
		par := parallelism[rng.IntN(len(parallelism))]
		resumed := eachobs.NewLoader(noisy(n), size, append(parOpts(par.prefetch, par.workers), eachobs.Shuffle(seed), eachobs.Tail(tail))...)
		seq, err := resume(resumed, all[k].Pos)
		if err != nil {
			t.Fatal(err)
		}
		var got []rec
		for b := range seq {
			if b.Pos.Epoch == 3 {
				break
			}
			got = append(got, recOf(b))
		}
		if d := cmp.Diff(all[k:], got); d != "" {
			t.Fatalf("trial %d (n %d, size %d, %v): resumed at %v with prefetch %d, workers %d (-uninterrupted +resumed):\n%s", trial, n, size, tail, all[k].Pos, par.prefetch, par.workers, d)
		}
	}
}

// TestRandomnessInObsAndRandomBatches: Obs draws each observation as a batch
// loop does; RandomBatches draws the same for every worker count.
func TestRandomnessInObsAndRandomBatches(t *testing.T) {
	const n, seed = 57, 3
	ref := containertest.NewDraws(n)
	for _, par := range parallelism {
		obs := eachobs.Obs(noisy(n), append(parOpts(par.prefetch, par.workers), eachobs.Shuffle(seed))...)
		for e := range 2 {
			for i, x := range obs {
				if want := ref.Want(i, container.NewObsRand(seed, e)); x != want {
					t.Fatalf("Obs, prefetch %d, workers %d, epoch %d: observation %d = %d, want %d", par.prefetch, par.workers, e, i, x, want)
				}
			}
		}
	}
	var want []rec
	for _, par := range parallelism {
		var got []rec
		for b := range must(eachobs.RandomBatches(noisy(n), 5, 30, rand.New(rand.NewPCG(1, 2)), parOpts(par.prefetch, par.workers)...)) {
			got = append(got, recOf(b))
		}
		if want == nil {
			want = got
			continue
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("RandomBatches, prefetch %d, workers %d (-serial +got):\n%s", par.prefetch, par.workers, d)
		}
	}
}
