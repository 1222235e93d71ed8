package augment

import (
	"math"

	"github.com/obskit/obskit/internal/pixel"
)

// precisionBits is the fixed-point precision of the weights, Pillow's
// PRECISION_BITS: 32 bits less 8 for the pixel and 2 for the overshoot of
// kernels with negative lobes.
const precisionBits = pixel.PrecisionBits

// An axis holds the weights of one axis of a separable resampling: output i
// (of the window computed) reads N[i] source samples from Start[i] with the
// fixed-point weights K[i*KSize:][:N[i]]. The arithmetic is Pillow's
// (precompute_coeffs and normalize_coeffs_8bpc in Resample.c), so that a
// resize with a Pillow filter gives Pillow's pixels exactly.
type axis struct {
	pixel.Taps
	ws []float64 // scratch: one output's weights before normalizing
	// shift is true when every output reads one source sample with weight 1,
	// output i the sample Start[0]+i: the pass is a copy.
	shift bool
	simd  pixel.HPlan // the AVX2 kernel's plan, for a horizontal axis
	// maxTaps is the most taps the axis has room for (reserve), at least.
	maxTaps int
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
	a.KSize = ksize
	a.Start = growInt32(a.Start, nout)
	a.N = growInt32(a.N, nout)
	a.K = growInt32(a.K, nout*ksize)
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
		k := a.K[i*ksize : (i+1)*ksize]
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
		a.Start[i] = int32(xmin + off)
		a.N[i] = int32(cnt)
		if cnt != 1 || k[0] != 1<<precisionBits || a.Start[i] != a.Start[0]+int32(i) {
			a.shift = false
		}
	}
}

// span returns the first source sample the outputs read and one past the last
// (offset included), or (0, 0) when they read none.
func (a *axis) span() (lo, hi int) {
	lo, hi = math.MaxInt, math.MinInt
	for i, s := range a.Start {
		if a.N[i] == 0 {
			continue
		}
		lo = min(lo, int(s))
		hi = max(hi, int(s)+int(a.N[i]))
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

// setTaps sets output i's taps to the samples from s (offset off excluded)
// with the weights ws, summing to 1, in fixed point.
func (a *axis) setTaps(i, s, off int, ws ...float64) {
	k := a.K[i*a.KSize : (i+1)*a.KSize]
	clear(k)
	for t, w := range ws {
		k[t] = int32(math.Round(w * (1 << precisionBits)))
	}
	a.Start[i] = int32(s + off)
	a.N[i] = int32(len(ws))
	if len(ws) != 1 || k[0] != 1<<precisionBits || a.Start[i] != a.Start[0]+int32(i) {
		a.shift = false
	}
}

// reset sizes a for n outputs of at most ksize taps.
func (a *axis) reset(n, ksize int) {
	a.KSize = ksize
	a.Start = growInt32(a.Start, n)
	a.N = growInt32(a.N, n)
	a.K = growInt32(a.K, n*ksize)
	a.shift = true
}

// areaDown fills a with OpenCV's INTER_AREA weights for shrinking (scale =
// in/out >= 1, computeResizeAreaTab): output x averages the source over
// [in0 + x*scale, in0 + (x+1)*scale), each sample weighed by how much of it
// the interval covers.
func (a *axis) areaDown(inSize int, in0, scale float64, o0, o1, off int) {
	a.reset(o1-o0, int(math.Ceil(scale))+2)
	if cap(a.ws) < a.KSize {
		a.ws = make([]float64, a.KSize)
	}
	for i := range o1 - o0 {
		f1 := in0 + float64(o0+i)*scale
		f2 := f1 + scale
		cell := min(scale, float64(inSize)-f1)
		s1, s2 := int(math.Ceil(f1)), int(math.Floor(f2))
		s2 = min(s2, inSize-1)
		s1 = min(s1, s2)
		w := a.ws[:0]
		first := s1
		if float64(s1)-f1 > 1e-3 {
			first = s1 - 1
			w = append(w, (float64(s1)-f1)/cell)
		}
		for range s2 - s1 {
			w = append(w, 1/cell)
		}
		if f2-float64(s2) > 1e-3 {
			w = append(w, min(f2-float64(s2), 1, cell)/cell)
		}
		a.setTaps(i, first, off, w...)
	}
}

// areaUp fills a with the two-tap weights OpenCV's INTER_AREA uses when an
// image is not shrunk along both axes: output x reads samples
// sx = floor(in0 + x*scale) and sx+1 with the fraction
// (x+1) - (sx+1)/scale, which is 0 unless the output pixel straddles two
// source pixels.
func (a *axis) areaUp(inSize int, in0, scale float64, o0, o1, off int) {
	a.reset(o1-o0, 2)
	inv := 1 / scale
	for i := range o1 - o0 {
		x := o0 + i
		pos := in0 + float64(x)*scale
		sx := int(math.Floor(pos))
		fx := float64(float32(float64(x+1) - (float64(sx)-in0+1)*inv))
		if fx <= 0 {
			fx = 0
		} else {
			fx -= math.Floor(fx)
		}
		switch {
		case sx < 0:
			a.setTaps(i, 0, off, 1)
		case sx >= inSize-1:
			a.setTaps(i, inSize-1, off, 1)
		case fx == 0:
			a.setTaps(i, sx, off, 1)
		default:
			a.setTaps(i, sx, off, 1-fx, fx)
		}
	}
}

// cvTaps fills a with OpenCV's cv::resize weights for a kernel of radius
// ks/2 that is not widened (INTER_LINEAR, INTER_CUBIC, INTER_LANCZOS4):
// output x reads the ks samples around fx = in0 + (x+0.5)*scale - 0.5 (in
// float32, as OpenCV computes it), weighed by the kernel at their distance
// from fx and normalized to sum 1; samples past the source's ends repeat the
// edge sample (OpenCV's BORDER_REPLICATE), where Pillow would drop them.
func (a *axis) cvTaps(kern kernel, inSize int, in0, scale float64, o0, o1, off int) {
	ks := int(kern.support) * 2
	a.reset(o1-o0, ks)
	if cap(a.ws) < ks {
		a.ws = make([]float64, ks)
	}
	for i := range o1 - o0 {
		fx := float64(float32(in0 + (float64(o0+i)+0.5)*scale - 0.5))
		sx := int(math.Floor(fx))
		d := fx - float64(sx)
		first := sx - ks/2 + 1
		// The taps, clamped to the source: the weights of clamped taps
		// pile onto the edge sample.
		lo := max(first, 0)
		hi := min(first+ks, inSize) // one past the last sample read
		if lo >= hi {               // the whole window is past one end
			lo = max(0, min(first, inSize-1))
			hi = lo + 1
		}
		ws := a.ws[:hi-lo]
		clear(ws)
		sum := 0.0
		for k := range ks {
			w := kern.fn(d - float64(k-ks/2+1))
			sum += w
			j := max(lo, min(first+k, hi-1))
			ws[j-lo] += w
		}
		for j := range ws {
			ws[j] /= sum
		}
		a.setTaps(i, lo, off, ws...)
	}
}

// maxTaps bounds the taps an output of out samples may read, with f, from a
// source of in samples or any part of it.
func maxTaps(f Filter, in, out int) int {
	scale := max(1, (in+out-1)/out)
	switch f {
	case Nearest, CVNearest:
		return 1
	case CVBilinear, CVBicubic, CVLanczos4:
		return 2 * int(kernelOf(f).support)
	case CVArea:
		return scale + 2
	}
	return int(math.Ceil(kernelOf(f).support*float64(scale)))*2 + 3
}

// reserve gives a room for n outputs of up to taps taps each, and its AVX2
// plan room for the same.
func (a *axis) reserve(n, taps int) {
	if cap(a.Start) < n {
		a.Start, a.N = make([]int32, 0, n), make([]int32, 0, n)
	}
	if cap(a.K) < n*taps {
		a.K = make([]int32, 0, n*taps)
	}
	if cap(a.ws) < taps {
		a.ws = make([]float64, taps)
	}
	a.maxTaps = max(a.maxTaps, taps)
}
