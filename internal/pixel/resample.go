package pixel

// PrecisionBits is the fixed-point precision of a [Taps]'s weights, Pillow's
// PRECISION_BITS: 32 bits less 8 for the pixel and 2 for the overshoot of
// kernels with negative lobes. A weight of 1 is 1<<PrecisionBits.
const PrecisionBits = 32 - 8 - 2

// Taps are the weights of one axis of a separable resampling: output i reads
// N[i] samples from sample Start[i] on, with the fixed-point weights
// K[i*KSize:][:N[i]] (the rest of its KSize weights are not read).
type Taps struct {
	KSize    int
	Start, N []int32
	K        []int32
}

// Clip8 returns the 8-bit value of a fixed-point sum (rounding included),
// clamped to [0, 255].
func Clip8(s int32) uint8 {
	v := s >> PrecisionBits
	if uint32(v) > 255 {
		if v < 0 {
			return 0
		}
		return 255
	}
	return uint8(v)
}

// HRow resamples one row of RGB pixels along h into dst, 3*len(h.Start)
// values, with the plan s made for h (by [HPlan.Plan]; an empty plan runs the
// Go loop). src is the row, followed by avail-len(src) more bytes of the
// image that the kernel may read past its end (and multiply by zero): avail
// is len(src) for the last row of an image.
func HRow(dst, src []uint8, avail int, h *Taps, s *HPlan) {
	if len(s.meta) == 0 || !useAVX2 {
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
func hval(src []uint8, h *Taps, j int) uint8 {
	x, c := j/3, j%3
	n := int(h.N[x])
	k := h.K[x*h.KSize:][:n]
	p := src[3*int(h.Start[x])+c:]
	ss := int32(1 << (PrecisionBits - 1))
	for t, w := range k {
		ss += int32(p[3*t]) * w
	}
	return Clip8(ss)
}

// hpass is HRow's Go loop.
func hpass(dst, src []uint8, h *Taps) {
	ks := h.KSize
	for i, s := range h.Start {
		n := int(h.N[i])
		k := h.K[i*ks:][:n]
		p := src[3*int(s):][:3*n]
		r, g, b := int32(1<<(PrecisionBits-1)), int32(1<<(PrecisionBits-1)), int32(1<<(PrecisionBits-1))
		for t, w := range k {
			q := p[3*t:][:3]
			r += int32(q[0]) * w
			g += int32(q[1]) * w
			b += int32(q[2]) * w
		}
		d := dst[3*i:][:3]
		d[0], d[1], d[2] = Clip8(r), Clip8(g), Clip8(b)
	}
}

// VRow computes one output row of a vertical pass: the rows ys, ys+1, ...,
// ys+len(k)-1 of rows (stride bytes apart) weighed by k, len(line) values
// each, into line. acc is scratch of at least len(line) sums for the Go
// loop.
func VRow(line []uint8, acc []int32, rows []uint8, stride, ys int, k []int32) {
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

// vpass is VRow's Go loop.
func vpass(line []uint8, acc []int32, rows []uint8, stride, ys int, k []int32) {
	acc = acc[:len(line)]
	for i := range acc {
		acc[i] = 1 << (PrecisionBits - 1)
	}
	for t, w := range k {
		row := rows[(ys+t)*stride:][:len(acc)]
		for i, p := range row {
			acc[i] += int32(p) * w
		}
	}
	line = line[:len(acc)]
	for i, s := range acc {
		line[i] = Clip8(s)
	}
}
