package augment

import "math"

// precisionBits is the fixed-point precision of the weights, Pillow's
// PRECISION_BITS: 32 bits less 8 for the pixel and 2 for the overshoot of
// kernels with negative lobes.
const precisionBits = 32 - 8 - 2

// An axis holds the weights of one axis of a separable resampling: output i
// (of the window computed) reads n[i] source samples from start[i] with the
// fixed-point weights k[i*ksize:][:n[i]]. The arithmetic is Pillow's
// (precompute_coeffs and normalize_coeffs_8bpc in Resample.c), so that a
// resize with a Pillow filter gives Pillow's pixels exactly.
type axis struct {
	ksize    int
	start, n []int32
	k        []int32
	ws       []float64 // scratch: one output's weights before normalizing
	// shift is true when every output reads one source sample with weight 1,
	// output i the sample start[0]+i: the pass is a copy.
	shift bool
}

// compute fills a for outputs o0..o1-1 of an output of outSize samples that
// covers the interval [in0, in1) of a source of inSize samples, in that
// source's coordinates (sample s covers [s, s+1)). Taps are clipped to the
// source, as Pillow clips them to the image, and start is offset by off, the
// position of the source's sample 0 in the image the passes read.
func (a *axis) compute(kern kernel, inSize int, in0, in1 float64, outSize, o0, o1, off int) {
	scale := (in1 - in0) / float64(outSize)
	filterscale := scale
	if filterscale < 1 || !kern.antialias {
		filterscale = 1
	}
	support := kern.support * filterscale
	ksize := int(math.Ceil(support))*2 + 1
	nout := o1 - o0
	a.ksize = ksize
	a.start = growInt32(a.start, nout)
	a.n = growInt32(a.n, nout)
	a.k = growInt32(a.k, nout*ksize)
	if cap(a.ws) < ksize {
		a.ws = make([]float64, ksize)
	}
	ws := a.ws
	inv := 1 / filterscale
	a.shift = true
	for i := range nout {
		center := in0 + (float64(o0+i)+0.5)*scale
		xmin := int(center - support + 0.5)
		if xmin < 0 {
			xmin = 0
		}
		xmax := int(center + support + 0.5)
		if xmax > inSize {
			xmax = inSize
		}
		cnt := xmax - xmin
		if cnt < 0 {
			cnt = 0
		}
		ws = ws[:cnt]
		sum := 0.0
		for x := range cnt {
			w := kern.fn((float64(x+xmin) - center + 0.5) * inv)
			ws[x] = w
			sum += w
		}
		k := a.k[i*ksize : (i+1)*ksize]
		for x := range k {
			w := 0.0
			if x < cnt {
				w = ws[x]
				if sum != 0 {
					w /= sum
				}
			}
			// C's (int) truncates, as Go's conversion does.
			if w < 0 {
				k[x] = int32(-0.5 + w*(1<<precisionBits))
			} else {
				k[x] = int32(0.5 + w*(1<<precisionBits))
			}
		}
		// Taps of weight 0 at either end are read for nothing: drop them. The
		// sum is unchanged, so the result is Pillow's.
		lead := 0
		for lead < cnt && k[lead] == 0 {
			lead++
		}
		for cnt > lead && k[cnt-1] == 0 {
			cnt--
		}
		if lead > 0 {
			copy(k, k[lead:cnt])
			cnt -= lead
			xmin += lead
			clear(k[cnt:])
		}
		a.start[i] = int32(xmin + off)
		a.n[i] = int32(cnt)
		if cnt != 1 || k[0] != 1<<precisionBits || a.start[i] != a.start[0]+int32(i) {
			a.shift = false
		}
	}
}

// span returns the first source sample the outputs read and one past the last
// (offset included), or (0, 0) when they read none.
func (a *axis) span() (lo, hi int) {
	lo, hi = math.MaxInt, math.MinInt
	for i, s := range a.start {
		if a.n[i] == 0 {
			continue
		}
		lo = min(lo, int(s))
		hi = max(hi, int(s)+int(a.n[i]))
	}
	if lo > hi {
		return 0, 0
	}
	return lo, hi
}

// growInt32 returns s with length n, reusing its memory when it can.
func growInt32(s []int32, n int) []int32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]int32, n, n+n/4)
}
