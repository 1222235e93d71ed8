package arraycontainer_test

import (
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/obsdim"
)

// TestObsRangeIntoProperty checks ObsRangeInto against ObsRange on random layouts, with
// a nil header, a reused one and one of another rank.
func TestObsRangeIntoProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 2))
	var view *arraycontainer.Array[float64]
	for trial := range 1000 {
		a := randomArray(rng, 4)
		n := a.Nobs()
		lo := rng.IntN(n + 1)
		hi := lo + rng.IntN(n-lo+1)
		want := a.ObsRange(lo, hi)
		prev := view
		view = a.ObsRangeInto(view, lo, hi)
		if prev != nil && prev.Rank() == a.Rank() && view != prev {
			t.Fatalf("trial %d: ObsRangeInto allocated a header though dst has rank %d", trial, a.Rank())
		}
		if !view.Equal(want) || view.Offset() != want.Offset() || &view.Data()[0] != &want.Data()[0] {
			t.Fatalf("trial %d: ObsRangeInto(%d, %d) of shape %v dim %d = %v (offset %d), ObsRange gives %v (offset %d)",
				trial, lo, hi, a.Shape(), a.Dim(), view, view.Offset(), want, want.Offset())
		}
	}
}

func TestObsRangeIntoReuse(t *testing.T) {
	a := must(arraycontainer.New(seq(12), []int{4, 3}, obsdim.First))
	view := a.ObsRangeInto(nil, 1, 3)
	if n := testing.AllocsPerRun(100, func() { view = a.ObsRangeInto(view, 2, 4) }); n != 0 {
		t.Errorf("ObsRangeInto into a header of the same rank: %v allocations, want 0", n)
	}
	view.Set(-1, 0, 0) // a view: the write is seen in a
	if a.At(2, 0) != -1 {
		t.Errorf("a.At(2, 0) = %v after writing through the view, want -1", a.At(2, 0))
	}
	wantPanic(t, "ObsRangeInto(a)", "dst the array itself", func() { a.ObsRangeInto(a, 0, 1) })
	wantPanic(t, "ObsRangeInto(nil, 3, 5)", "ObsRangeInto: range [3, 5), want within axis 0 of length 4", func() { a.ObsRangeInto(nil, 3, 5) })
}
