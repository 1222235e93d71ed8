package index_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/index"
)

// TestPermIntoIsPerm checks that PermInto writes the permutation rng.Perm returns
// for the same state, whatever p held before, and leaves rng in the same state.
func TestPermIntoIsPerm(t *testing.T) {
	for seed := range uint64(50) {
		for _, n := range []int{0, 1, 2, 3, 10, 97, 1000} {
			a, b := rand.New(rand.NewPCG(seed, 9)), rand.New(rand.NewPCG(seed, 9))
			p := make([]int, n)
			for i := range p {
				p[i] = -7 // overwritten
			}
			index.PermInto(p, a)
			if d := cmp.Diff(b.Perm(n), p, cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("seed %d n %d: PermInto differs from rng.Perm (-Perm +PermInto):\n%s", seed, n, d)
			}
			if a.Uint64() != b.Uint64() {
				t.Fatalf("seed %d n %d: PermInto and rng.Perm left the rng in different states", seed, n)
			}
		}
	}
}

// TestShuffle checks that Shuffle moves the elements of any slice by the
// permutation PermInto draws from the same state: element i ends up holding what
// was at perm[i].
func TestShuffle(t *testing.T) {
	for seed := range uint64(50) {
		rng := rand.New(rand.NewPCG(seed, 10))
		n := rng.IntN(60)
		v := make([]int, n)
		for i := range v {
			v[i] = rng.IntN(5) * 100 // with repeats
		}
		perm := make([]int, n)
		index.PermInto(perm, rand.New(rand.NewPCG(seed, 11)))
		want := make([]int, n)
		for i, q := range perm {
			want[i] = v[q]
		}
		got := slices.Clone(v)
		index.Shuffle(got, rand.New(rand.NewPCG(seed, 11)))
		if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("seed %d: Shuffle mismatch (-want +got):\n%s", seed, d)
		}
	}
}

// TestPermUniform checks that all 24 permutations of 4 come out about equally
// often (within 5 standard deviations of 2000 each in 48000 draws).
func TestPermUniform(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	counts := map[string]int{}
	p := make([]int, 4)
	const draws = 48000
	for range draws {
		index.PermInto(p, rng)
		counts[fmt.Sprint(p)]++
	}
	if len(counts) != 24 {
		t.Fatalf("%d distinct permutations of 4, want 24", len(counts))
	}
	for perm, c := range counts {
		if c < 2000-220 || c > 2000+220 {
			t.Errorf("permutation %s drawn %d times in %d, want about 2000", perm, c, draws)
		}
	}
}

func TestPermAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	p := make([]int, 1000)
	if a := testing.AllocsPerRun(20, func() { index.PermInto(p, rng); index.Shuffle(p, rng) }); a != 0 {
		t.Errorf("PermInto and Shuffle: %v allocs, want 0", a)
	}
}

func TestPermPanics(t *testing.T) {
	wantArgPanic(t, "PermInto(p, nil)", "index.PermInto", "rng", func() { index.PermInto(make([]int, 3), nil) })
	wantArgPanic(t, "Shuffle(p, nil)", "index.Shuffle", "rng", func() { index.Shuffle(make([]int, 3), nil) })
}
