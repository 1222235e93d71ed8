package container_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
)

// draws returns the first k numbers of the generator of i.
func draws(r container.ObsRand, i, k int) []uint64 {
	g := r.For(i)
	out := make([]uint64, k)
	for j := range out {
		out[j] = g.Uint64()
	}
	return out
}

func TestObsRandIsAFunctionOfSeedEpochIndex(t *testing.T) {
	// The generator of i depends on (seed, epoch, stream, i) alone: not on the
	// order of the calls, not on the ObsRand value it comes from.
	const n = 200
	want := make([][]uint64, n)
	r := container.NewObsRand(42, 3)
	for i := range n {
		want[i] = draws(r, i, 4)
	}
	other := container.NewObsRand(7, 0).Pass(42, 3) // another generator, same pass
	for _, i := range rand.New(rand.NewPCG(1, 2)).Perm(n) {
		for k, v := range draws(other, i, 4) {
			if v != want[i][k] {
				t.Fatalf("draw %d of observation %d: %d in a shuffled order, %d in order", k, i, v, want[i][k])
			}
		}
	}
	if got := r.Seed(); got != 42 {
		t.Errorf("Seed() = %d, want 42", got)
	}
	if got := r.Epoch(); got != 3 {
		t.Errorf("Epoch() = %d, want 3", got)
	}
}

func TestObsRandZeroIsSeedZeroEpochZero(t *testing.T) {
	var zero container.ObsRand
	r := container.NewObsRand(0, 0)
	for i := range 50 {
		a, b := draws(zero, i, 3), draws(r, i, 3)
		for k := range a {
			if a[k] != b[k] {
				t.Fatalf("observation %d, draw %d: zero ObsRand %d, NewObsRand(0, 0) %d", i, k, a[k], b[k])
			}
		}
	}
	if a, b := draws(zero.Stream(5), 9, 1)[0], draws(r.Stream(5), 9, 1)[0]; a != b {
		t.Errorf("Stream(5) of the zero ObsRand draws %d, of NewObsRand(0, 0) %d", a, b)
	}
}

func TestObsRandPassesDiffer(t *testing.T) {
	// Every change of seed, epoch, stream or index changes the draws; keys of
	// neighbours are unrelated (no two of these first draws collide).
	seen := map[uint64]string{}
	add := func(what string, r container.ObsRand, i int) {
		v := draws(r, i, 1)[0]
		if prev, ok := seen[v]; ok {
			t.Fatalf("%s draws %d, as %s does", what, v, prev)
		}
		seen[v] = what
	}
	for seed := range uint64(4) {
		for e := range 4 {
			r := container.NewObsRand(seed, e)
			for i := range 64 {
				add("seed/epoch/i", r, i)
				add("stream 1", r.Stream(1), i)
				add("stream 2", r.Stream(2), i)
				add("stream 1/1", r.Stream(1).Stream(1), i)
			}
		}
	}
}

func TestObsRandUniformAndUncorrelated(t *testing.T) {
	// The first draw of each observation's generator, over many observations of
	// one pass: uniform over 64 bins (chi-square, 63 degrees of freedom, p=0.001
	// critical value 103.4) and no correlation between neighbours i, i+1.
	const n, bins = 1 << 16, 64
	r := container.NewObsRand(2024, 1)
	var count [bins]int
	u := make([]float64, n)
	for i := range n {
		u[i] = r.For(i).Float64()
		count[int(u[i]*bins)]++
	}
	chi := 0.0
	for _, c := range count {
		d := float64(c) - n/bins
		chi += d * d / (n / bins)
	}
	if chi > 103.4 {
		t.Errorf("chi-square of the first draws over %d bins = %.1f, above the p=0.001 value 103.4", bins, chi)
	}
	var sxy, sx, sy, sxx, syy float64
	for i := range n - 1 {
		x, y := u[i], u[i+1]
		sx, sy, sxy, sxx, syy = sx+x, sy+y, sxy+x*y, sxx+x*x, syy+y*y
	}
	m := float64(n - 1)
	corr := (sxy/m - sx/m*sy/m) / math.Sqrt((sxx/m-sx/m*sx/m)*(syy/m-sy/m*sy/m))
	if math.Abs(corr) > 4/math.Sqrt(m) { // 4 standard errors
		t.Errorf("correlation of neighbours' first draws = %.4f, want |c| < %.4f", corr, 4/math.Sqrt(m))
	}
}

func TestObsRandForAllocatesNothing(t *testing.T) {
	r := container.NewObsRand(1, 1)
	i := 0
	if a := testing.AllocsPerRun(100, func() {
		i++
		r.For(i).Uint64()
		r.Pass(1, i).Stream(3).For(i).IntN(10)
	}); a != 0 {
		t.Errorf("For allocates %.1f times per call, want 0", a)
	}
}

func TestRandomHelpers(t *testing.T) {
	d := containertest.NewDraws(10)
	r := container.NewObsRand(3, 4)
	if got, want := container.GetObsRand[int](d, 6, r), d.Want(6, r); got != want {
		t.Errorf("GetObsRand of a Random container = %d, want %d", got, want)
	}
	if got, want := container.GetObsRandInto[int, []int](d, nil, []int{2, 6}, r), []int{d.Want(2, r), d.Want(6, r)}; got[0] != want[0] || got[1] != want[1] {
		t.Errorf("GetObsRandInto of a Random container = %v, want %v", got, want)
	}
	plain := container.Slice[int]{5, 6, 7}
	if got := container.GetObsRand[int](plain, 1, r); got != 6 {
		t.Errorf("GetObsRand of a plain container = %d, want its GetObs 6", got)
	}
	if got := container.GetObsRandInto[int, []int](plain, nil, []int{2, 0}, r); got[0] != 7 || got[1] != 5 {
		t.Errorf("GetObsRandInto of a plain container = %v, want [7 5]", got)
	}
}

// onlyGetObs hides every method of a container but the two of the contract
// and GetObsRand.
type onlyGetObs struct{ d *containertest.Draws }

func (o onlyGetObs) Nobs() int                                 { return o.d.Nobs() }
func (o onlyGetObs) GetObs(i int) int                          { return o.d.GetObs(i) }
func (o onlyGetObs) GetObsRand(i int, r container.ObsRand) int { return o.d.GetObsRand(i, r) }

func TestAsBatchedPassesRandomnessThrough(t *testing.T) {
	d := containertest.NewDraws(40)
	b := container.AsBatched[int](onlyGetObs{d})
	rb, ok := b.(container.Random[int, []int])
	if !ok {
		t.Fatalf("AsBatched of a random container is %T, not container.Random", b)
	}
	r := container.NewObsRand(9, 2)
	got := rb.GetObsRandInto(nil, []int{3, 39, 3}, r)
	if want := []int{d.Want(3, r), d.Want(39, r), d.Want(3, r)}; got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("GetObsRandInto = %v, want %v", got, want)
	}
	if d.Calls() == 0 {
		t.Error("the wrapped container's GetObsRand was never called")
	}
	containertest.Run(t, rb, containertest.SliceConfig[int]())
}

func TestDrawsConforms(t *testing.T) {
	containertest.Run(t, containertest.NewDraws(300), containertest.SliceConfig[int]())
}
