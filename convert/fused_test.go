package convert

import (
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/subset"
)

// TestFusedPath pins which sources are converted while they are gathered: the
// results are the same either way (the other tests check them), so only this
// test fails if the fused path stops being taken.
func TestFusedPath(t *testing.T) {
	x, err := arraycontainer.New(make([]uint8, 6*4*3), []int{6, 4, 3}, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	last, err := x.WithDim(obsdim.Last)
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		src   container.Batched[*arraycontainer.Array[uint8], *arraycontainer.Array[uint8]]
		fused bool
	}{
		"array":                 {x, true},
		"view":                  {subset.Of(x, []int{5, 0}), true},
		"view of a range":       {subset.Range(x.ObsRange(1, 5), 1, 3), true},
		"strided rows":          {x.Transpose(0, 2, 1), false},
		"observation axis last": {last, false},
		"another container":     {hidden{x}, false},
		"a view of another":     {subset.Of(hidden{x}, []int{1}), false},
	} {
		k := newAffine[uint8, float32](tc.src, []float64{1}, []float64{0})
		if k.fused != tc.fused {
			t.Errorf("%s: fused %v, want %v", name, k.fused, tc.fused)
		}
		if k.lut == nil {
			t.Errorf("%s: no table for 8-bit values with one scale", name)
		}
	}
	k := newAffine[uint8, float32](x, []float64{1, 2}, []float64{0, 0})
	if k.lut != nil {
		t.Error("a table for per-feature scales")
	}
}

// hidden is an array behind a type of its own, so that nothing knows its layout.
type hidden struct{ *arraycontainer.Array[uint8] }
