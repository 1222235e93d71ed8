package datasets

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/tuples"
)

// pairConfig checks tuples of an array and int targets.
func pairConfig[E arraycontainer.Number]() containertest.Config[tuples.Pair[*arraycontainer.Array[E], int], tuples.Pair[*arraycontainer.Array[E], []int]] {
	return containertest.Config[tuples.Pair[*arraycontainer.Array[E], int], tuples.Pair[*arraycontainer.Array[E], []int]]{
		Obs: func(b tuples.Pair[*arraycontainer.Array[E], []int], j int) tuples.Pair[*arraycontainer.Array[E], int] {
			return tuples.Pair[*arraycontainer.Array[E], int]{X: b.X.GetObs(j), Y: b.Y[j]}
		},
		Len: func(b tuples.Pair[*arraycontainer.Array[E], []int]) int { return len(b.Y) },
	}
}

func counts(t *testing.T, y []int, k int) []int {
	t.Helper()
	out := make([]int, k)
	for _, v := range y {
		if v < 0 || v >= k {
			t.Fatalf("target %d outside [0, %d)", v, k)
		}
		out[v]++
	}
	return out
}

func TestIris(t *testing.T) {
	d := Iris()
	x := d.X()
	if d := cmp.Diff([]int{150, 4}, x.Shape()); d != "" {
		t.Errorf("X shape mismatch (-want +got):\n%s", d)
	}
	y := tuples.Labels(d)
	if d := cmp.Diff([]int(d.Y()), y); d != "" {
		t.Errorf("Labels differ from Y() (-Y +Labels):\n%s", d)
	}
	if d := cmp.Diff([]int{50, 50, 50}, counts(t, y, len(IrisSpecies))); d != "" {
		t.Errorf("class counts mismatch (-want +got):\n%s", d)
	}
	if got := d.GetObs(149); got.Y != 2 || !cmp.Equal([]float64{5.9, 3, 5.1, 1.8}, got.X.Data()) {
		t.Errorf("observation 149 = %v %v, want [5.9 3 5.1 1.8] virginica (2)", got.X, got.Y)
	}
	containertest.Run(t, d, pairConfig[float64]())
}

func TestDigits(t *testing.T) {
	d := Digits()
	x := d.X()
	if d := cmp.Diff([]int{1797, 8, 8}, x.Shape()); d != "" {
		t.Errorf("X shape mismatch (-want +got):\n%s", d)
	}
	y := tuples.Labels(d)
	if d := cmp.Diff([]int(d.Y()), y); d != "" {
		t.Errorf("Labels differ from Y() (-Y +Labels):\n%s", d)
	}
	if d := cmp.Diff([]int{178, 182, 177, 183, 181, 182, 181, 179, 174, 180}, counts(t, y, 10)); d != "" {
		t.Errorf("class counts mismatch (-want +got):\n%s", d)
	}
	for _, p := range x.Data() {
		if p > 16 {
			t.Fatalf("pixel %d, want 0..16", p)
		}
	}
	containertest.Run(t, d, pairConfig[uint8]())
}

func TestFreshCopies(t *testing.T) {
	a, b := Digits(), Digits()
	a.X().Set(99, 0, 0, 0)
	a.Y()[0] = 99
	if b.X().At(0, 0, 0) == 99 || b.Y()[0] == 99 {
		t.Error("a write to one Digits() result is seen by another")
	}
	i, j := Iris(), Iris()
	i.X().Set(-1, 0, 0)
	i.Y()[0] = -1
	if j.GetObs(0).X.At(0) == -1 || j.GetObs(0).Y == -1 {
		t.Error("a write to one Iris() result is seen by another")
	}
}
