package index

import (
	"github.com/obskit/obskit/internal/mix"
)

// naiveBlocks returns the two-level order of the blocks of starts, epoch epoch
// of seed seed, in windows of window blocks, as an array, written from the
// definition with no arithmetic of its own: the epoch's order of blocks is the
// cipher of the blocks; the positions of each window are its blocks' positions
// laid out in that order, and the window's cipher permutes them.
func naiveBlocks(starts []int, window int, seed uint64, epoch int) []int {
	nb := len(starts) - 1
	order := NewCipher(nb, mix.Key(domainBlocks, seed, uint64(epoch)), epoch)
	var out []int
	for w := 0; w*window < nb; w++ {
		var laid []int
		for q := w * window; q < min(nb, (w+1)*window); q++ {
			k := order.At(q)
			for x := starts[k]; x < starts[k+1]; x++ {
				laid = append(laid, x)
			}
		}
		c := NewCipher(len(laid), mix.Key(domainWindows, seed, uint64(w)), epoch)
		for j := range laid {
			out = append(out, laid[c.At(j)])
		}
	}
	return out
}

// NaiveBlocks is naiveBlocks for the external tests.
var NaiveBlocks = naiveBlocks
