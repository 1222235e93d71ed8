// Package zstdframe checks the frames of ZSTD data before a decoder sees
// them: klauspost/compress's DecodeAll, which the Arrow IPC and Parquet
// readers use, allocates the content size a frame header declares (up to the
// decoder's limit) before it decodes a block, so that a damaged header costs
// that memory. The readers know how long the data must be and refuse frames
// that declare more.
package zstdframe

import (
	"fmt"

	"github.com/klauspost/compress/zstd"
)

// Check returns an error when the frames of src declare more than n bytes of
// content in all, or do not parse as far as their block headers go. It reads
// each frame's header and skips its blocks without decoding them.
func Check(src []byte, n uint64) error {
	var total uint64
	for p := 0; p < len(src); {
		var h zstd.Header
		if err := h.Decode(src[p:]); err != nil {
			return fmt.Errorf("frame at byte %d: %v", p, err)
		}
		if h.Skippable {
			p += h.HeaderSize + int(h.SkippableSize)
			continue
		}
		if h.HasFCS {
			if total += h.FrameContentSize; total > n {
				return fmt.Errorf("frames declare %d bytes or more, the length prefix says %d", total, n)
			}
		}
		p += h.HeaderSize
		for last := false; !last; {
			if p+3 > len(src) {
				return fmt.Errorf("frame truncated at byte %d", p)
			}
			bh := uint32(src[p]) | uint32(src[p+1])<<8 | uint32(src[p+2])<<16
			p += 3
			last = bh&1 == 1
			switch size := int(bh >> 3); bh >> 1 & 3 {
			case 1: // RLE: one byte
				p++
			case 3:
				return fmt.Errorf("reserved block type at byte %d", p-3)
			default: // raw or compressed: size bytes
				p += size
			}
		}
		if h.HasCheckSum {
			p += 4
		}
	}
	return nil
}
