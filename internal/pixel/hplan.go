package pixel

// An HPlan is a horizontal axis's plan for the AVX2 kernel of [HRow]: the
// output row's values (3 a pixel) in blocks of 4, two blocks a pair, each
// pair reading taps windows of 16 bytes, 3 bytes further per tap, from which
// a byte shuffle picks each value's sample. The zero HPlan is empty: HRow
// runs the Go loop. An HPlan keeps its buffers from one plan to the next.
type HPlan struct {
	meta  []int32 // per pair: base of block A, base of block B, taps (even), output offset of A, of B, 3 unused
	masks []uint8 // per pair: the shuffle of A's window (16 bytes), then B's
	w     []int32 // per pair: taps times 8 weights, A's 4 then B's 4
	need  []int32 // per pair: how many bytes past the row start it and the pairs before it read
	rest  []int32 // the values no pair computes
}

const metaLen = 8

// Plan plans s for the horizontal axis a, of nout outputs, or leaves it
// empty when the kernel is not used (nout 0 empties it: HRow then runs the
// Go loop). maxTaps is the most taps the axis will have (at least a.KSize):
// the buffers are given room for it, so that a later plan of as many
// outputs allocates nothing.
func (s *HPlan) Plan(a *Taps, maxTaps, nout int) {
	s.meta, s.masks, s.w, s.need, s.rest = s.meta[:0], s.masks[:0], s.w[:0], s.need[:0], s.rest[:0]
	if !useAVX2 || nout == 0 {
		return
	}
	nvals := 3 * nout
	// Room for the most this axis can need (every block in a pair, the
	// taps padded to even), so that appending allocates only when a larger
	// output or a wider kernel than ever before comes.
	pairs := nvals/8 + 1
	s.meta = reserve(s.meta, pairs*metaLen)
	s.masks = reserve(s.masks, pairs*32)
	s.w = reserve(s.w, pairs*(max(a.KSize, maxTaps)+2)*8)
	s.need = reserve(s.need, pairs)
	s.rest = reserve(s.rest, nvals)
	// Blocks the kernel can compute: every value's sample within 16 bytes of
	// the block's base.
	var pending = -1 // a block waiting for a partner
	need := int32(0)
	for b := 0; 4*b+4 <= nvals; b++ {
		j0 := 4 * b
		base := 3 * int(a.Start[j0/3])
		ok := true
		for j := j0; j < j0+4; j++ {
			if o := 3*int(a.Start[j/3]) + j%3 - base; o < 0 || o > 15 {
				ok = false
			}
		}
		if !ok {
			s.rest = append(s.rest, int32(j0), int32(j0+1), int32(j0+2), int32(j0+3))
			continue
		}
		if pending < 0 {
			pending = b
			continue
		}
		need = s.addPair(a, pending, b, need)
		pending = -1
	}
	if pending >= 0 {
		s.addPair(a, pending, pending, need) // both lanes compute the block
	}
	for j := 4 * (nvals / 4); j < nvals; j++ {
		s.rest = append(s.rest, int32(j))
	}
}

// addPair adds the pair of blocks ba and bb of a to s.
func (s *HPlan) addPair(a *Taps, ba, bb int, need int32) int32 {
	taps := 0
	for _, b := range [2]int{ba, bb} {
		for j := 4 * b; j < 4*b+4; j++ {
			taps = max(taps, int(a.N[j/3]))
		}
	}
	// The kernel takes taps two at a time: pad with a zero weight (which
	// reads 3 bytes further, counted in need).
	taps = max(2, taps+taps%2)
	baseA, baseB := 3*int(a.Start[4*ba/3]), 3*int(a.Start[4*bb/3])
	s.meta = append(s.meta, int32(baseA), int32(baseB), int32(taps), int32(4*ba), int32(4*bb), 0, 0, 0)
	for _, blk := range [2]struct{ b, base int }{{ba, baseA}, {bb, baseB}} {
		for j := 4 * blk.b; j < 4*blk.b+4; j++ {
			o := 3*int(a.Start[j/3]) + j%3 - blk.base
			s.masks = append(s.masks, uint8(o), 0x80, 0x80, 0x80)
		}
	}
	for t := range taps {
		for _, b := range [2]int{ba, bb} {
			for j := 4 * b; j < 4*b+4; j++ {
				x := j / 3
				w := int32(0)
				if t < int(a.N[x]) {
					w = a.K[x*a.KSize+t]
				}
				s.w = append(s.w, w)
			}
		}
	}
	need = max(need, int32(max(baseA, baseB)+3*(taps-1)+16))
	s.need = append(s.need, need)
	return need
}

// reserve returns s, empty, with room for n elements.
func reserve[E any](s []E, n int) []E {
	if cap(s) < n {
		return make([]E, 0, n)
	}
	return s[:0]
}
