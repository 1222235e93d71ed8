package index_test

import (
	"testing"

	"github.com/obskit/obskit/index"
)

// FuzzPlan checks the plan's invariants for any n, size, policy and epoch: every
// epoch of Keep and Pad visits each position once as a real observation, Drop
// visits all but the n mod size of the tail, and RollOver's epochs cut one
// unbroken stream.
func FuzzPlan(f *testing.F) {
	f.Add(10, 3, uint8(0), 0)
	f.Add(10, 3, uint8(3), 2)
	f.Add(2, 5, uint8(3), 3)
	f.Add(7, 7, uint8(2), 1)
	f.Add(0, 1, uint8(1), 0)
	f.Fuzz(func(t *testing.T, n, size int, pk uint8, epoch int) {
		if n < 0 || n > 500 || size < 1 || size > 600 || epoch < 0 || epoch > 50 {
			t.Skip()
		}
		p := []index.Tail{index.Keep, index.Drop, index.Pad, index.RollOver}[pk%4]
		plan := index.NewPlan(n, size, p)
		seen := make([]int, n)
		next := -1 // RollOver: the stream position the next batch must start at
		if p == index.RollOver {
			next = epoch * n / size * size
		}
		var buf []int
		for k := range plan.Len(epoch) {
			start, real, pad := plan.Span(epoch, k)
			if real < 1 || real > size || (p == index.Pad && real+pad != size) || (p != index.Pad && pad != 0) {
				t.Fatalf("n=%d size=%d %v: Span(%d, %d) = %d, %d, %d", n, size, p, epoch, k, start, real, pad)
			}
			if next >= 0 && start != next {
				t.Fatalf("n=%d size=%d roll-over: batch %d of epoch %d starts at %d, want %d", n, size, k, epoch, start, next)
			}
			next = start + size
			idx, r := plan.Indices(buf, epoch, k, func(e, pos int) int {
				if pos < 0 || pos >= n || e < 0 || e > epoch {
					t.Fatalf("order asked for epoch %d position %d (n=%d, epoch %d)", e, pos, n, epoch)
				}
				if e < epoch {
					return -1
				}
				return pos
			})
			buf = idx
			if r != real || len(idx) != real+pad {
				t.Fatalf("Indices gave %d indices, %d real; want %d, %d", len(idx), r, real+pad, real)
			}
			for j, i := range idx {
				// Slot j holds stream position start+j (-1 when it lies in an
				// earlier epoch); padding slots wrap to positions 0, 1, ... of
				// this epoch.
				want := (start + j) - epoch*n
				if start+j < epoch*n {
					want = -1
				}
				if j >= real {
					want = (j - real) % n
				}
				if i != want {
					t.Fatalf("n=%d size=%d %v: Indices(%d, %d) slot %d = %d, want %d", n, size, p, epoch, k, j, i, want)
				}
				if j < real && i >= 0 {
					seen[i]++
				}
			}
		}
		switch {
		case p == index.RollOver:
			// Epoch e's batches end inside epoch e and the next one starts where
			// this epoch ends.
			if want := (epoch + 1) * n / size * size; next >= 0 && plan.Len(epoch) > 0 && next != want {
				t.Fatalf("roll-over epoch %d ends at %d, want %d", epoch, next, want)
			}
		default:
			covered := n
			if p == index.Drop {
				covered = n / size * size
			}
			for i, c := range seen {
				if want := map[bool]int{true: 1, false: 0}[i < covered]; c != want {
					t.Fatalf("n=%d size=%d %v: position %d visited %d times, want %d", n, size, p, i, c, want)
				}
			}
		}
	})
}
