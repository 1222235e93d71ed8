package augment

// The inner loops of the resampler. The passes call hrow and vrow, which use
// the AVX2 kernels of kernels_amd64.s where the processor has them and the Go
// loops of this file otherwise; both compute the same bytes (Pillow's
// fixed-point sums), and the tests compare them.

// hsimd is the horizontal axis's plan for the AVX2 kernel: the output row's
// values (3 a pixel) in blocks of 4, two blocks a pair, each pair reading
// taps windows of 16 bytes, 3 bytes further per tap, from which a byte
// shuffle picks each value's sample.
type hsimd struct {
	meta  []int32 // per pair: base of block A, base of block B, taps (even), output offset of A, of B, 3 unused
	masks []uint8 // per pair: the shuffle of A's window (16 bytes), then B's
	w     []int32 // per pair: taps times 8 weights, A's 4 then B's 4
	need  []int32 // per pair: how many bytes past the row start it and the pairs before it read
	rest  []int32 // the values no pair computes
}

const metaLen = 8

// plan builds s for axis a (a horizontal axis of nout outputs), or leaves it
// empty when the kernel is not used.
func (s *hsimd) plan(a *axis, nout int) {
	s.meta, s.masks, s.w, s.need, s.rest = s.meta[:0], s.masks[:0], s.w[:0], s.need[:0], s.rest[:0]
	if !useAVX2 {
		return
	}
	nvals := 3 * nout
	// Room for the most this axis can need (every block in a pair, the
	// taps padded to even), so that appending allocates only when a larger
	// output or a wider kernel than ever before comes.
	pairs := nvals/8 + 1
	s.meta = reserve(s.meta, pairs*metaLen)
	s.masks = reserve(s.masks, pairs*32)
	s.w = reserve(s.w, pairs*(max(a.ksize, a.maxTaps)+2)*8)
	s.need = reserve(s.need, pairs)
	s.rest = reserve(s.rest, nvals)
	// Blocks the kernel can compute: every value's sample within 16 bytes of
	// the block's base.
	var pending = -1 // a block waiting for a partner
	need := int32(0)
	for b := 0; 4*b+4 <= nvals; b++ {
		j0 := 4 * b
		base := 3 * int(a.start[j0/3])
		ok := true
		for j := j0; j < j0+4; j++ {
			if o := 3*int(a.start[j/3]) + j%3 - base; o < 0 || o > 15 {
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
func (s *hsimd) addPair(a *axis, ba, bb int, need int32) int32 {
	taps := 0
	for _, b := range [2]int{ba, bb} {
		for j := 4 * b; j < 4*b+4; j++ {
			taps = max(taps, int(a.n[j/3]))
		}
	}
	// The kernel takes taps two at a time: pad with a zero weight (which
	// reads 3 bytes further, counted in need).
	taps = max(2, taps+taps%2)
	baseA, baseB := 3*int(a.start[4*ba/3]), 3*int(a.start[4*bb/3])
	s.meta = append(s.meta, int32(baseA), int32(baseB), int32(taps), int32(4*ba), int32(4*bb), 0, 0, 0)
	for _, blk := range [2]struct{ b, base int }{{ba, baseA}, {bb, baseB}} {
		for j := 4 * blk.b; j < 4*blk.b+4; j++ {
			o := 3*int(a.start[j/3]) + j%3 - blk.base
			s.masks = append(s.masks, uint8(o), 0x80, 0x80, 0x80)
		}
	}
	for t := range taps {
		for _, b := range [2]int{ba, bb} {
			for j := 4 * b; j < 4*b+4; j++ {
				x := j / 3
				w := int32(0)
				if t < int(a.n[x]) {
					w = a.k[x*a.ksize+t]
				}
				s.w = append(s.w, w)
			}
		}
	}
	need = max(need, int32(max(baseA, baseB)+3*(taps-1)+16))
	s.need = append(s.need, need)
	return need
}

// hrow resamples one row of RGB pixels along h into dst: src is the row,
// followed by avail-len(src) more bytes of the image that the kernel may read
// past its end (and multiply by zero).
func hrow(dst, src []uint8, avail int, h *axis) {
	s := &h.simd
	if len(s.meta) == 0 {
		hpass(dst, src, h)
		return
	}
	// The pairs that stay within the bytes available.
	n := len(s.need)
	for n > 0 && int(s.need[n-1]) > avail {
		n--
	}
	if n > 0 {
		hrowAVX2(&dst[0], &src[:1][0], &s.meta[0], &s.masks[0], &s.w[0], n)
	}
	for p := n; p < len(s.need); p++ {
		m := s.meta[p*metaLen:]
		for _, j0 := range [2]int32{m[3], m[4]} {
			for j := j0; j < j0+4; j++ {
				dst[j] = hval(src, h, int(j))
			}
		}
	}
	for _, j := range s.rest {
		dst[j] = hval(src, h, int(j))
	}
}

// hval computes value j (pixel j/3, channel j%3) of a horizontal pass.
func hval(src []uint8, h *axis, j int) uint8 {
	x, c := j/3, j%3
	n := int(h.n[x])
	k := h.k[x*h.ksize:][:n]
	p := src[3*int(h.start[x])+c:]
	ss := int32(1 << (precisionBits - 1))
	for t, w := range k {
		ss += int32(p[3*t]) * w
	}
	return clip8(ss)
}

// vrow computes one output row of a vertical pass: the rows ys, ys+1, ...
// of rows (stride apart) weighed by k, into line; acc is the Go loop's
// scratch.
func vrow(line []uint8, acc []int32, rows []uint8, stride, ys int, k []int32) {
	n := 0
	if useAVX2 {
		n = len(line) &^ 15
		if n > 0 {
			// The rows it reads: ys .. ys+len(k)-1, n bytes each.
			_ = rows[(ys+len(k)-1)*stride+n-1]
			vrowAVX2(&line[0], n, &rows[ys*stride], stride, &k[0], len(k))
		}
	}
	if n < len(line) {
		vpass(line[n:], acc, rows[n:], stride, ys, k)
	}
}

// chwMasks are lutCHWAVX2's byte shuffles, one per channel: pixel i of a
// block of 8 is at byte 3i+c of the low lane's window (px) for i < 4, and at
// byte 3i+c-8 of the high lane's (px+8) for the others; each lands in the
// low byte of a 32-bit lane, the others zero (0x80).
var chwMasks = func() (m [3][32]uint8) {
	for c := range 3 {
		for i := range 8 {
			at := 3*i + c
			if i >= 4 {
				at -= 8
			}
			m[c][4*i] = uint8(at)
			m[c][4*i+1], m[c][4*i+2], m[c][4*i+3] = 0x80, 0x80, 0x80
		}
	}
	return m
}()

// lutCHW writes the pixels px into the planes r, g and b (len(px)/3 floats
// each, reversed with flip) through lut.
func lutCHW(r, g, b []float32, px []uint8, lut *[3][256]float32, flip bool) {
	n := len(px) / 3
	k := 0
	if useAVX2 {
		k = n &^ 7
		if k > 0 {
			if flip {
				lutCHWAVX2(&r[n-8], &g[n-8], &b[n-8], &px[0], k, lut, &chwMasks, true)
			} else {
				lutCHWAVX2(&r[0], &g[0], &b[0], &px[0], k, lut, &chwMasks, false)
			}
		}
	}
	l0, l1, l2 := &lut[0], &lut[1], &lut[2]
	for x := k; x < n; x++ {
		p := px[3*x : 3*x+3 : 3*x+3]
		o := x
		if flip {
			o = n - 1 - x
		}
		r[o], g[o], b[o] = l0[p[0]], l1[p[1]], l2[p[2]]
	}
}

// reserve returns s, empty, with room for n elements.
func reserve[E any](s []E, n int) []E {
	if cap(s) < n {
		return make([]E, 0, n)
	}
	return s[:0]
}
