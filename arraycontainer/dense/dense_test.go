package dense_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/arraycontainer/dense"
	"github.com/obskit/obskit/obsdim"
	"gonum.org/v1/gonum/mat"
)

func TestToArray(t *testing.T) {
	m := mat.NewDense(3, 4, seq(12))
	a := must(dense.ToArray(m, obsdim.First))
	if a.Nobs() != 3 || a.ObsLen() != 4 || a.At(2, 1) != 9 {
		t.Fatalf("ToArray: nobs %d obslen %d At(2,1) %v; want 3, 4, 9", a.Nobs(), a.ObsLen(), a.At(2, 1))
	}
	a.Set(-5, 2, 1)
	if m.At(2, 1) != -5 {
		t.Error("ToArray copied: a write to the array did not reach the matrix")
	}
	cols := must(dense.ToArray(m, obsdim.Last))
	if cols.Nobs() != 4 || cols.GetObs(1).String() != "[ 1  5 -5]" {
		t.Errorf("ToArray(Last): nobs %d, GetObs(1) = %v; want 4, [ 1  5 -5]", cols.Nobs(), cols.GetObs(1))
	}
	// A sub-matrix view keeps its row stride.
	sub := m.Slice(1, 3, 1, 3).(*mat.Dense)
	s := must(dense.ToArray(sub, obsdim.First))
	if s.String() != "[[ 5  6]\n [-5 10]]" {
		t.Errorf("ToArray of a sub-matrix = %q", s.String())
	}
	empty := must(dense.ToArray(&mat.Dense{}, obsdim.First))
	if empty.Nobs() != 0 || empty.Rank() != 2 {
		t.Errorf("ToArray of an empty matrix: shape %v", empty.Shape())
	}
	if _, err := dense.ToArray(nil, obsdim.First); !errors.Is(err, arraycontainer.ErrShape) {
		t.Errorf("ToArray(nil): err = %v, want ErrShape", err)
	}
	if _, err := dense.ToArray(m, obsdim.Constant(2)); !errors.Is(err, obsdim.ErrAxis) {
		t.Errorf("ToArray with axis 2: err = %v, want ErrAxis", err)
	}
}

func TestFromArray(t *testing.T) {
	a := must(arraycontainer.New(seq(12), []int{3, 4}, obsdim.First))
	ok := map[string]*arraycontainer.Array[float64]{
		"row-major":  a,
		"slice":      a.ObsRange(1, 3),
		"range":      a.Range(1, 1, 3),
		"one row":    a.ObsRange(2, 3),
		"one column": a.Range(1, 2, 3).Transpose().Transpose(),
		"batch":      a.GetObsInto(nil, []int{2, 0}),
	}
	for name, v := range ok {
		t.Run(name, func(t *testing.T) {
			m, err := dense.FromArray(v)
			if err != nil {
				t.Fatal(err)
			}
			back := must(dense.ToArray(m, obsdim.First))
			if !back.Equal(v) {
				t.Errorf("FromArray then ToArray = %v, want %v", back, v)
			}
			r, c := m.Dims()
			m.Set(r-1, c-1, 1000)
			if v.At(r-1, c-1) != 1000 {
				t.Error("FromArray copied: a write to the matrix did not reach the array")
			}
		})
	}
	bad := []struct {
		name string
		a    *arraycontainer.Array[float64]
		err  error
		msg  string
	}{
		{"transposed", a.Transpose(), arraycontainer.ErrLayout, "column stride is 4"},
		{"rank 3", must(arraycontainer.New(seq(8), []int{2, 2, 2}, obsdim.First)), arraycontainer.ErrShape, "rank 3"},
		{"empty", a.ObsRange(1, 1), arraycontainer.ErrShape, "no elements"},
		{"overlapping rows", must(arraycontainer.NewStrided(seq(12), []int{3, 4}, []int{2, 1}, 0, obsdim.First)), arraycontainer.ErrLayout, "row stride 2"},
		{"nil", nil, arraycontainer.ErrShape, "rank -1"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := dense.FromArray(tc.a)
			if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("FromArray: err = %v, want %v containing %q", err, tc.err, tc.msg)
			}
		})
	}
	if _, err := dense.FromArray(a.Transpose().Clone()); err != nil {
		t.Errorf("FromArray of a cloned transpose: %v", err)
	}
}

func seq(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = float64(i)
	}
	return s
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A gonum matrix is an array whose rows are observations, and a 2-d float64 batch
// is a gonum matrix; neither conversion copies.
func Example() {
	m := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	x, _ := dense.ToArray(m, obsdim.First)
	batch := x.GetObsInto(nil, []int{2, 0})
	b, err := dense.FromArray(batch)
	if err != nil {
		panic(err)
	}
	fmt.Println(mat.Formatted(b))
	// Output:
	// ⎡5  6⎤
	// ⎣1  2⎦
}
