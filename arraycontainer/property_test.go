package arraycontainer_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/obsdim"
)

// randomArray returns an array of random rank 1..maxRank with a random layout:
// axes stored in a random memory order, padded strides, reversed (negative
// strides) and broadcast (zero stride) axes, a random offset. Every element of the
// backing slice holds its own position, so a wrong read shows.
func randomArray(rng *rand.Rand, maxRank int) *arraycontainer.Array[float64] {
	rank := 1 + rng.IntN(maxRank)
	shape := make([]int, rank)
	for k := range shape {
		shape[k] = rng.IntN(5)
		if rng.IntN(8) == 0 {
			shape[k] = 0
		} else if shape[k] == 0 {
			shape[k] = 1 + rng.IntN(4)
		}
	}
	strides := make([]int, rank)
	order := rng.Perm(rank)
	if rng.IntN(3) == 0 { // plain row-major, the common case
		for k := range order {
			order[k] = rank - 1 - k
		}
	}
	acc := 1
	for _, k := range order { // innermost first
		switch rng.IntN(10) {
		case 0:
			strides[k] = 0 // broadcast
			continue
		case 1, 2:
			acc += rng.IntN(3) // padding
		}
		strides[k] = acc
		acc *= max(shape[k], 1)
	}
	lo, hi := 0, 0
	for k := range strides {
		if rng.IntN(5) == 0 {
			strides[k] = -strides[k]
		}
		if shape[k] > 0 {
			span := (shape[k] - 1) * strides[k]
			if span < 0 {
				lo += span
			} else {
				hi += span
			}
		}
	}
	offset := -lo + rng.IntN(3)
	data := make([]float64, offset+hi+1+rng.IntN(3))
	for i := range data {
		data[i] = float64(i)
	}
	dim := obsdim.Constant(rng.IntN(rank))
	a, err := arraycontainer.NewStrided(data, shape, strides, offset, dim)
	if err != nil {
		panic(fmt.Sprintf("randomArray built an invalid layout: %v", err))
	}
	return a
}

// randomView applies a few random views (Range on any axis, ObsRange, Transpose,
// WithDim) to a, as a user building sub-arrays would.
func randomView(rng *rand.Rand, a *arraycontainer.Array[float64]) *arraycontainer.Array[float64] {
	for range rng.IntN(4) {
		switch rng.IntN(4) {
		case 0:
			k := rng.IntN(a.Rank())
			n := a.Shape()[k]
			lo := rng.IntN(n + 1)
			a = a.Range(k, lo, lo+rng.IntN(n-lo+1))
		case 1:
			n := a.Nobs()
			lo := rng.IntN(n + 1)
			a = a.ObsRange(lo, lo+rng.IntN(n-lo+1))
		case 2:
			a = a.Transpose(rng.Perm(a.Rank())...)
		case 3:
			a = must(a.WithDim(obsdim.Constant(rng.IntN(a.Rank()))))
		}
	}
	return a
}

func randomIndices(rng *rand.Rand, n int) (string, []int) {
	if n == 0 {
		return "empty", []int{}
	}
	k := rng.IntN(2*n + 2)
	idx := make([]int, k)
	switch rng.IntN(5) {
	case 0:
		for j := range idx {
			idx[j] = j % n
		}
		return "runs", idx
	case 1:
		for j := range idx {
			idx[j] = n - 1 - j%n
		}
		return "reversed", idx
	case 2:
		return "empty", idx[:0]
	case 3:
		start := rng.IntN(n)
		idx = idx[:min(k, n-start)]
		for j := range idx {
			idx[j] = start + j
		}
		return "one run", idx
	}
	for j := range idx {
		idx[j] = rng.IntN(n)
	}
	return "shuffled with repeats", idx
}

// naiveGather is the reference: element by element with At.
func naiveGather(a *arraycontainer.Array[float64], idx []int) []float64 {
	shape := a.Shape()
	shape[a.Dim()] = len(idx)
	n := 1
	for _, s := range shape {
		n *= s
	}
	out := make([]float64, 0, n)
	if n == 0 {
		return out
	}
	ix := make([]int, len(shape))
	src := make([]int, len(shape))
	for {
		copy(src, ix)
		src[a.Dim()] = idx[ix[a.Dim()]]
		out = append(out, a.At(src...))
		k := len(ix) - 1
		for ; k >= 0; k-- {
			ix[k]++
			if ix[k] < shape[k] {
				break
			}
			ix[k] = 0
		}
		if k < 0 {
			return out
		}
	}
}

// checkGather compares a.GetObsInto(dst, idx) with the reference.
func checkGather(t *testing.T, a *arraycontainer.Array[float64], dst *arraycontainer.Array[float64], idx []int) *arraycontainer.Array[float64] {
	t.Helper()
	want := naiveGather(a, idx)
	got := a.GetObsInto(dst, idx)
	wantShape := a.Shape()
	wantShape[a.Dim()] = len(idx)
	if fmt.Sprint(got.Shape()) != fmt.Sprint(wantShape) || got.Dim() != a.Dim() || !got.IsContiguous() || got.Offset() != 0 {
		t.Fatalf("GetObsInto(%v) of shape %v strides %v dim %d: got shape %v dim %d contiguous %v offset %d",
			idx, a.Shape(), a.Strides(), a.Dim(), got.Shape(), got.Dim(), got.IsContiguous(), got.Offset())
	}
	if d := got.Data()[:len(want)]; fmt.Sprint(d) != fmt.Sprint(want) {
		t.Fatalf("GetObsInto(%v) of shape %v strides %v offset %d dim %d:\n got %v\nwant %v",
			idx, a.Shape(), a.Strides(), a.Offset(), a.Dim(), d, want)
	}
	return got
}

func TestGatherProperty(t *testing.T) {
	rounds := 3000
	if testing.Short() {
		rounds = 300
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var buf *arraycontainer.Array[float64] // reused across rounds of every rank
	for range rounds {
		a := randomView(rng, randomArray(rng, 5))
		_, idx := randomIndices(rng, a.Nobs())
		buf = checkGather(t, a, buf, idx)
		checkGather(t, a, nil, idx)
	}
}

func TestGetObsProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		a := randomArray(rng, 5)
		for i := range a.Nobs() {
			o := a.GetObs(i)
			want := naiveGather(a, []int{i})
			if fmt.Sprint(o.Data()) != fmt.Sprint(want) || o.Rank() != a.Rank()-1 || !o.IsContiguous() {
				t.Fatalf("GetObs(%d) of shape %v strides %v dim %d = %v (shape %v), want %v",
					i, a.Shape(), a.Strides(), a.Dim(), o.Data(), o.Shape(), want)
			}
		}
	}
}

func TestCloneAndObsFirstProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 1000 {
		a := randomView(rng, randomArray(rng, 5))
		c := a.Clone()
		if !c.Equal(a) || !c.IsContiguous() {
			t.Fatalf("Clone of shape %v strides %v: not equal or not contiguous (strides %v)", a.Shape(), a.Strides(), c.Strides())
		}
		// Equal is itself built on the walk under test: check the copy against
		// the element-by-element reference too.
		all := make([]int, a.Nobs())
		for i := range all {
			all[i] = i
		}
		if want := naiveGather(a, all); fmt.Sprint(c.Data()) != fmt.Sprint(want) {
			t.Fatalf("Clone of shape %v strides %v dim %d = %v, want %v", a.Shape(), a.Strides(), a.Dim(), c.Data(), want)
		}
		f := a.ObsFirst()
		if f.Dim() != 0 || !f.IsContiguous() || f.Nobs() != a.Nobs() {
			t.Fatalf("ObsFirst of shape %v dim %d: shape %v dim %d contiguous %v", a.Shape(), a.Dim(), f.Shape(), f.Dim(), f.IsContiguous())
		}
		for i := range a.Nobs() {
			if !f.GetObs(i).Equal(a.GetObs(i)) {
				t.Fatalf("ObsFirst of shape %v strides %v dim %d: observation %d = %v, want %v", a.Shape(), a.Strides(), a.Dim(), i, f.GetObs(i), a.GetObs(i))
			}
		}
	}
}

// FuzzGather builds arrays from fuzzed shapes, strides, offsets and index lists.
// NewStrided must reject every layout that reaches outside the data (never panic),
// and GetObsInto of every accepted one must match the reference.
func FuzzGather(f *testing.F) {
	f.Add([]byte{2, 3, 4, 4, 1, 0, 0}, uint8(0), uint8(30), []byte{2, 0, 1, 1})
	f.Add([]byte{2, 4, 3, 1, 4, 0, 0}, uint8(1), uint8(12), []byte{3, 3, 0})
	f.Add([]byte{3, 2, 2, 2, 0xfc, 2, 1}, uint8(2), uint8(40), []byte{1, 0})
	f.Add([]byte{1, 0, 7}, uint8(0), uint8(0), []byte{})
	f.Fuzz(func(t *testing.T, layout []byte, axis, extra uint8, rawIdx []byte) {
		if len(layout) == 0 {
			return
		}
		rank := int(layout[0]) % 6
		layout = layout[1:]
		if len(layout) < 2*rank+1 {
			return
		}
		shape := make([]int, rank)
		strides := make([]int, rank)
		for k := range rank {
			shape[k] = int(layout[k]) % 6
			strides[k] = int(int8(layout[rank+k]))
		}
		offset := int(int8(layout[2*rank]))
		data := make([]float64, int(extra))
		for i := range data {
			data[i] = float64(i)
		}
		dim := obsdim.First
		if rank > 0 {
			dim = obsdim.Constant(int(axis) % rank)
		}
		a, err := arraycontainer.NewStrided(data, shape, strides, offset, dim)
		if err != nil {
			return
		}
		if rank == 0 {
			if a.Item() != data[offset] {
				t.Fatalf("Item = %v, want %v", a.Item(), data[offset])
			}
			return
		}
		n := a.Nobs()
		idx := make([]int, 0, len(rawIdx))
		for _, b := range rawIdx {
			if n > 0 {
				idx = append(idx, int(b)%n)
			}
		}
		checkGather(t, a, nil, idx)
		c := a.Clone()
		if !c.Equal(a) {
			t.Fatalf("Clone of shape %v strides %v offset %d differs", shape, strides, offset)
		}
	})
}
