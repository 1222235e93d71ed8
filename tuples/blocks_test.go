package tuples_test

import (
	"slices"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/tuples"
)

// blocked is a slice with blocks (container.Blocked).
type blocked struct {
	container.Slice[int]
	starts []int
}

func (b blocked) BlockStarts() []int { return b.starts }

// TestBlockStarts: a tuple has the blocks its members share: none when no
// member has blocks, a member's own when one has, and the union of the
// starts (a block cut wherever a member's block starts) when several have.
func TestBlockStarts(t *testing.T) {
	plain := container.FromSlice(make([]int, 10))
	a := blocked{plain, []int{0, 4, 4, 7, 10}} // an empty block
	b := blocked{plain, []int{0, 5, 10}}
	union := []int{0, 4, 5, 7, 10}
	tests := []struct {
		what string
		got  interface{ BlockStarts() []int }
		want []int
	}{
		{"Zip2 of plain members", must(tuples.Zip2(plain, plain)), nil},
		{"Zip2, X with blocks", must(tuples.Zip2(a, plain)), a.starts},
		{"Zip2, Y with blocks", must(tuples.Zip2(plain, b)), b.starts},
		{"Zip2, the same blocks", must(tuples.Zip2(a, a)), a.starts},
		{"Zip2, other blocks", must(tuples.Zip2(a, b)), union},
		{"Zip3", must(tuples.Zip3(plain, b, a)), union},
		{"Zip3 of plain members", must(tuples.Zip3(plain, plain, plain)), nil},
		{"Named", must(tuples.NewNamed([]string{"p", "a", "b"}, blocked{plain, nil}, a, b)), union},
		{"Named of plain members", must(tuples.NewNamed([]string{"p", "q"}, plain, plain)), nil},
	}
	for _, tc := range tests {
		got := tc.got.BlockStarts()
		if !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("%s: BlockStarts() = %v, want %v", tc.what, got, tc.want)
		}
	}
	if !slices.Equal(a.starts, []int{0, 4, 4, 7, 10}) || !slices.Equal(b.starts, []int{0, 5, 10}) {
		t.Errorf("the members' starts changed: %v, %v", a.starts, b.starts)
	}
}

func must[V any](v V, err error) V {
	if err != nil {
		panic(err)
	}
	return v
}
