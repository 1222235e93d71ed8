package pixel

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

// LUTCHW writes the pixels px into the planes r, g and b, len(px)/3 floats
// each, through lut: channel c's value v becomes lut[c][v]. With flip the
// pixels land in reverse order (pixel 0 last).
func LUTCHW(r, g, b []float32, px []uint8, lut *[3][256]float32, flip bool) {
	n := len(px) / 3
	r, g, b = r[:n], g[:n], b[:n]
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
