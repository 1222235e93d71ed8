package subset

import (
	"sort"

	"github.com/obskit/obskit/container"
)

// BlockStarts returns the blocks of the view (container.Blocked) when its
// source has blocks and the view's source indices do not decrease (a range, a
// split or fold without shuffling, a hash split, an index list in order): the
// view's block k holds its observations of the source's block k, a run of
// consecutive view indices, empty when the view selects none of the block.
// Each of the view's blocks then lies in one block of the source, so that a
// loop over a training split in blocks (eachobs.ShuffleBlocks) decodes each
// block of the file once per epoch. A view in another order (a shuffle, an
// index list out of order) has no blocks: a block of its source is no run of
// its own. BlockStarts returns nil then, and when the source has no blocks. It
// reads the view's index list (O(n) but for a range) and allocates the starts.
func (v *View[T, B]) BlockStarts() []int {
	src := container.BlockStarts(v.src)
	if src == nil {
		return nil
	}
	if !v.ranged { // a range is in order, gap or not
		prev := -1
		for i := range v.n {
			x := v.at(i)
			if x < prev {
				return nil
			}
			prev = x
		}
	}
	starts := make([]int, len(src))
	for k, s := range src {
		starts[k] = sort.Search(v.n, func(i int) bool { return v.at(i) >= s })
	}
	return starts
}
