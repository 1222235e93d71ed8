package container_test

import (
	"slices"
	"testing"

	"github.com/obskit/obskit/container"
)

// rowGroups is a user container with blocks: square's observations in blocks
// of 3, 0 and 2.
type rowGroups struct{ square }

func (rowGroups) BlockStarts() []int { return []int{0, 3, 3, 5} }

// TestBlockStarts: BlockStarts reads a container's blocks when it has them,
// and AsBatched keeps them; containers and adapters without blocks give nil.
func TestBlockStarts(t *testing.T) {
	want := []int{0, 3, 3, 5}
	blocked := rowGroups{square{5}}
	if got := container.BlockStarts(blocked); !slices.Equal(got, want) {
		t.Errorf("BlockStarts(a container with blocks) = %v, want %v", got, want)
	}
	b, ok := container.AsBatched(blocked).(container.Blocked)
	if !ok {
		t.Fatal("AsBatched of a container with blocks is not Blocked")
	}
	if got := b.BlockStarts(); !slices.Equal(got, want) {
		t.Errorf("AsBatched(...).BlockStarts() = %v, want %v", got, want)
	}
	for what, c := range map[string]container.Container[int]{
		"a container without blocks": square{5},
		"AsBatched of one":           container.AsBatched(square{5}),
		"a Slice":                    container.FromSlice([]int{1, 2}),
	} {
		if got := container.BlockStarts(c); got != nil {
			t.Errorf("BlockStarts(%s) = %v, want nil", what, got)
		}
	}
}
