package gather

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// refGather is the reference: one element at a time, offsets recomputed from the
// multi-index.
func refGather(dst, src []int32, shape, strides []int, offset, axis int, idx []int) {
	out := slices.Clone(shape)
	out[axis] = len(idx)
	ctr := make([]int, len(shape))
	for p := range dst {
		off := offset
		for k, i := range ctr {
			if k == axis {
				i = idx[i]
			}
			off += i * strides[k]
		}
		dst[p] = src[off]
		for k := len(ctr) - 1; k >= 0; k-- {
			if ctr[k]++; ctr[k] < out[k] {
				break
			}
			ctr[k] = 0
		}
	}
}

// layout is a random strided layout over a data slice whose elements hold their
// own positions.
type layout struct {
	data           []int32
	shape, strides []int
	offset         int
}

func (l layout) String() string {
	return fmt.Sprintf("shape %v strides %v offset %d", l.shape, l.strides, l.offset)
}

// randomLayout stores the axes in a random memory order, with optional padding
// and reversal. Dimensions go up to maxDim.
func randomLayout(rng *rand.Rand, rank, maxDim int) layout {
	shape := make([]int, rank)
	for k := range shape {
		shape[k] = 1 + rng.IntN(maxDim)
	}
	return layoutOf(rng, shape)
}

// layoutOf is randomLayout for a given shape.
func layoutOf(rng *rand.Rand, shape []int) layout {
	rank := len(shape)
	strides := make([]int, rank)
	acc := 1
	for _, k := range rng.Perm(rank) {
		if rng.IntN(4) == 0 {
			acc++
		}
		strides[k] = acc
		acc *= shape[k]
	}
	lo, hi := 0, 0
	for k := range strides {
		if rng.IntN(4) == 0 {
			strides[k] = -strides[k]
			lo += (shape[k] - 1) * strides[k]
		} else {
			hi += (shape[k] - 1) * strides[k]
		}
	}
	data := make([]int32, hi-lo+1)
	for i := range data {
		data[i] = int32(i)
	}
	return layout{data, shape, strides, -lo}
}

// maxDim bounds each dimension by rank, so that the rank-2 cases have long rows
// and the rank-4 cases stay small.
var maxDim = [...]int{1: 300, 2: 80, 3: 16, 4: 7}

func TestGatherAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for range 400 {
		rank := 1 + rng.IntN(4)
		l := randomLayout(rng, rank, 1+rng.IntN(maxDim[rank]))
		axis := rng.IntN(len(l.shape))
		n := l.shape[axis]
		idx := make([]int, rng.IntN(3*n+1))
		runs := rng.IntN(2) == 0
		start := rng.IntN(n)
		for j := range idx {
			if runs {
				idx[j] = (start + j) % n // long runs of consecutive indices
			} else {
				idx[j] = rng.IntN(n)
			}
		}
		size := len(idx)
		for k, s := range l.shape {
			if k != axis {
				size *= s
			}
		}
		want := make([]int32, size)
		got := make([]int32, size)
		refGather(want, l.data, l.shape, l.strides, l.offset, axis, idx)
		Gather(got, l.data, l.shape, l.strides, l.offset, axis, idx)
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("Gather(%v, axis %d, idx %v) mismatch (-want +got):\n%s", l, axis, idx, d)
		}
	}
}

func TestCopyAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for range 300 {
		rank := 1 + rng.IntN(4)
		l := randomLayout(rng, rank, 1+rng.IntN(maxDim[rank]))
		size := 1
		for _, s := range l.shape {
			size *= s
		}
		all := make([]int, l.shape[0])
		for i := range all {
			all[i] = i
		}
		want := make([]int32, size)
		got := make([]int32, size)
		refGather(want, l.data, l.shape, l.strides, l.offset, 0, all)
		Copy(got, l.data, l.shape, l.strides, l.offset)
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("Copy(%v) mismatch (-want +got):\n%s", l, d)
		}
	}
}

func TestMerge(t *testing.T) {
	tests := []struct {
		shape, strides []int
		want           string
	}{
		{[]int{60000, 28, 28}, []int{784, 28, 1}, "[47040000] [1]"},
		{[]int{28, 28}, []int{28, 1}, "[784] [1]"},
		{[]int{4, 1, 3}, []int{3, 99, 1}, "[12] [1]"},             // length-1 axes dropped
		{[]int{4, 3}, []int{4, 1}, "[4 3] [4 1]"},                 // padded rows do not merge
		{[]int{784, 60000}, []int{1, 784}, "[784 60000] [1 784]"}, // transposed
		{[]int{2, 3}, []int{-3, -1}, "[6] [-1]"},                  // reversed
		{[]int{5, 2}, []int{0, 0}, "[10] [0]"},                    // broadcast
		{[]int{1, 1}, []int{7, 7}, "[] []"},
	}
	for _, tc := range tests {
		var x axes
		x.merge(tc.shape, tc.strides)
		if got := fmt.Sprint(x.shape[:x.n], x.stride[:x.n]); got != tc.want {
			t.Errorf("merge(%v, %v) = %s, want %s", tc.shape, tc.strides, got, tc.want)
		}
	}
}

func TestNoAllocs(t *testing.T) {
	src := make([]float32, 40*30*20)
	dst := make([]float32, 40*30*20)
	idx := []int{3, 4, 5, 0, 29, 29}
	gdst := make([]float32, 40*len(idx)*20)
	cases := map[string]func(){
		"Gather blocks": func() { Gather(gdst, src, []int{40, 30, 20}, []int{600, 20, 1}, 0, 1, idx) },
		"Gather column": func() { Gather(gdst, src, []int{40, 20, 30}, []int{600, 30, 1}, 0, 2, idx) },
		"Gather walk":   func() { Gather(gdst, src, []int{40, 30, 20}, []int{1, 800, 40}, 0, 1, idx) },
		"Copy":          func() { Copy(dst, src, []int{40, 30, 20}, []int{600, 20, 1}, 0) },
		"Copy strided":  func() { Copy(dst, src, []int{40, 30, 20}, []int{1, 800, 40}, 0) },
		"Fill":          func() { Fill(src, []int{40, 30, 20}, []int{1, 800, 40}, 0, 1) },
		"Equal":         func() { Equal(src, dst, []int{40, 30, 20}, []int{600, 20, 1}, []int{1, 800, 40}, 0, 0) },
	}
	for name, f := range cases {
		if a := testing.AllocsPerRun(20, f); a != 0 {
			t.Errorf("%s: %v allocs, want 0", name, a)
		}
	}
}

// refOffsets calls f(p, off) for every element of a layout in row-major order:
// p counts the elements, off is the element's position in the data, recomputed
// from the multi-index.
func refOffsets(shape, strides []int, offset int, f func(p, off int)) {
	size := 1
	for _, s := range shape {
		size *= s
	}
	ctr := make([]int, len(shape))
	for p := range size {
		off := offset
		for k, i := range ctr {
			off += i * strides[k]
		}
		f(p, off)
		for k := len(ctr) - 1; k >= 0; k-- {
			if ctr[k]++; ctr[k] < shape[k] {
				break
			}
			ctr[k] = 0
		}
	}
}

// broadcast sets a random axis of l to stride 0 now and then, as a broadcast
// view has, which randomLayout never makes.
func broadcast(rng *rand.Rand, l layout) layout {
	if rng.IntN(4) == 0 {
		l.strides = slices.Clone(l.strides)
		l.strides[rng.IntN(len(l.strides))] = 0
	}
	return l
}

func TestFillAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for trial := range 300 {
		rank := 1 + rng.IntN(4)
		l := broadcast(rng, randomLayout(rng, rank, 1+rng.IntN(maxDim[rank])))
		v := int32(-1)
		if trial%2 == 1 {
			v = 0 // cleared runs
		}
		want, got := slices.Clone(l.data), slices.Clone(l.data)
		refOffsets(l.shape, l.strides, l.offset, func(_, off int) { want[off] = v })
		Fill(got, l.shape, l.strides, l.offset, v)
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("Fill(%v, %d) mismatch (-want +got):\n%s", l, v, d)
		}
	}
	// An empty layout and a scalar.
	d := []int32{1, 2, 3}
	Fill(d, []int{2, 0}, []int{1, 1}, 0, 9)
	Fill(d, nil, nil, 2, 7)
	if want := []int32{1, 2, 7}; !slices.Equal(d, want) {
		t.Errorf("Fill of an empty layout and a scalar: %v, want %v", d, want)
	}
}

func TestFillZero(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, v := range []float64{0, negZero, 1} {
		for _, strides := range [][]int{{1}, {-1}, {2}} {
			d := []float64{5, 5, 5, 5, 5}
			off := 0
			if strides[0] < 0 {
				off = 2
			}
			Fill(d, []int{3}, strides, off, v)
			for k := range 3 {
				x := d[off+k*strides[0]]
				if x != v || math.Signbit(x) != math.Signbit(v) {
					t.Errorf("Fill(%v) with stride %d: element %d = %v (sign bit %v)", v, strides[0], k, x, math.Signbit(x))
				}
			}
		}
	}
}

func TestEqualAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for range 300 {
		rank := 1 + rng.IntN(4)
		l := broadcast(rng, randomLayout(rng, rank, 1+rng.IntN(maxDim[rank])))
		// The same values in a second random layout of the same shape; the
		// elements of its data outside the layout hold -7.
		m := layoutOf(rng, l.shape)
		for i := range m.data {
			m.data[i] = -7
		}
		var offs []int
		refOffsets(l.shape, l.strides, l.offset, func(_, off int) { offs = append(offs, off) })
		refOffsets(m.shape, m.strides, m.offset, func(p, off int) { m.data[off] = l.data[offs[p]] })
		if !Equal(l.data, m.data, l.shape, l.strides, m.strides, l.offset, m.offset) {
			t.Fatalf("Equal(%v, the same values in %v) = false", l, m)
		}
		// Change one element of the second: the layouts differ there.
		var last int
		p := rng.IntN(len(offs))
		refOffsets(m.shape, m.strides, m.offset, func(q, off int) {
			if q == p {
				last = off
			}
		})
		m.data[last]++
		if Equal(l.data, m.data, l.shape, l.strides, m.strides, l.offset, m.offset) {
			t.Fatalf("Equal(%v, %v with element %d changed) = true", l, m, p)
		}
	}
}

func TestEqualNaN(t *testing.T) {
	nan, negZero := math.NaN(), math.Copysign(0, -1)
	tests := []struct {
		a, b []float64
		want bool
	}{
		{[]float64{1, nan}, []float64{1, nan}, true},
		{[]float64{0, 2}, []float64{negZero, 2}, true},
		{[]float64{1, nan}, []float64{1, 2}, false},
		{[]float64{1, 2}, []float64{1, nan}, false},
	}
	for _, tc := range tests {
		if got := Equal(tc.a, tc.b, []int{2}, []int{1}, []int{1}, 0, 0); got != tc.want {
			t.Errorf("Equal(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	if !Equal([]float64{1}, []float64{2}, []int{3, 0}, []int{1, 1}, []int{1, 1}, 0, 0) {
		t.Error("Equal of two empty layouts = false")
	}
}

// TestColumnSizes checks the observation-last gather (one element per
// observation: the column kernel) for every element size, against one
// element at a time: rows of unit stride and of other strides (a transposed
// view, a negative stride), each part of the indices (GatherPart), indices
// with repeats and runs.
func TestColumnSizes(t *testing.T) {
	t.Run("int8", columnSizes[int8])
	t.Run("uint16", columnSizes[uint16])
	t.Run("float32", columnSizes[float32])
	t.Run("float64", columnSizes[float64])
}

func columnSizes[E Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const rows, n = 7, 300
	src := make([]E, rows*n+3)
	for i := range src {
		src[i] = E(rng.IntN(120))
	}
	for _, l := range []struct {
		name    string
		strides []int
		offset  int
	}{
		{"unit", []int{n, 1}, 0},
		{"offset", []int{n, 1}, 3},
		{"transposed", []int{1, rows}, 0},
		{"reversed", []int{n, -1}, n - 1},
	} {
		for _, idx := range [][]int{rng.Perm(n)[:128], {5, 5, 5, 0, n - 1}, {7, 8, 9, 10, 11, 12, 40, 41, 42, 43}, {}} {
			want := make([]E, rows*len(idx))
			for f := range rows {
				for j, i := range idx {
					want[f*len(idx)+j] = src[l.offset+f*l.strides[0]+i*l.strides[1]]
				}
			}
			got := make([]E, len(want))
			Gather(got, src, []int{rows, n}, l.strides, l.offset, 1, idx)
			if !slices.Equal(got, want) {
				t.Errorf("%s, %d indices: Gather = %v, want %v", l.name, len(idx), got, want)
			}
			for _, part := range [][2]int{{0, len(idx) / 2}, {len(idx) / 2, len(idx)}} {
				clear(got)
				GatherPart(got, src, []int{rows, n}, l.strides, l.offset, 1, idx, part[0], part[1])
				for f := range rows {
					for j := range idx {
						in := j >= part[0] && j < part[1]
						if g, w := got[f*len(idx)+j], want[f*len(idx)+j]; in && g != w || !in && g != 0 {
							t.Fatalf("%s, part %v: element (%d, %d) = %v, want %v", l.name, part, f, j, g, map[bool]E{true: w}[in])
						}
					}
				}
			}
		}
	}
}
