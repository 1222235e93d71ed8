package gather

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// plans are the row kernel's plans under test: its own, every copy routine,
// prefetch distances from none to beyond the batch, and rows requested whole,
// by their head or by one line.
var plans = []plan{
	kernelPlan, planFor(0), {PrefetchDistance, math.MaxInt, math.MaxInt, false}, {PrefetchDistance, 128, math.MaxInt, hasAVX2},
	{PrefetchDistance, 64, 0, false}, {0, 0, movsFrom, false}, {64, 0, movsFrom, hasAVX2}, {100, 192, 0, false},
	{1 << 20, math.MaxInt, math.MaxInt, hasAVX2},
}

// rowsOf runs the row kernel with plan pl on the n-byte rows at
// base+idx[j]*stride of src, into dst.
func rowsOf(dst, src []byte, base, stride, n int, idx []int, pl plan) {
	rows(dst[:n*len(idx)], src, base, stride, n, idx, summarize(idx), pl)
}

// refRows is the reference of the row kernel: one byte at a time.
func refRows(dst, src []byte, base, stride, n int, idx []int) {
	for j, i := range idx {
		for k := range n {
			dst[j*n+k] = src[base+i*stride+k]
		}
	}
}

// rowCase is a random batch of rows: n bytes each, from a source laid out with
// the given stride (padded, adjacent, reversed or broadcast), at an offset that
// puts rows at every alignment.
func rowCase(rng *rand.Rand, n int) (src []byte, base, stride int, idx []int) {
	rows := 1 + rng.IntN(40)
	switch rng.IntN(4) {
	case 0:
		stride = n
	case 1:
		stride = n + 1 + rng.IntN(70)
	case 2:
		stride = -(n + rng.IntN(3))
	default:
		stride = 0
	}
	pad := rng.IntN(64)
	size := pad + (rows-1)*max(stride, -stride) + n + rng.IntN(64)
	src = make([]byte, size)
	for i := range src {
		src[i] = byte(rng.Uint32())
	}
	base = pad
	if stride < 0 {
		base = pad + (rows-1)*(-stride)
	}
	idx = make([]int, rng.IntN(3*rows+1))
	for j := range idx {
		idx[j] = rng.IntN(rows)
	}
	return src, base, stride, idx
}

// TestRowsAgainstReference copies random batches of every row size from 1 to
// 300 bytes and around the kernel's thresholds, with every plan, into a
// destination at every alignment, and checks the bytes around the batch too.
func TestRowsAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	sizes := []int{383, 384, 784, 2047, 2048, 2049, 3136, 4096 + 17, 6272, 70000}
	for n := 1; n <= 300; n++ {
		sizes = append(sizes, n)
	}
	for _, n := range sizes {
		for _, pl := range plans {
			src, base, stride, idx := rowCase(rng, n)
			lead := rng.IntN(32)
			want := make([]byte, lead+len(idx)*n+32)
			for i := range want {
				want[i] = 0xA5
			}
			got := slices.Clone(want)
			refRows(want[lead:], src, base, stride, n, idx)
			rowsOf(got[lead:], src, base, stride, n, idx, pl)
			if !slices.Equal(want, got) {
				t.Fatalf("rows(n %d, stride %d, base %d, %d rows, %+v) differs from the reference:\n%s",
					n, stride, base, len(idx), pl, cmp.Diff(want, got))
			}
		}
	}
}

// TestRowsOutOfBounds: a row outside src is not read by the assembly; the
// fallback copy() panics at it, as Go's bounds checks do.
func TestRowsOutOfBounds(t *testing.T) {
	src := make([]byte, 100)
	dst := make([]byte, 40)
	for _, c := range []struct {
		base, stride int
		idx          []int
	}{
		{0, 10, []int{0, 9, 10}},   // the last row ends past src
		{0, 10, []int{-1}},         // a negative index
		{95, 10, []int{0}},         // the first row straddles the end
		{50, -10, []int{0, 1, 6}},  // before the start
		{0, 3, []int{math.MaxInt}}, // far past the end
	} {
		name := fmt.Sprintf("base %d stride %d idx %v", c.base, c.stride, c.idx)
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			rowsOf(dst, src, c.base, c.stride, 10, c.idx, kernelPlan)
		}()
	}
}

func TestInBounds(t *testing.T) {
	for _, c := range []struct {
		size, base, sa, n int
		idx               []int
		want              bool
	}{
		{100, 0, 10, 10, []int{0, 9}, true},
		{100, 0, 10, 10, []int{10}, false},
		{100, 90, -10, 10, []int{0, 9}, true},
		{100, 90, -10, 10, []int{10}, false},
		{100, 5, 0, 10, []int{math.MaxInt}, true}, // broadcast: every index reads the same row
		{100, 0, 10, 101, []int{0}, false},
		{100, -1, 10, 10, []int{1}, false},
		{100, 0, math.MaxInt, 10, []int{0}, false},
		{100, 0, 10, 10, nil, true},
	} {
		if got := summarize(c.idx).inBounds(c.size, c.base, c.sa, c.n); got != c.want {
			t.Errorf("inBounds(%d, %d, %d, %d, %v) = %v, want %v", c.size, c.base, c.sa, c.n, c.idx, got, c.want)
		}
	}
	// Against the block-by-block check on random lists: the extremes decide.
	rng := rand.New(rand.NewPCG(5, 5))
	for range 20000 {
		size, n := rng.IntN(200), rng.IntN(20)
		base, sa := rng.IntN(260)-30, rng.IntN(61)-30
		idx := make([]int, rng.IntN(6))
		for j := range idx {
			idx[j] = rng.IntN(40) - 5
		}
		want := n <= size && base >= 0 && base <= size
		for _, i := range idx {
			o := base + i*sa
			want = want && i >= 0 && o >= 0 && o+n <= size
		}
		if got := summarize(idx).inBounds(size, base, sa, n); got != want {
			t.Fatalf("inBounds(%d, %d, %d, %d, %v) = %v, want %v", size, base, sa, n, idx, got, want)
		}
	}
}

// FuzzRows checks the row kernel against the reference for fuzzed row sizes,
// strides, offsets, index lists and plans.
func FuzzRows(f *testing.F) {
	f.Add(uint16(3136), int16(3136), uint8(0), []byte{3, 1, 4, 1, 5}, uint8(0), int16(0))
	f.Add(uint16(17), int16(-20), uint8(7), []byte{0, 0, 2}, uint8(1), int16(64))
	f.Add(uint16(2048), int16(0), uint8(3), []byte{9}, uint8(2), int16(-1))
	f.Fuzz(func(t *testing.T, n16 uint16, stride16 int16, pad uint8, raw []byte, kind uint8, dist int16) {
		n := 1 + int(n16)%5000
		stride := int(stride16)
		rows := 1 + len(raw)%16
		span := (rows - 1) * max(stride, -stride)
		src := make([]byte, int(pad)+span+n)
		for i := range src {
			src[i] = byte(i*7 + 1)
		}
		base := int(pad)
		if stride < 0 {
			base += span
		}
		idx := make([]int, len(raw))
		for j, b := range raw {
			idx[j] = int(b) % rows
		}
		pl := plan{int(dist), []int{0, 64, 128, math.MaxInt}[int(kind>>3)%4], []int{0, 2048, math.MaxInt}[int(kind)%3], hasAVX2 && kind&4 != 0}
		want := make([]byte, len(idx)*n)
		got := make([]byte, len(idx)*n)
		refRows(want, src, base, stride, n, idx)
		rowsOf(got, src, base, stride, n, idx, pl)
		if !slices.Equal(want, got) {
			t.Fatalf("rows(n %d, stride %d, base %d, idx %v, %+v) differs from the reference", n, stride, base, idx, pl)
		}
	})
}

// TestGatherPartsMakeTheWhole: gathering disjoint parts [lo, hi) that cover
// the index list writes what one Gather writes, and each part writes nothing
// outside its own elements.
func TestGatherPartsMakeTheWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for trial := range 300 {
		rank := 1 + rng.IntN(4)
		l := randomLayout(rng, rank, 1+rng.IntN(maxDim[rank]))
		axis := rng.IntN(len(l.shape))
		n := l.shape[axis]
		idx := make([]int, 1+rng.IntN(2*n+1))
		for j := range idx {
			idx[j] = rng.IntN(n)
			if trial%2 == 1 && j > 0 && idx[j-1]+1 < n { // runs, so parts take the run-copy path
				idx[j] = idx[j-1] + 1
			}
		}
		size, inner := len(idx), 1
		for k, s := range l.shape {
			if k != axis {
				size *= s
			}
			if k > axis {
				inner *= s
			}
		}
		want := make([]int32, size)
		refGather(want, l.data, l.shape, l.strides, l.offset, axis, idx)
		got := make([]int32, size)
		for i := range got {
			got[i] = -1
		}
		cuts := []int{0, len(idx)}
		for range rng.IntN(4) {
			cuts = append(cuts, rng.IntN(len(idx)+1))
		}
		slices.Sort(cuts)
		for p := range len(cuts) - 1 {
			lo, hi := cuts[p], cuts[p+1]
			GatherPart(got, l.data, l.shape, l.strides, l.offset, axis, idx, lo, hi)
			// Element e of the batch belongs to observation (e / inner) % len(idx):
			// those of parts done so far hold the reference, the others -1.
			for e := range got {
				obs := e / inner % len(idx)
				if done := obs < hi; done && got[e] != want[e] || !done && got[e] != -1 {
					t.Fatalf("GatherPart(%v, axis %d, idx %v) after part [%d, %d): element %d (observation %d) = %d, want %d (-1: not written yet)",
						l, axis, idx, lo, hi, e, obs, got[e], map[bool]int32{true: want[e], false: -1}[done])
				}
			}
		}
	}
}

// TestGatherPartWritesOnlyItsPart: the elements of dst outside the part keep
// their values.
func TestGatherPartWritesOnlyItsPart(t *testing.T) {
	src := make([]float32, 5*6*7)
	for i := range src {
		src[i] = float32(i)
	}
	shape, strides := []int{5, 6, 7}, []int{42, 7, 1}
	idx := []int{4, 0, 3, 3, 1}
	for _, axis := range []int{0, 1, 2} {
		size := len(idx) * len(src) / shape[axis]
		whole := make([]float32, size)
		Gather(whole, src, shape, strides, 0, axis, idx)
		part := make([]float32, size)
		for i := range part {
			part[i] = -1
		}
		GatherPart(part, src, shape, strides, 0, axis, idx, 1, 3)
		// Element e of the batch belongs to observation (e / inner) % len(idx).
		inner := 1
		for _, s := range shape[axis+1:] {
			inner *= s
		}
		for e := range part {
			obs := e / inner % len(idx)
			if in := obs >= 1 && obs < 3; in && part[e] != whole[e] || !in && part[e] != -1 {
				t.Fatalf("axis %d: element %d (observation %d) = %v, want %v", axis, e, obs, part[e], map[bool]float32{true: whole[e], false: -1}[in])
			}
		}
	}
}

func TestGatherPartPanics(t *testing.T) {
	dst, src := make([]int32, 4), make([]int32, 4)
	for _, r := range [][2]int{{-1, 1}, {2, 1}, {0, 3}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("GatherPart(lo %d, hi %d) of 2 indices: no panic", r[0], r[1])
				}
			}()
			GatherPart(dst, src, []int{4}, []int{1}, 0, 0, []int{0, 1}, r[0], r[1])
		}()
	}
}

func TestRowsNoAllocs(t *testing.T) {
	src := make([]byte, 1<<20)
	dst := make([]byte, 128*3136)
	idx := rand.New(rand.NewPCG(1, 2)).Perm(len(src) / 3136)[:128]
	for _, pl := range plans {
		if a := testing.AllocsPerRun(10, func() { rowsOf(dst, src, 0, 3136, 3136, idx, pl) }); a != 0 {
			t.Errorf("rows with %+v: %v allocs, want 0", pl, a)
		}
	}
	sf := make([]float32, 784*1000)
	df := make([]float32, 784*128)
	if a := testing.AllocsPerRun(10, func() { GatherPart(df, sf, []int{784, 1000}, []int{1000, 1}, 0, 1, idx, 10, 100) }); a != 0 {
		t.Errorf("GatherPart observation-last: %v allocs, want 0", a)
	}
}

func TestDescribe(t *testing.T) {
	d := Describe()
	if hasKernel && !strings.Contains(d, "assembly") || !hasKernel && !strings.Contains(d, "copy()") {
		t.Errorf("Describe() = %q on a build with hasKernel = %v", d, hasKernel)
	}
}
