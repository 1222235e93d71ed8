package index_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/index"
)

var partTails = []index.Tail{index.Keep, index.Drop, index.Pad}

func TestPartExamples(t *testing.T) {
	tests := []struct {
		n, parts int
		strided  bool
		tail     index.Tail
		want     [][]int
	}{
		{10, 3, false, index.Keep, [][]int{{0, 1, 2, 3}, {4, 5, 6}, {7, 8, 9}}},
		{10, 3, true, index.Keep, [][]int{{0, 3, 6, 9}, {1, 4, 7}, {2, 5, 8}}},
		{10, 3, false, index.Pad, [][]int{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 0, 1}}},
		// PyTorch DistributedSampler(drop_last=False): indices 0..9,0,1 strided.
		{10, 3, true, index.Pad, [][]int{{0, 3, 6, 9}, {1, 4, 7, 0}, {2, 5, 8, 1}}},
		{10, 3, false, index.Drop, [][]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}}},
		// PyTorch DistributedSampler(drop_last=True): indices[:9] strided.
		{10, 3, true, index.Drop, [][]int{{0, 3, 6}, {1, 4, 7}, {2, 5, 8}}},
		// Padding past a whole copy repeats cyclically, as PyTorch does.
		{2, 5, true, index.Pad, [][]int{{0}, {1}, {0}, {1}, {0}}},
		{2, 5, false, index.Pad, [][]int{{0}, {1}, {0}, {1}, {0}}},
		{2, 5, false, index.Drop, [][]int{{}, {}, {}, {}, {}}},
		{2, 5, false, index.Keep, [][]int{{0}, {1}, {}, {}, {}}},
		{0, 2, true, index.Pad, [][]int{{}, {}}},
		{7, 1, true, index.Keep, [][]int{{0, 1, 2, 3, 4, 5, 6}}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("n=%d/parts=%d/strided=%v/%v", tc.n, tc.parts, tc.strided, tc.tail), func(t *testing.T) {
			got := make([][]int, tc.parts)
			for k := range tc.parts {
				p := index.Part{Index: k, Parts: tc.parts, Strided: tc.strided, Tail: tc.tail}
				got[k] = p.Positions(tc.n)
				if m := p.Len(tc.n); m != len(tc.want[k]) {
					t.Errorf("part %d Len = %d, want %d", k, m, len(tc.want[k]))
				}
				for i, w := range tc.want[k] {
					if pos := p.Pos(tc.n, i); pos != w {
						t.Errorf("part %d Pos(%d) = %d, want %d", k, i, pos, w)
					}
				}
			}
			if d := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("Positions mismatch (-want +got):\n%s", d)
			}
		})
	}
}

// naivePart is the reference for a part of n positions, built the way PyTorch's
// DistributedSampler and MXNet's part_index/num_parts describe it: list the
// positions 0..n-1, pad the list by repeating it from the start (Pad) or trim it
// (Drop) to a multiple of Parts, then take every Parts-th position from Index
// (Strided) or the Index-th of Parts consecutive blocks, the first n mod Parts
// blocks one longer under Keep.
func naivePart(n int, p index.Part) []int {
	list := iota(n)
	switch p.Tail {
	case index.Pad:
		for k := 0; len(list)%p.Parts != 0; k++ {
			list = append(list, list[k])
		}
	case index.Drop:
		list = list[:len(list)-len(list)%p.Parts]
	}
	var out []int
	if p.Strided {
		for q := p.Index; q < len(list); q += p.Parts {
			out = append(out, list[q])
		}
		return out
	}
	lo, size := 0, 0
	for b := 0; b <= p.Index; b++ {
		lo += size
		size = len(list) / p.Parts
		if p.Tail == index.Keep && b < len(list)%p.Parts {
			size++
		}
	}
	return list[lo : lo+size]
}

// TestPartProperty checks Len, Pos and Positions of every part of random sizes,
// contiguous and strided, under every tail, against the naive reference; and
// that Keep parts together hold every position once, Pad parts all have
// ceil(n/Parts) and cover everything, and Drop parts all have floor(n/Parts)
// with nothing repeated.
func TestPartProperty(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 31))
		n, parts := rng.IntN(100), 1+rng.IntN(9)
		for _, strided := range []bool{false, true} {
			for _, tail := range partTails {
				seen := make([]int, n)
				for k := range parts {
					p := index.Part{Index: k, Parts: parts, Strided: strided, Tail: tail}
					if err := p.Validate(); err != nil {
						t.Fatalf("%+v.Validate() = %v, want nil", p, err)
					}
					want := naivePart(n, p)
					if d := cmp.Diff(want, p.Positions(n), cmpopts.EquateEmpty()); d != "" {
						t.Fatalf("%+v.Positions(%d) mismatch (-reference +got):\n%s", p, n, d)
					}
					if m := p.Len(n); m != len(want) {
						t.Fatalf("%+v.Len(%d) = %d, want %d", p, n, m, len(want))
					}
					for i, w := range want {
						if got := p.Pos(n, i); got != w {
							t.Fatalf("%+v.Pos(%d, %d) = %d, want %d", p, n, i, got, w)
						}
						seen[w]++
					}
					switch tail {
					case index.Pad:
						if want := (n + parts - 1) / parts; p.Len(n) != want {
							t.Fatalf("Pad: %+v has %d of %d, want %d", p, p.Len(n), n, want)
						}
					case index.Drop:
						if want := n / parts; p.Len(n) != want {
							t.Fatalf("Drop: %+v has %d of %d, want %d", p, p.Len(n), n, want)
						}
					}
				}
				total := 0
				for i, c := range seen {
					total += c
					if (tail == index.Keep && c != 1) || (tail == index.Pad && c < 1) || (tail != index.Pad && c > 1) {
						t.Fatalf("n=%d parts=%d strided=%v %v: position %d is in %d parts", n, parts, strided, tail, i, c)
					}
				}
				if tail == index.Drop && total != n/parts*parts {
					t.Fatalf("Drop kept %d positions, want %d", total, n/parts*parts)
				}
			}
		}
	}
}

func TestPartValidate(t *testing.T) {
	bad := []struct {
		p    index.Part
		name string // a fragment the error must hold
	}{
		{index.Part{Index: 0, Parts: 0}, "0 parts"},
		{index.Part{Index: 0, Parts: -2}, "-2 parts"},
		{index.Part{Index: 3, Parts: 3}, "part 3 outside [0, 3)"},
		{index.Part{Index: -1, Parts: 2}, "part -1 outside [0, 2)"},
		{index.Part{Index: 0, Parts: 2, Tail: index.RollOver}, "tail roll-over"},
		{index.Part{Index: 0, Parts: 2, Tail: 7}, "tail Tail(7)"},
	}
	for _, tc := range bad {
		err := tc.p.Validate()
		if !errors.Is(err, index.ErrPart) || !strings.Contains(fmt.Sprint(err), tc.name) || !strings.HasPrefix(fmt.Sprint(err), "index.Part: ") {
			t.Errorf("%+v.Validate() = %v, want an index.Part error wrapping ErrPart naming %q", tc.p, err, tc.name)
		}
		p := tc.p
		wantArgPanic(t, fmt.Sprintf("%+v.Len(5)", p), "index.Part.Len", "part", func() { p.Len(5) })
		wantArgPanic(t, fmt.Sprintf("%+v.Pos(5, 0)", p), "index.Part.Len", "part", func() { p.Pos(5, 0) })
		wantArgPanic(t, fmt.Sprintf("%+v.Positions(5)", p), "index.Part.Len", "part", func() { p.Positions(5) })
	}
	for _, p := range []index.Part{{Index: 0, Parts: 1}, {Index: 4, Parts: 5, Strided: true, Tail: index.Pad}, {Index: 1, Parts: 2, Tail: index.Drop}} {
		if err := p.Validate(); err != nil {
			t.Errorf("%+v.Validate() = %v, want nil", p, err)
		}
	}
	p := index.Part{Index: 1, Parts: 3}
	wantIndexPanic(t, "Pos(10, 3)", "index.Part.Pos", 3, 3, func() { p.Pos(10, 3) })
	wantIndexPanic(t, "Pos(10, -1)", "index.Part.Pos", -1, 3, func() { p.Pos(10, -1) })
	wantArgPanic(t, "Len(-1)", "index.Part.Len", "number of positions", func() { p.Len(-1) })
}

// TestPartAllocs pins zero allocations for the partition rule, which a batch
// loop applies to every position of every epoch.
func TestPartAllocs(t *testing.T) {
	if a := testing.AllocsPerRun(100, func() {
		for j := range 7 {
			_, _ = index.Chunk(1001, 7, j)
		}
	}); a != 0 {
		t.Errorf("Chunk: %v allocs, want 0", a)
	}
	for _, strided := range []bool{false, true} {
		for _, tail := range partTails {
			p := index.Part{Index: 2, Parts: 4, Strided: strided, Tail: tail}
			if a := testing.AllocsPerRun(100, func() {
				for i := range p.Len(1001) {
					_ = p.Pos(1001, i)
				}
			}); a != 0 {
				t.Errorf("%+v: Len and Pos: %v allocs, want 0", p, a)
			}
		}
	}
}

func TestChunk(t *testing.T) {
	tests := []struct{ n, k, j, lo, hi int }{
		{10, 3, 0, 0, 4}, {10, 3, 1, 4, 7}, {10, 3, 2, 7, 10},
		{10, 5, 4, 8, 10},
		{2, 5, 0, 0, 1}, {2, 5, 1, 1, 2}, {2, 5, 4, 2, 2},
		{0, 1, 0, 0, 0}, {9, 1, 0, 0, 9},
	}
	for _, tc := range tests {
		if lo, hi := index.Chunk(tc.n, tc.k, tc.j); lo != tc.lo || hi != tc.hi {
			t.Errorf("Chunk(%d, %d, %d) = [%d, %d), want [%d, %d)", tc.n, tc.k, tc.j, lo, hi, tc.lo, tc.hi)
		}
	}
	wantArgPanic(t, "Chunk(-1, 2, 0)", "index.Chunk", "number of positions", func() { index.Chunk(-1, 2, 0) })
	wantArgPanic(t, "Chunk(5, 0, 0)", "index.Chunk", "number of blocks", func() { index.Chunk(5, 0, 0) })
	wantIndexPanic(t, "Chunk(5, 2, 2)", "index.Chunk", 2, 2, func() { index.Chunk(5, 2, 2) })
	wantIndexPanic(t, "Chunk(5, 2, -1)", "index.Chunk", -1, 2, func() { index.Chunk(5, 2, -1) })
}

// TestChunkProperty checks that the blocks of random n and k are consecutive,
// cover [0, n), differ in size by at most one, larger first, and are the
// contiguous Keep parts.
func TestChunkProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		n, k := rng.IntN(200), 1+rng.IntN(20)
		next := 0
		for j := range k {
			lo, hi := index.Chunk(n, k, j)
			if lo != next || hi < lo {
				t.Fatalf("Chunk(%d, %d, %d) = [%d, %d), want to start at %d", n, k, j, lo, hi, next)
			}
			if want := n/k + map[bool]int{true: 1}[j < n%k]; hi-lo != want {
				t.Fatalf("Chunk(%d, %d, %d) has %d positions, want %d", n, k, j, hi-lo, want)
			}
			p := index.Part{Index: j, Parts: k}
			if p.Len(n) != hi-lo || (hi > lo && p.Pos(n, 0) != lo) {
				t.Fatalf("Chunk(%d, %d, %d) = [%d, %d) is not the contiguous Keep part %v", n, k, j, lo, hi, p.Positions(n))
			}
			next = hi
		}
		if next != n {
			t.Fatalf("Chunk(%d, %d, ...) blocks end at %d, want %d", n, k, next, n)
		}
	}
}
