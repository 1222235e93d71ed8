package transform_test

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/transform"
)

// TestMapsPassRandomnessThrough: Map and MapBatches of a random container draw
// its observations with the randomness they are handed.
func TestMapsPassRandomnessThrough(t *testing.T) {
	d := containertest.NewDraws(30)
	r := container.NewObsRand(8, 2)
	idx := []int{29, 4, 4, 0}
	want := make([]float64, len(idx))
	for j, i := range idx {
		want[j] = float64(d.Want(i, r)) / 2
	}
	half := func(x int) float64 { return float64(x) / 2 }
	m := transform.Map(d, half)
	if got := m.GetObsRandInto(nil, idx, r); !cmp.Equal(got, want) {
		t.Errorf("Map: GetObsRandInto mismatch (-want +got):\n%s", cmp.Diff(want, got))
	}
	if got := m.GetObsRand(29, r); got != want[0] {
		t.Errorf("Map: GetObsRand(29) = %v, want %v", got, want[0])
	}
	mb := transform.MapBatches(d, half, halves)
	if got := mb.GetObsRandInto(nil, idx, r); !cmp.Equal(got, want) {
		t.Errorf("MapBatches: GetObsRandInto mismatch (-want +got):\n%s", cmp.Diff(want, got))
	}
	if got := mb.GetObsRand(4, r); got != want[1] {
		t.Errorf("MapBatches: GetObsRand(4) = %v, want %v", got, want[1])
	}
	if d.Calls() != 7 { // Map: 4 observations and 1; MapBatches: 1 batch and 1
		t.Errorf("the source received randomness %d times, want 7", d.Calls())
	}
	containertest.Run(t, m, containertest.SliceConfig[float64]())
	containertest.Run(t, mb, containertest.SliceConfig[float64]())
}

// TestJoinPassesRandomnessThrough: part p of a join draws with r.Stream(p).
func TestJoinPassesRandomnessThrough(t *testing.T) {
	a, b := containertest.NewDraws(10), containertest.NewDraws(5)
	j := transform.Join[int](a, ints(100, 103), b)
	r := container.NewObsRand(3, 3)
	idx := []int{17, 0, 11, 13, 9, 10} // b, a, plain, b, a, plain
	want := []int{b.Want(4, r.Stream(2)), a.Want(0, r.Stream(0)), 101, b.Want(0, r.Stream(2)), a.Want(9, r.Stream(0)), 100}
	if got := j.GetObsRandInto(nil, idx, r); !cmp.Equal(got, want) {
		t.Errorf("GetObsRandInto mismatch (-want +got):\n%s", cmp.Diff(want, got))
	}
	if got := j.GetObsRandInto(nil, []int{1, 2}, r); !cmp.Equal(got, []int{a.Want(1, r.Stream(0)), a.Want(2, r.Stream(0))}) {
		t.Errorf("GetObsRandInto within one part = %v", got)
	}
	if got := j.GetObsRand(14, r); got != b.Want(1, r.Stream(2)) {
		t.Errorf("GetObsRand(14) = %d, want %d", got, b.Want(1, r.Stream(2)))
	}
	if a.Calls() == 0 || b.Calls() == 0 {
		t.Errorf("parts received randomness %d and %d times, want both > 0", a.Calls(), b.Calls())
	}
	// Parts reached only through GetObs (not Batched) draw too.
	only := transform.Join[int](container.FromFunc(3, func(i int) int { return i }), a)
	if got := only.GetObsRandInto(nil, []int{4, 0}, r); !cmp.Equal(got, []int{a.Want(1, r.Stream(1)), 0}) {
		t.Errorf("mixed join: GetObsRandInto = %v", got)
	}
	containertest.Run(t, j, containertest.SliceConfig[int]())
}

// TestWindowsPassRandomnessThrough: a window draws each observation of the
// sequence by its index, so overlapping windows share draws.
func TestWindowsPassRandomnessThrough(t *testing.T) {
	d := containertest.NewDraws(20)
	w := transform.Windows(d, 4, 2)
	r := container.NewObsRand(1, 9)
	got := w.GetObsRandInto(nil, []int{1, 2}, r)
	want := [][]int{{d.Want(2, r), d.Want(3, r), d.Want(4, r), d.Want(5, r)}, {d.Want(4, r), d.Want(5, r), d.Want(6, r), d.Want(7, r)}}
	if !cmp.Equal(got, want) {
		t.Errorf("GetObsRandInto mismatch (-want +got):\n%s", cmp.Diff(want, got))
	}
	if got := w.GetObsRand(2, r); !cmp.Equal(got, want[1]) {
		t.Errorf("GetObsRand(2) = %v, want %v", got, want[1])
	}
	if d.Calls() != 3 {
		t.Errorf("the source received randomness %d times, want 3", d.Calls())
	}
	containertest.Run(t, w, containertest.SliceConfig[[]int]())
}

// TestMapRand: observation i is f(x_i, the generator of i); a random source is
// drawn with r.Stream(1), so stacked random maps draw independently.
func TestMapRand(t *testing.T) {
	src := ints(0, 50)
	noise := func(x int, rng *rand.Rand) int { return 1000*x + rng.IntN(1000) }
	m := transform.MapRand(src, noise)
	d := containertest.NewDraws(50) // draws exactly as noise does over 0..49
	for _, r := range []container.ObsRand{{}, container.NewObsRand(4, 0), container.NewObsRand(4, 1)} {
		idx := []int{49, 0, 17, 17}
		got := m.GetObsRandInto(nil, idx, r)
		for j, i := range idx {
			if got[j] != d.Want(i, r) {
				t.Fatalf("seed %d, epoch %d: slot %d (index %d) = %d, want %d", r.Seed(), r.Epoch(), j, i, got[j], d.Want(i, r))
			}
		}
	}
	if got, want := m.GetObs(3), d.Want(3, container.ObsRand{}); got != want {
		t.Errorf("GetObs(3) = %d, want the draw of seed 0, epoch 0: %d", got, want)
	}
	containertest.Run(t, m, containertest.SliceConfig[int]())

	// Stacked: the inner random source is drawn with Stream(1).
	inner := containertest.NewDraws(50)
	stacked := transform.MapRand(inner, func(x int, rng *rand.Rand) [2]int { return [2]int{x, rng.IntN(1000)} })
	r := container.NewObsRand(6, 6)
	o := stacked.GetObsRand(8, r)
	if o[0] != inner.Want(8, r.Stream(1)) || o[1] != r.For(8).IntN(1000) {
		t.Errorf("stacked GetObsRand(8) = %v, want [%d %d]", o, inner.Want(8, r.Stream(1)), r.For(8).IntN(1000))
	}
	if o[0]%1000 == o[1] && inner.Want(9, r.Stream(1))%1000 == stacked.GetObsRand(9, r)[1] {
		t.Errorf("the inner and the outer map draw the same numbers")
	}
	containertest.Run(t, stacked, containertest.SliceConfig[[2]int]())
}
