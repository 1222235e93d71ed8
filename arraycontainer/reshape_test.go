package arraycontainer_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/obsdim"
)

func TestReshape(t *testing.T) {
	a := must(arraycontainer.New(seq(24), []int{2, 3, 4}, obsdim.First))
	flat := must(a.Reshape([]int{-1, 12}, obsdim.First))
	if d := cmp.Diff([]int{2, 12}, flat.Shape()); d != "" {
		t.Fatalf("shape mismatch (-want +got):\n%s", d)
	}
	if flat.At(1, 5) != a.At(1, 1, 1) {
		t.Errorf("Reshape reordered the elements: %v vs %v", flat.At(1, 5), a.At(1, 1, 1))
	}
	flat.Set(-1, 0, 0)
	if a.At(0, 0, 0) != -1 {
		t.Error("Reshape of a contiguous array copied")
	}
	// A view with an offset is contiguous too.
	sl := a.ObsRange(1, 2)
	v := must(sl.Reshape([]int{12}, obsdim.First))
	if v.At(0) != 12 || v.At(11) != 23 {
		t.Errorf("Reshape of a slice = %v", v)
	}
	// A transpose is not: the result is a copy in row-major order of the view.
	tr := a.Transpose(0, 2, 1)
	c := must(tr.Reshape([]int{2, 12}, obsdim.First))
	if c.At(0, 1) != tr.At(0, 0, 1) || c.At(1, 11) != tr.At(1, 3, 2) {
		t.Errorf("Reshape of a transpose = %v", c)
	}
	c.Set(99, 0, 0)
	if a.At(0, 0, 0) == 99 {
		t.Error("Reshape of a non-contiguous view shares memory")
	}
	// Observation axis of the new shape.
	last := must(a.Reshape([]int{4, 6}, obsdim.Last))
	if last.Dim() != 1 || last.Nobs() != 6 {
		t.Errorf("Reshape with obsdim.Last: dim %d nobs %d", last.Dim(), last.Nobs())
	}
	// Rank 0 and back.
	one := must(arraycontainer.New([]float64{7}, []int{1}, obsdim.First))
	if s := must(one.Reshape(nil, obsdim.First)); s.Rank() != 0 || s.Item() != 7 {
		t.Errorf("Reshape to rank 0 = %v", s)
	}
	for _, bad := range []struct {
		shape []int
		dim   obsdim.Dim
		err   error
	}{
		{[]int{5, 5}, obsdim.First, arraycontainer.ErrShape},
		{[]int{-1, 5}, obsdim.First, arraycontainer.ErrShape},
		{[]int{-1, -1}, obsdim.First, arraycontainer.ErrShape},
		{[]int{-2, 12}, obsdim.First, arraycontainer.ErrShape},
		{[]int{24}, obsdim.Constant(1), obsdim.ErrAxis},
	} {
		if _, err := a.Reshape(bad.shape, bad.dim); !errors.Is(err, bad.err) {
			t.Errorf("Reshape(%v, %v): err = %v, want %v", bad.shape, bad.dim, err, bad.err)
		}
	}
}

func TestResize(t *testing.T) {
	var dst *arraycontainer.Array[float32]
	dst = arraycontainer.Resize(dst, []int{3, 4}, obsdim.First)
	if d := cmp.Diff([]int{3, 4}, dst.Shape()); d != "" || !dst.IsContiguous() || dst.Dim() != 0 {
		t.Fatalf("Resize: shape diff %s, contiguous %v, dim %d", d, dst.IsContiguous(), dst.Dim())
	}
	shape := []int{2, 5}
	if a := testing.AllocsPerRun(100, func() { dst = arraycontainer.Resize(dst, shape, obsdim.Last) }); a != 0 {
		t.Errorf("Resize into a buffer that holds it: %v allocations, want 0", a)
	}
	if dst.Dim() != 1 || dst.Nobs() != 5 {
		t.Errorf("Resize obsdim.Last: dim %d nobs %d", dst.Dim(), dst.Nobs())
	}
	like := must(arraycontainer.New([]uint8{1, 2, 3, 4, 5, 6}, []int{3, 2}, obsdim.Last))
	r := arraycontainer.ResizeLike(dst, like)
	if d := cmp.Diff(like.Shape(), r.Shape()); d != "" || r.Dim() != 1 {
		t.Errorf("ResizeLike: shape diff %s dim %d", d, r.Dim())
	}
	if a := testing.AllocsPerRun(100, func() { r = arraycontainer.ResizeLike(r, like) }); a != 0 {
		t.Errorf("ResizeLike: %v allocations, want 0", a)
	}
	defer func() {
		var ae *container.ArgError
		if err, _ := recover().(error); !errors.As(err, &ae) {
			t.Errorf("Resize with a negative dimension: panic %v, want *container.ArgError", err)
		}
	}()
	arraycontainer.Resize(dst, []int{-1}, obsdim.First)
}
