package transform_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/transform"
)

// blocked is a slice with blocks (container.Blocked).
type blocked struct {
	container.Slice[int]
	starts []int
}

func (b blocked) BlockStarts() []int { return b.starts }

// TestMapsKeepBlocks: the maps keep every observation where it is, so they have
// their source's blocks, and none over a source with none.
func TestMapsKeepBlocks(t *testing.T) {
	src := blocked{container.FromSlice(make([]int, 9)), []int{0, 2, 2, 9}}
	plain := src.Slice
	double := func(x int) int { return 2 * x }
	doubles := func(dst, src []int) []int {
		dst = container.Resize(dst, len(src))
		for j, x := range src {
			dst[j] = 2 * x
		}
		return dst
	}
	noise := func(x int, rng *rand.Rand) int { return x + rng.IntN(3) }
	tests := []struct {
		what      string
		got, none interface{ BlockStarts() []int }
	}{
		{"Map", transform.Map(src, double), transform.Map(plain, double)},
		{"MapBatches", transform.MapBatches(src, double, doubles), transform.MapBatches(plain, double, doubles)},
		{"MapRand", transform.MapRand(src, noise), transform.MapRand(plain, noise)},
		{"Map of MapRand", transform.Map(transform.MapRand(src, noise), double), transform.Map(transform.MapRand(plain, noise), double)},
	}
	for _, tc := range tests {
		if got := tc.got.BlockStarts(); !slices.Equal(got, src.starts) {
			t.Errorf("%s: BlockStarts() = %v, want the source's %v", tc.what, got, src.starts)
		}
		if got := tc.none.BlockStarts(); got != nil {
			t.Errorf("%s of a source with no blocks: BlockStarts() = %v, want nil", tc.what, got)
		}
	}
}

// TestJoinBlocks: a join has its parts' blocks one after another, a part with
// none (or with none of its own: a map of a plain slice) being one block, and
// a join of joins the blocks of its flattened parts.
func TestJoinBlocks(t *testing.T) {
	plain := func(n int) container.Slice[int] { return container.FromSlice(make([]int, n)) }
	a := blocked{plain(9), []int{0, 2, 2, 9}}
	b := blocked{plain(4), []int{0, 4}}
	tests := []struct {
		what string
		j    *transform.Joined[int]
		want []int
	}{
		{"blocks and plain parts", transform.Join[int](a, plain(3), b), []int{0, 2, 2, 9, 12, 16}},
		{"plain parts: a block each", transform.Join[int](plain(3), plain(0), transform.Map(plain(5), func(x int) int { return x })), []int{0, 3, 3, 8}},
		{"a join of joins", transform.Join[int](transform.Join[int](b, a), plain(1)), []int{0, 4, 6, 6, 13, 14}},
		{"no parts", transform.Join[int](), []int{0}},
	}
	for _, tc := range tests {
		if got := tc.j.BlockStarts(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: BlockStarts() = %v, want %v", tc.what, got, tc.want)
		}
	}
}
