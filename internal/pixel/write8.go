package pixel

// The 8-bit writes: a row of RGB pixels into three planes (channels first),
// or into a row of pixels in reverse order (channels last, mirrored). The
// AVX2 kernel of both takes 32 pixels a step, 16 in each lane of three
// registers, and forms each of the three 16-byte outputs of a lane as the
// bitwise or of three byte shuffles, one of each 16-byte input: the shuffles
// (shuffleMasks) say which input byte lands where, or zero.

// shuffleMasks returns the kernel's 9 shuffles for an output of which byte t
// of chunk j (both lanes alike) is byte src(j, t) of the lane's 48 input
// bytes: mask 3j+i picks the bytes of input chunk i.
func shuffleMasks(src func(j, t int) int) (m [9][32]uint8) {
	for j := range 3 {
		for i := range 3 {
			for t := range 16 {
				v := uint8(0x80)
				if s := src(j, t) - 16*i; s >= 0 && s < 16 {
					v = uint8(s)
				}
				m[3*j+i][t], m[3*j+i][16+t] = v, v
			}
		}
	}
	return m
}

var (
	// planeMasks deinterleave 16 pixels into the 16 bytes of each channel.
	planeMasks = shuffleMasks(func(c, t int) int { return 3*t + c })
	// planeMasksFlip do the same with the 16 pixels in reverse order.
	planeMasksFlip = shuffleMasks(func(c, t int) int { return 3*(15-t) + c })
	// mirrorMasks reverse the order of 16 pixels, each kept whole.
	mirrorMasks = shuffleMasks(func(j, t int) int { q := 16*j + t; return 3*(15-q/3) + q%3 })
)

// Planes writes the pixels px into the planes r, g and b, len(px)/3 bytes
// each: channels first. With flip the pixels land in reverse order (pixel 0
// last).
func Planes(r, g, b, px []uint8, flip bool) {
	n := len(px) / 3
	r, g, b = r[:n], g[:n], b[:n]
	k := 0
	if useAVX2 {
		k = n &^ 31
		if k > 0 {
			if flip {
				shuffle3AVX2(&r[n-32], &g[n-32], &b[n-32], 16, 0, -32, &px[0], k, &planeMasksFlip)
			} else {
				shuffle3AVX2(&r[0], &g[0], &b[0], 0, 16, 32, &px[0], k, &planeMasks)
			}
		}
	}
	if flip {
		r, g, b = r[:n-k], g[:n-k], b[:n-k]
		for x := k; x < n; x++ {
			p := px[3*x : 3*x+3 : 3*x+3]
			o := n - 1 - x
			r[o], g[o], b[o] = p[0], p[1], p[2]
		}
		return
	}
	r, g, b = r[k:], g[k:], b[k:]
	px = px[3*k : 3*n]
	for x := range r {
		p := px[3*x : 3*x+3 : 3*x+3]
		r[x], g[x], b[x] = p[0], p[1], p[2]
	}
}

// Mirror writes the pixels px into dst, which must hold as many, in reverse
// order: pixel 0 of px becomes dst's last, each pixel's bytes in their order.
func Mirror(dst, px []uint8) {
	n := len(px) / 3
	dst = dst[:3*n]
	k := 0
	if useAVX2 {
		k = n &^ 31
		if k > 0 {
			o := 3 * (n - 32)
			shuffle3AVX2(&dst[o], &dst[o+16], &dst[o+32], 48, 0, -96, &px[0], k, &mirrorMasks)
		}
	}
	dst = dst[:3*(n-k)]
	for x := k; x < n; x++ {
		p := px[3*x : 3*x+3 : 3*x+3]
		o := 3 * (n - 1 - x)
		q := dst[o : o+3 : o+3]
		q[0], q[1], q[2] = p[0], p[1], p[2]
	}
}
