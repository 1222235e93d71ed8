package index

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obskit/obskit/internal/mix"
)

// localReference is LocalBlocks by its definition, with arrays: the epoch's
// layout of blocks, cut into runs, each run's pieces shuffled by a Blocks
// order of their starts, the runs interleaved.
func localReference(starts []int, window, parts int, seed uint64, epoch int) []int {
	n := starts[len(starts)-1]
	all := NewBlocksAt(starts, window, seed, epoch)
	var layout []int // element at each place of the layout
	for q := range all.nblocks {
		k := int(all.blocks.at(uint64(q)))
		for x := starts[k]; x < starts[k+1]; x++ {
			layout = append(layout, x)
		}
	}
	runs := make([][]int, parts)
	for c := range parts {
		lo, hi := Chunk(n, parts, c)
		// The pieces: cut where the layout's block changes.
		pieces := []int{0}
		for s := lo + 1; s < hi; s++ {
			if all.blockOf(layout[s]) != all.blockOf(layout[s-1]) {
				pieces = append(pieces, s-lo)
			}
		}
		if hi > lo {
			pieces = append(pieces, hi-lo)
		}
		b := NewBlocksAt(pieces, window, mix.Key(domainParts, seed, uint64(c)), epoch)
		for o := range hi - lo {
			runs[c] = append(runs[c], layout[lo+b.At(o)])
		}
	}
	out := make([]int, 0, n)
	m := n / parts
	for o := range m {
		for c := range parts {
			out = append(out, runs[c][o])
		}
	}
	for c := range n % parts {
		out = append(out, runs[c][m])
	}
	return out
}

func randomStarts(r *rand.Rand, nblocks, maxSize int) []int {
	starts := []int{0}
	for range nblocks {
		size := r.IntN(maxSize + 1) // empty blocks too
		starts = append(starts, starts[len(starts)-1]+size)
	}
	return starts
}

// TestLocalBlocksReference compares At, Fill and Pos with the reference on
// random blocks (empty ones included), windows and numbers of parts,
// fewer and more parts than blocks and than positions; Reset to another
// epoch equals a new order of it.
func TestLocalBlocksReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		starts := randomStarts(r, r.IntN(20), 1+r.IntN(30))
		n := starts[len(starts)-1]
		window := 1 + r.IntN(5)
		parts := 1 + r.IntN(9)
		seed, epoch := r.Uint64(), r.IntN(4)
		name := fmt.Sprintf("trial %d: %d blocks, n %d, window %d, parts %d", trial, len(starts)-1, n, window, parts)
		want := localReference(starts, window, parts, seed, epoch)
		l := NewLocalBlocks(starts, window, parts, seed, epoch+1)
		l.Reset(seed, epoch)
		got := make([]int, n)
		for g := range n {
			got[g] = l.At(g)
			if p := l.Pos(got[g]); p != g {
				t.Fatalf("%s: Pos(At(%d)) = %d", name, g, p)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: At = %v, want %v", name, got, want)
		}
		if n > 0 {
			stride := 1 + r.IntN(parts)
			start := r.IntN(n)
			dst := make([]int, (n-1-start)/stride+1)
			l.Fill(dst, start, stride)
			for j, v := range dst {
				if v != want[start+j*stride] {
					t.Fatalf("%s: Fill(start %d, stride %d)[%d] = %d, want %d", name, start, stride, j, v, want[start+j*stride])
				}
			}
		}
	}
}

// TestLocalBlocksLocality: dealt to parts by a strided partition, the
// parts touch together at most blocks + parts - 1 blocks (a block is shared
// only where a run is cut); dealt to P parts with P dividing parts, the
// same bound holds; with 3 parts over an order of 4, it does not.
func TestLocalBlocksLocality(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	starts := randomStarts(r, 200, 60)
	nb := len(starts) - 1
	l := NewLocalBlocks(starts, 4, 12, 7, 0)
	all := NewBlocksAt(starts, 4, 7, 0)
	touched := func(P int) int {
		sum := 0
		for p := range P {
			seen := map[int]bool{}
			for g := p; g < l.N(); g += P {
				seen[all.blockOf(l.At(g))] = true
			}
			sum += len(seen)
		}
		return sum
	}
	for _, P := range []int{1, 2, 3, 4, 6, 12} {
		if got := touched(P); got > nb+12-1 {
			t.Errorf("%d parts of an order of 12: %d blocks touched in all, want at most %d", P, got, nb+11)
		}
	}
	l5 := NewLocalBlocks(starts, 4, 4, 7, 0)
	sum := 0
	for p := range 3 {
		seen := map[int]bool{}
		for g := p; g < l5.N(); g += 3 {
			seen[all.blockOf(l5.At(g))] = true
		}
		sum += len(seen)
	}
	if sum < 2*nb {
		t.Errorf("3 parts of an order of 4 touch %d blocks in all: the test's contrast (locality lost) does not show", sum)
	}
}

// TestLocalBlocksResetAllocs: a loop walking through epochs allocates
// nothing.
func TestLocalBlocksResetAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	starts := randomStarts(r, 500, 40)
	l := NewLocalBlocks(starts, 8, 7, 1, 0)
	e := 0
	if a := testing.AllocsPerRun(20, func() { e++; l.Reset(1, e) }); a != 0 {
		t.Fatalf("Reset allocates %v times", a)
	}
}
