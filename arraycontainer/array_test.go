package arraycontainer_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/obsdim"
)

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

func config[E arraycontainer.Number]() containertest.Config[*arraycontainer.Array[E], *arraycontainer.Array[E]] {
	return containertest.Config[*arraycontainer.Array[E], *arraycontainer.Array[E]]{
		Obs: func(b *arraycontainer.Array[E], j int) *arraycontainer.Array[E] { return b.GetObs(j) },
		Len: func(b *arraycontainer.Array[E]) int { return b.Nobs() },
	}
}

func TestConformance(t *testing.T) {
	base := must(arraycontainer.New(seq(5*4*3), []int{5, 4, 3}, obsdim.First))
	cases := []struct {
		name string
		a    *arraycontainer.Array[float64]
	}{
		{"first", base},
		{"middle", must(base.WithDim(obsdim.Constant(1)))},
		{"last", must(base.WithDim(obsdim.Last))},
		{"transposed", base.Transpose()},
		{"range view", base.Range(2, 1, 3)},
		{"slice", base.ObsRange(1, 4)},
		{"empty slice", base.ObsRange(2, 2)},
		{"rank 1", must(arraycontainer.New(seq(7), []int{7}, obsdim.First))},
		{"empty", must(arraycontainer.New([]float64{}, []int{0, 3}, obsdim.First))},
		{"empty observations", must(arraycontainer.New([]float64{}, []int{4, 0}, obsdim.First))},
		{"reversed", must(arraycontainer.NewStrided(seq(12), []int{4, 3}, []int{-3, 1}, 9, obsdim.First))},
		{"large", must(arraycontainer.New(seq(1000*3), []int{1000, 3}, obsdim.First))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { containertest.Run(t, tc.a, config[float64]()) })
	}
	t.Run("uint8", func(t *testing.T) {
		a := must(arraycontainer.New([]uint8{1, 2, 3, 4, 5, 6}, []int{3, 2}, obsdim.First))
		containertest.Run(t, a, config[uint8]())
	})
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name  string
		data  int
		shape []int
		dim   obsdim.Dim
		err   error
		msg   string
	}{
		{"length", 5, []int{2, 3}, obsdim.First, arraycontainer.ErrShape, "5 elements for shape [2 3], want 6"},
		{"negative", 0, []int{2, -1}, obsdim.First, arraycontainer.ErrShape, "negative dimension -1 on axis 1"},
		{"overflow", 0, []int{1 << 40, 1 << 40}, obsdim.First, arraycontainer.ErrShape, "overflows int"},
		{"rank", 1, make([]int, 65), obsdim.First, arraycontainer.ErrShape, "rank 65 exceeds MaxRank 64"},
		{"axis", 6, []int{2, 3}, obsdim.Constant(2), obsdim.ErrAxis, "axis 2"},
		{"axis of scalar", 1, nil, obsdim.Constant(0), obsdim.ErrAxis, "rank-0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "rank" {
				for k := range tc.shape {
					tc.shape[k] = 1
				}
			}
			_, err := arraycontainer.New(make([]float32, tc.data), tc.shape, tc.dim)
			if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("New: err = %v, want %v containing %q", err, tc.err, tc.msg)
			}
		})
	}
}

func TestNewStridedErrors(t *testing.T) {
	tests := []struct {
		name           string
		data           int
		shape, strides []int
		offset         int
		err            error
		msg            string
	}{
		{"strides count", 6, []int{2, 3}, []int{3}, 0, arraycontainer.ErrShape, "1 strides for shape [2 3]"},
		{"past end", 6, []int{2, 3}, []int{3, 2}, 0, arraycontainer.ErrLayout, "outside data of length 6"},
		{"before start", 6, []int{2, 3}, []int{-3, 1}, 0, arraycontainer.ErrLayout, "outside data"},
		{"offset", 6, []int{1}, []int{1}, 6, arraycontainer.ErrLayout, "offset 6 outside data"},
		{"negative offset", 6, []int{1}, []int{1}, -1, arraycontainer.ErrLayout, "offset -1"},
		{"huge stride", 6, []int{3}, []int{math.MaxInt / 2}, 0, arraycontainer.ErrLayout, "axis 0"},
		{"huge span", 100, []int{math.MaxInt / 4}, []int{50}, 0, arraycontainer.ErrLayout, "axis 0"},
		{"no data", 0, []int{1}, []int{1}, 0, arraycontainer.ErrLayout, "length 0"},
		{"negative dimension", 6, []int{-1}, []int{1}, 0, arraycontainer.ErrShape, "negative dimension"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := arraycontainer.NewStrided(make([]int16, tc.data), tc.shape, tc.strides, tc.offset, obsdim.First)
			if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("NewStrided: err = %v, want %v containing %q", err, tc.err, tc.msg)
			}
		})
	}
	// Layouts that stay inside the data, including empty arrays with any offset.
	ok := []struct {
		shape, strides []int
		offset         int
	}{
		{[]int{2, 3}, []int{1, 2}, 0},   // Fortran order
		{[]int{2, 3}, []int{-3, -1}, 5}, // both axes reversed
		{[]int{4, 3}, []int{0, 1}, 3},   // broadcast rows
		{[]int{0, 3}, []int{99, 1}, 99}, // empty
		{nil, nil, 5},                   // scalar
	}
	if _, err := arraycontainer.NewStrided(make([]int16, 6), []int{6}, []int{1}, 0, obsdim.Constant(1)); !errors.Is(err, obsdim.ErrAxis) {
		t.Errorf("NewStrided with axis 1 of a vector: err = %v, want ErrAxis", err)
	}
	for _, tc := range ok {
		if _, err := arraycontainer.NewStrided(make([]int16, 6), tc.shape, tc.strides, tc.offset, obsdim.First); err != nil {
			t.Errorf("NewStrided(%v, %v, %d): %v", tc.shape, tc.strides, tc.offset, err)
		}
	}
}

func TestZeros(t *testing.T) {
	z := must(arraycontainer.Zeros[uint16]([]int{3, 2}, obsdim.Last))
	if z.Len() != 6 || z.Nobs() != 2 || z.At(2, 1) != 0 || !z.IsContiguous() {
		t.Errorf("Zeros([3 2], Last): len %d nobs %d At(2,1) %v contiguous %v", z.Len(), z.Nobs(), z.At(2, 1), z.IsContiguous())
	}
	if _, err := arraycontainer.Zeros[uint16]([]int{-2}, obsdim.First); !errors.Is(err, arraycontainer.ErrShape) {
		t.Errorf("Zeros([-2]): err = %v, want ErrShape", err)
	}
	if _, err := arraycontainer.Zeros[uint16]([]int{2}, obsdim.Constant(1)); !errors.Is(err, obsdim.ErrAxis) {
		t.Errorf("Zeros([2], axis 1): err = %v, want ErrAxis", err)
	}
}

func TestAccessors(t *testing.T) {
	a := must(arraycontainer.New(seq(24), []int{2, 3, 4}, obsdim.Constant(1)))
	got := fmt.Sprint(a.Shape(), a.Strides(), a.Offset(), a.Dim(), a.Rank(), a.Len(), a.Nobs(), a.ObsShape(), a.ObsLen(), a.IsContiguous())
	if want := "[2 3 4] [12 4 1] 0 1 3 24 3 [2 4] 8 true"; got != want {
		t.Errorf("accessors = %s, want %s", got, want)
	}
	if v := a.At(1, 2, 3); v != 23 {
		t.Errorf("At(1, 2, 3) = %v, want 23", v)
	}
	a.Set(-1, 1, 2, 3)
	if a.Data()[23] != -1 {
		t.Error("Set did not write through to Data")
	}
	sh := a.Shape()
	sh[0] = 99
	if a.Shape()[0] != 2 {
		t.Error("Shape returned the array's own slice")
	}
	if !a.Transpose().Transpose().Equal(a) || a.Transpose().IsContiguous() {
		t.Error("Transpose twice should give back a; once should not be contiguous")
	}
}

func wantPanic(t *testing.T, what, msg string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Fatalf("%s did not panic", what)
		}
		if s := fmt.Sprint(r); !strings.Contains(s, msg) || !strings.Contains(s, "arraycontainer") {
			t.Fatalf("%s panicked with %q, want it to contain %q and name the package", what, s, msg)
		}
		var ae *container.ArgError
		var ie *container.IndexError
		if err, _ := r.(error); !errors.As(err, &ae) && !errors.As(err, &ie) {
			t.Fatalf("%s panicked with a %T, want a *container.ArgError or *container.IndexError", what, r)
		}
	}()
	f()
}

func TestPanics(t *testing.T) {
	a := must(arraycontainer.New(seq(6), []int{2, 3}, obsdim.First))
	scalar := must(arraycontainer.New([]float64{7}, nil, obsdim.First))
	tests := []struct {
		what, msg string
		f         func()
	}{
		{"At rank", "number of indices 2, want 3 for a rank-3 array", func() { must(arraycontainer.New(seq(8), []int{2, 2, 2}, obsdim.First)).At(0, 0) }},
		{"At range", "At on axis 1: index 3 out of range [0, 3)", func() { a.At(0, 3) }},
		{"Set range", "Set on axis 0: index -1 out of range [0, 2)", func() { a.Set(0, -1, 0) }},
		{"Item", "of shape [2 3] (6 elements), want 1 element", func() { a.Item() }},
		{"ObsRange", "range [1, 3), want within axis 0 of length 2", func() { a.ObsRange(1, 3) }},
		{"Range axis", "axis 2, want in [0, 2)", func() { a.Range(2, 0, 1) }},
		{"Range", "range [2, 1), want within axis 1", func() { a.Range(1, 2, 1) }},
		{"Transpose", "want a permutation of 0..1", func() { a.Transpose(0, 0) }},
		{"Transpose count", "axes [0], want 2 axes", func() { a.Transpose(0) }},
		{"Nobs of scalar", "a rank-0 array has none", func() { scalar.Nobs() }},
		{"GetObs of scalar", "rank-0", func() { scalar.GetObs(0) }},
		{"GetObsInto of scalar", "rank-0", func() { scalar.GetObsInto(nil, nil) }},
		{"ObsRange of scalar", "rank-0", func() { scalar.ObsRange(0, 0) }},
		{"dst aliases", "sharing memory with the source", func() { a.GetObsInto(a.ObsRange(0, 1), []int{1}) }},
		{"dst is src", "sharing memory with the source", func() { a.GetObsInto(a, []int{1}) }},
	}
	for _, tc := range tests {
		t.Run(tc.what, func(t *testing.T) { wantPanic(t, tc.what, tc.msg, tc.f) })
	}
}

func TestRankZero(t *testing.T) {
	v := must(arraycontainer.New([]float64{1, 2, 3}, []int{3}, obsdim.First))
	o := v.GetObs(2)
	if o.Rank() != 0 || o.Item() != 3 || o.Dim() != -1 || o.Len() != 1 || o.String() != "3" {
		t.Errorf("GetObs of rank 1: rank %d item %v dim %d len %d string %q; want 0, 3, -1, 1, \"3\"", o.Rank(), o.Item(), o.Dim(), o.Len(), o.String())
	}
	if !o.Equal(must(arraycontainer.New([]float64{3}, []int{}, obsdim.Last))) {
		t.Error("rank-0 arrays with the same value are not Equal")
	}
	if c := o.ObsFirst(); c.Item() != 3 {
		t.Errorf("ObsFirst of a scalar = %v, want 3", c)
	}
	if _, err := o.WithDim(obsdim.Constant(0)); !errors.Is(err, obsdim.ErrAxis) {
		t.Errorf("WithDim(0) of a scalar: err = %v, want ErrAxis", err)
	}
	if v := must(arraycontainer.NewStrided([]int8{4, 5, 6}, nil, nil, 2, obsdim.First)); v.Item() != 6 {
		t.Errorf("NewStrided scalar at offset 2 = %v, want 6", v.Item())
	}
}

func TestViewsShareMemory(t *testing.T) {
	a := must(arraycontainer.New(seq(12), []int{4, 3}, obsdim.First))
	views := map[string]*arraycontainer.Array[float64]{
		"ObsRange":  a.ObsRange(1, 3),
		"Range":     a.Range(1, 1, 2),
		"Transpose": a.Transpose(),
		"WithDim":   must(a.WithDim(obsdim.Last)),
	}
	for name, v := range views {
		v.Data()[4] = -1 // element (1, 1) of a
		if a.At(1, 1) != -1 {
			t.Errorf("%s: a write through the view did not reach the array", name)
		}
		a.Set(4, 1, 1)
	}
	s := a.ObsRange(1, 3)
	if d := cmp.Diff([]float64{3, 4, 5}, s.GetObs(0).Data()); d != "" {
		t.Errorf("ObsRange(1, 3).GetObs(0) mismatch (-want +got):\n%s", d)
	}
	if tr := a.Transpose(); tr.Dim() != 1 || tr.Nobs() != 4 {
		t.Errorf("Transpose: dim %d nobs %d, want the observation axis to follow (1, 4)", tr.Dim(), tr.Nobs())
	}
	c := a.Clone()
	c.Set(100, 0, 0)
	if a.At(0, 0) == 100 {
		t.Error("Clone shares memory with its source")
	}
}

func TestEqual(t *testing.T) {
	a := must(arraycontainer.New([]float64{1, math.NaN(), 3, 4}, []int{2, 2}, obsdim.First))
	f := must(arraycontainer.NewStrided([]float64{1, 3, math.NaN(), 4}, []int{2, 2}, []int{1, 2}, 0, obsdim.First))
	tests := []struct {
		name string
		b    *arraycontainer.Array[float64]
		want bool
	}{
		{"itself", a, true},
		{"other layout, NaN in place", f, true},
		{"other axis", must(f.WithDim(obsdim.Last)), false},
		{"other shape", must(arraycontainer.New([]float64{1, math.NaN(), 3, 4}, []int{4}, obsdim.First)), false},
		{"other value", must(arraycontainer.New([]float64{1, math.NaN(), 3, 5}, []int{2, 2}, obsdim.First)), false},
		{"nil", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := a.Equal(tc.b); got != tc.want {
				t.Errorf("Equal = %v, want %v", got, tc.want)
			}
		})
	}
	var n *arraycontainer.Array[float64]
	if !n.Equal(nil) {
		t.Error("nil.Equal(nil) = false")
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		name  string
		shape []int
		want  string
	}{
		{"vector", []int{3}, "[0 1 2]"},
		{"matrix", []int{2, 3}, "[[0 1 2]\n [3 4 5]]"},
		{"rank 3", []int{2, 1, 2}, "[[[0 1]]\n\n [[2 3]]]"},
		{"empty", []int{0, 2}, "[]"},
		{"aligned", []int{12}, "[ 0  1  2  3  4  5  6  7  8  9 10 11]"},
		{"summarized", []int{1001}, "[   0    1    2 ...  998  999 1000]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := 1
			for _, s := range tc.shape {
				n *= s
			}
			a := must(arraycontainer.New(make([]int32, n), tc.shape, obsdim.First))
			for i := range a.Data() {
				a.Data()[i] = int32(i)
			}
			if got := a.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
	f := must(arraycontainer.New([]float32{0.1, -2.5}, []int{2}, obsdim.First))
	if got := f.String(); got != "[ 0.1 -2.5]" {
		t.Errorf("float32 String() = %q, want %q", got, "[ 0.1 -2.5]")
	}
}

func TestScalars(t *testing.T) {
	a := must(arraycontainer.New([]int64{5, 6, 7, 8}, []int{4}, obsdim.First))
	s := must(a.Scalars())
	if d := cmp.Diff([]int64{5, 6, 7, 8}, []int64(s)); d != "" {
		t.Errorf("Scalars mismatch (-want +got):\n%s", d)
	}
	s[0] = 50
	if a.At(0) != 50 {
		t.Error("Scalars of a contiguous array did not share memory")
	}
	if cap(s) != len(s) {
		t.Error("Scalars did not cap its slice")
	}
	m := must(arraycontainer.New([]int64{1, 2, 3, 4}, []int{2, 2}, obsdim.First))
	col := must(m.Transpose().Range(0, 1, 2).WithDim(obsdim.Last)) // [[2 4]]
	if _, err := col.Scalars(); !errors.Is(err, arraycontainer.ErrShape) {
		t.Errorf("Scalars of rank 2: err = %v, want ErrShape", err)
	}
	strided := must(arraycontainer.NewStrided([]int64{1, 2, 3, 4}, []int{2}, []int{2}, 1, obsdim.First))
	if d := cmp.Diff([]int64{2, 4}, []int64(must(strided.Scalars()))); d != "" {
		t.Errorf("Scalars of a strided vector mismatch (-want +got):\n%s", d)
	}
}

func TestGetObsIntoReuse(t *testing.T) {
	a := must(arraycontainer.New(seq(100*6), []int{100, 2, 3}, obsdim.First))
	last := must(arraycontainer.New(seq(6*100), []int{6, 100}, obsdim.Last))
	idx := []int{5, 99, 0, 1, 2, 50, 50}
	for name, src := range map[string]*arraycontainer.Array[float64]{"first": a, "last": last, "view": a.Transpose(1, 0, 2)} {
		t.Run(name, func(t *testing.T) {
			buf := src.GetObsInto(nil, idx)
			data := &buf.Data()[0]
			if allocs := testing.AllocsPerRun(100, func() { buf = src.GetObsInto(buf, idx) }); allocs != 0 {
				t.Errorf("GetObsInto with a large enough dst: %v allocs, want 0", allocs)
			}
			if &buf.Data()[0] != data {
				t.Error("GetObsInto did not reuse dst's data")
			}
			// A smaller batch reuses the same buffer too.
			if allocs := testing.AllocsPerRun(100, func() { buf = src.GetObsInto(buf, idx[:2]) }); allocs != 0 {
				t.Errorf("GetObsInto of a smaller batch: %v allocs, want 0", allocs)
			}
			checkGather(t, src, buf, idx)
		})
	}
	// A buffer in the same backing array as the source, but outside its elements,
	// is not an overlap.
	backing := seq(12)
	src := must(arraycontainer.New(backing[:6], []int{3, 2}, obsdim.First))
	tail := must(arraycontainer.New(backing[6:], []int{3, 2}, obsdim.First))
	checkGather(t, src, tail, []int{2, 1, 0})
	// A buffer of another rank is reshaped (allocating only what it lacks).
	buf := last.GetObsInto(nil, idx)
	buf = a.GetObsInto(buf, idx[:3])
	if buf.Rank() != 3 || buf.Nobs() != 3 {
		t.Errorf("reused rank-2 buffer for a rank-3 source: shape %v", buf.Shape())
	}
}
