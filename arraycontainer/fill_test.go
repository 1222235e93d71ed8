package arraycontainer_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/obsdim"
)

// naiveFillObs returns a copy of a's backing data with every element of
// observations lo..hi-1 set to v, visiting each index tuple of the array.
func naiveFillObs(a *arraycontainer.Array[float64], lo, hi int, v float64) []float64 {
	out := slices.Clone(a.Data())
	shape, strides, dim := a.Shape(), a.Strides(), a.Dim()
	ix := make([]int, len(shape))
	var walk func(k int)
	walk = func(k int) {
		if k == len(shape) {
			if ix[dim] < lo || ix[dim] >= hi {
				return
			}
			off := a.Offset()
			for j, i := range ix {
				off += i * strides[j]
			}
			out[off] = v
			return
		}
		for i := range shape[k] {
			ix[k] = i
			walk(k + 1)
		}
	}
	walk(0)
	return out
}

// TestFillObsProperty fills random ranges of observations of random layouts
// (padded, reversed, broadcast, transposed axes) and compares the whole backing
// slice with the naive reference: the range is set, nothing else is touched.
func TestFillObsProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	for trial := range 2000 {
		a := randomArray(rng, 4)
		n := a.Nobs()
		lo := rng.IntN(n + 1)
		hi := lo + rng.IntN(n-lo+1)
		v := -1 - float64(trial)
		want := naiveFillObs(a, lo, hi, v)
		a.FillObs(lo, hi, v)
		if d := cmp.Diff(want, a.Data()); d != "" {
			t.Fatalf("trial %d: FillObs(%d, %d) of shape %v strides %v offset %d dim %d mismatch (-want +got):\n%s",
				trial, lo, hi, a.Shape(), a.Strides(), a.Offset(), a.Dim(), d)
		}
	}
}

// TestFillProperty checks Fill against the naive reference on random layouts.
func TestFillProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 4))
	for trial := range 1000 {
		a := randomArray(rng, 4)
		want := naiveFillObs(a, 0, a.Nobs(), 7)
		a.Fill(7)
		if d := cmp.Diff(want, a.Data()); d != "" {
			t.Fatalf("trial %d: Fill of shape %v strides %v mismatch (-want +got):\n%s", trial, a.Shape(), a.Strides(), d)
		}
	}
}

func TestFillCases(t *testing.T) {
	tests := []struct {
		name   string
		lo, hi int
		dim    obsdim.Dim
		want   []float32
	}{
		{"rows", 1, 3, obsdim.First, []float32{0, 1, 2, 9, 9, 9, 9, 9, 9, 9, 10, 11}},
		{"empty range", 2, 2, obsdim.First, []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
		{"columns", 2, 3, obsdim.Last, []float32{0, 1, 9, 3, 4, 9, 6, 7, 9, 9, 10, 9}},
		{"all columns", 0, 3, obsdim.Last, []float32{9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := make([]float32, 12)
			for i := range data {
				data[i] = float32(i)
			}
			a := must(arraycontainer.New(data, []int{4, 3}, tc.dim))
			a.FillObs(tc.lo, tc.hi, 9)
			if d := cmp.Diff(tc.want, data); d != "" {
				t.Errorf("FillObs(%d, %d) mismatch (-want +got):\n%s", tc.lo, tc.hi, d)
			}
		})
	}
	t.Run("negative zero", func(t *testing.T) {
		a := must(arraycontainer.New([]float64{1, 2, 3}, []int{3}, obsdim.First))
		a.Fill(math.Copysign(0, -1))
		for i, x := range a.Data() {
			if x != 0 || !math.Signbit(x) {
				t.Errorf("element %d = %v (sign bit %v), want -0", i, x, math.Signbit(x))
			}
		}
	})
	t.Run("rank 0", func(t *testing.T) {
		a := must(arraycontainer.New([]int8{5}, nil, obsdim.First))
		a.Fill(-3)
		if a.Item() != -3 {
			t.Errorf("Item() = %d after Fill(-3)", a.Item())
		}
	})
}

func TestFillObsPanics(t *testing.T) {
	a := must(arraycontainer.New(make([]int, 6), []int{3, 2}, obsdim.First))
	for _, r := range [][2]int{{-1, 2}, {2, 1}, {0, 4}} {
		what := fmt.Sprintf("FillObs(%d, %d)", r[0], r[1])
		wantPanic(t, what, fmt.Sprintf("FillObs: range [%d, %d), want within 3 observations", r[0], r[1]), func() { a.FillObs(r[0], r[1], 1) })
	}
	scalar := must(arraycontainer.New([]int{1}, nil, obsdim.First))
	wantPanic(t, "FillObs on rank 0", "rank 0", func() { scalar.FillObs(0, 0, 1) })
}

// TestFillNoAllocs pins the fills at zero allocations: they run on every padded
// batch of a loop.
func TestFillNoAllocs(t *testing.T) {
	rows := must(arraycontainer.New(make([]float32, 64*16), []int{64, 16}, obsdim.First))
	cols := must(rows.WithDim(obsdim.Last))
	for _, a := range []*arraycontainer.Array[float32]{rows, cols} {
		if n := testing.AllocsPerRun(100, func() { a.FillObs(3, 11, 2) }); n != 0 {
			t.Errorf("FillObs on dim %d: %v allocations, want 0", a.Dim(), n)
		}
	}
}
