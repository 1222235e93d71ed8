package parquet

import (
	"encoding/binary"
	"fmt"

	pq "github.com/parquet-go/parquet-go"
)

// parquet-go's decoder of the RLE/bit-packed hybrid encoding (dictionary
// indices, repetition and definition levels) sizes its output from each run
// header before checking the run against the page: 32 bytes per value a
// header claims, up to 2^31 values. checkChunk reads the run headers of every
// page of a chunk first with runs, which refuses a run that claims more
// values than its page has left, so that a damaged page is ErrFormat instead
// of gigabytes.

// runs checks the run headers of RLE/bit-packed hybrid data b of values of
// width bits, of which the page holds n: no run may claim more values than
// are left, nor run past b. A bit-packed run may end in a partial group of 8,
// and the last may claim more groups (DuckDB pads it): its bytes bound it.
func runs(b []byte, width uint, n int) error {
	if width > 32 {
		return fmt.Errorf("bit width %d", width)
	}
	for i := 0; i < len(b); {
		h, k := binary.Uvarint(b[i:])
		if k <= 0 {
			return fmt.Errorf("run header at byte %d does not decode", i)
		}
		i += k
		count, size := h>>1, (uint64(width)+7)/8
		if h&1 == 1 {
			size = count * uint64(width)
			last := width > 0 && size == uint64(len(b)-i) // bounded by its bytes
			if count > uint64(n+7)/8 && !last {
				return fmt.Errorf("run at byte %d: %d bit-packed values, %d left in the page", i-k, count*8, n)
			}
			count *= 8
		} else if count > uint64(n) {
			return fmt.Errorf("run at byte %d: %d repeated values, %d left in the page", i-k, count, n)
		}
		if size > uint64(len(b)-i) {
			return fmt.Errorf("run at byte %d: %d bytes past the %d left", i-k, size, len(b)-i)
		}
		i += int(size)
		n = max(0, n-int(count))
	}
	return nil
}

// leafColumn returns leaf column leaf of pf's schema.
func leafColumn(pf *pq.File, leaf int) *pq.Column {
	var found *pq.Column
	var walk func(c *pq.Column)
	walk = func(c *pq.Column) {
		if c.Leaf() {
			if c.Index() == leaf {
				found = c
			}
			return
		}
		for _, ch := range c.Columns() {
			walk(ch)
		}
	}
	walk(pf.Root())
	return found
}
