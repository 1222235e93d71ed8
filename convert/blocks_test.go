package convert_test

import (
	"slices"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/convert"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/tuples"
)

// blockedArray and blockedLabels are containers with blocks
// (container.Blocked).
type blockedArray struct {
	*arraycontainer.Array[uint8]
	starts []int
}

func (b blockedArray) BlockStarts() []int { return b.starts }

type blockedLabels struct {
	container.Slice[int64]
	starts []int
}

func (b blockedLabels) BlockStarts() []int { return b.starts }

// TestConversionsKeepBlocks: a conversion keeps observation i where it is, so
// Scale, Standardize (also composed), OneHot and Cast have their source's
// blocks, and none over a source with none; a loop over a tuple of them
// shuffles the source's blocks.
func TestConversionsKeepBlocks(t *testing.T) {
	const n = 12
	starts := []int{0, 5, 5, 12}
	raw := make([]uint8, n*3)
	for i := range raw {
		raw[i] = uint8(i)
	}
	a, err := arraycontainer.New(raw, []int{n, 3}, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	x := blockedArray{a, starts}
	labels := make([]int64, n)
	for i := range labels {
		labels[i] = int64(i % 3)
	}
	y := blockedLabels{container.FromSlice(labels), starts}
	scaled := convert.Scale(x, float32(1.0/255), 0)
	st := must(convert.MeanStd(scaled))
	tests := []struct {
		what      string
		got, none interface{ BlockStarts() []int }
	}{
		{"Scale", scaled, convert.Scale(a, float32(1.0/255), 0)},
		{"Scale of Scale", convert.Scale(scaled, float32(2), 1), convert.Scale(convert.Scale(a, float32(1.0/255), 0), float32(2), 1)},
		{"Standardize", must(convert.Standardize(scaled, st)), must(convert.Standardize(convert.Scale(a, float32(1.0/255), 0), st))},
		{"OneHot", must(convert.OneHot(y, 3, float32(1))), must(convert.OneHot(y.Slice, 3, float32(1)))},
		{"Cast", must(convert.Cast[int32](y)), must(convert.Cast[int32](y.Slice))},
	}
	for _, tc := range tests {
		if got := tc.got.BlockStarts(); !slices.Equal(got, starts) {
			t.Errorf("%s: BlockStarts() = %v, want the source's %v", tc.what, got, starts)
		}
		if got := tc.none.BlockStarts(); got != nil {
			t.Errorf("%s of a source with no blocks: BlockStarts() = %v, want nil", tc.what, got)
		}
	}
	data := must(tuples.Zip2(scaled, must(convert.Cast[int32](y))))
	seen := 0
	for b := range eachobs.Batches(data, 4, eachobs.ShuffleBlocks(1, 1)) {
		seen += b.Real
	}
	if seen != n {
		t.Errorf("an epoch over the blocks of a converted tuple visits %d observations, want %d", seen, n)
	}
}
