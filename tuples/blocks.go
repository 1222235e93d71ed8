package tuples

import (
	"slices"

	"github.com/obskit/obskit/container"
)

// The tuples have the blocks their members share (container.Blocked): each
// block of a member cut where another member's blocks start, so that a block
// of the tuple lies in one block of every member that has blocks. Two columns
// of one Parquet file have the file's row groups; a column and labels in
// memory have the column's.

// BlockStarts returns the starts of the blocks the members share: the union of
// the block starts of the members that have blocks, or nil when none has.
func (t *Tuple2[CX, CY, X, BX, Y, BY]) BlockStarts() []int {
	return shared(container.BlockStarts(t.x), container.BlockStarts(t.y))
}

// BlockStarts returns the starts of the blocks the members share: the union of
// the block starts of the members that have blocks, or nil when none has.
func (t *Tuple3[CX, CY, CZ, X, BX, Y, BY, Z, BZ]) BlockStarts() []int {
	return shared(shared(container.BlockStarts(t.x), container.BlockStarts(t.y)), container.BlockStarts(t.z))
}

// BlockStarts returns the starts of the blocks the members share: the union of
// the block starts of the members that have blocks, or nil when none has.
func (g *Named[C, T, B]) BlockStarts() []int {
	var starts []int
	for _, m := range g.members {
		starts = shared(starts, container.BlockStarts(m))
	}
	return starts
}

// shared returns the union of the block starts a and b of one number of
// observations, a or b itself when the other is nil or equal.
func shared(a, b []int) []int {
	switch {
	case b == nil || slices.Equal(a, b):
		return a
	case a == nil:
		return b
	}
	out := make([]int, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		var s int
		switch {
		case len(b) == 0 || len(a) > 0 && a[0] <= b[0]:
			s, a = a[0], a[1:]
		default:
			s, b = b[0], b[1:]
		}
		if len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
	}
	return out
}
