package columnar

import "github.com/obskit/obskit/container"

var (
	_ container.Blocked = (*Numbers[float32])(nil)
	_ container.Blocked = (*Lists[int32])(nil)
	_ container.Blocked = (*Strings)(nil)
)

// BlockStarts returns the first row of each chunk of the column (an Arrow
// record batch, a Parquet row group) and, last, the number of rows: its blocks
// (container.Blocked), which eachobs.ShuffleBlocks shuffles in two levels so
// that a format's cache of a window of decoded chunks decodes each once per
// epoch. The slice is the column's own: the caller must not modify it.
func (c *Numbers[E]) BlockStarts() []int { return c.chunks.Starts }

// BlockStarts returns the first row of each chunk of the column and, last, the
// number of rows, as [Numbers.BlockStarts] does.
func (c *Lists[E]) BlockStarts() []int { return c.chunks.Starts }

// BlockStarts returns the first row of each chunk of the column and, last, the
// number of rows, as [Numbers.BlockStarts] does.
func (c *Strings) BlockStarts() []int { return c.chunks.Starts }
