package augment

import (
	"image"
	"math"

	"github.com/obskit/obskit/internal/pixel"
)

// A view is 8-bit RGB pixels, 3 bytes a pixel, rows stride bytes apart, with
// its top-left pixel at pix[0].
type view struct {
	pix    []uint8
	stride int
	w, h   int
}

// A rowSink receives the rows of a resampled window in order: y counts from 0
// at the window's top, px holds the window's width of RGB pixels and is valid
// only during the call.
type rowSink interface {
	row(y int, px []uint8)
}

// A resampling maps the box of a source region onto an output of out pixels,
// of which the window win is computed.
type resampling struct {
	filter Filter
	// region is the part of the source that taps may read, in the source's
	// pixel coordinates: a cropped image, as Pillow sees it after crop().
	region image.Rectangle
	// box is the part of region that the output covers, in region's
	// coordinates (0, 0 is region.Min): x0, y0, x1, y1.
	box [4]float64
	out image.Point
	win image.Rectangle
	// src is the size of the whole source image, full size: the buffers are
	// given room for any resampling of it at once, so that they do not grow
	// again with a larger crop of an image of that size.
	src image.Point
}

// A resampler resamples separably, horizontal pass first, with Pillow's
// fixed-point arithmetic and 8-bit rounding between the passes
// (ImagingResampleInner), so that a Pillow filter gives Pillow's pixels. It
// keeps its buffers from one image to the next.
type resampler struct {
	h, v axis
	tmp  []uint8 // the horizontal pass's rows
	acc  []int32 // the vertical pass's sums for one row
	line []uint8 // one output row
	// wide keeps the horizontal pass's results unrounded and unclipped, as
	// OpenCV does (Pillow rounds them to 8 bits): for OpenCV's kernels with
	// negative lobes, whose overshoot between the passes would otherwise be
	// clipped.
	wide bool
	tmpW []int32
	accW []int64
	// srcH is the height of the last prepared resampling's whole source
	// image, at full size (resampling.src), or 0.
	srcH int
}

// prepare computes the weights of rs.
func (r *resampler) prepare(rs *resampling) {
	r.srcH = rs.src.Y
	if rs.src != (image.Point{}) {
		r.h.reserve(rs.win.Dx(), maxTaps(rs.filter, rs.src.X, rs.out.X))
		r.v.reserve(rs.win.Dy(), maxTaps(rs.filter, rs.src.Y, rs.out.Y))
	}
	reg := rs.region
	r.wide = rs.filter == CVBicubic || rs.filter == CVLanczos4
	// OpenCV averages areas only when both axes shrink.
	shrink := rs.box[2]-rs.box[0] >= float64(rs.out.X) && rs.box[3]-rs.box[1] >= float64(rs.out.Y)
	ax := func(a *axis, in int, b0, b1 float64, out, o0, o1, off int) {
		scale := (b1 - b0) / float64(out)
		switch f := rs.filter; {
		case f == Nearest:
			a.nearest(in, b0, scale, o0, o1, off, true)
		case f == CVNearest:
			// OpenCV's scale is the inverse of out/in, which rounds differently.
			a.nearest(in, b0, 1/(float64(out)/(b1-b0)), o0, o1, off, false)
		case f == CVArea && shrink:
			a.areaDown(in, b0, scale, o0, o1, off)
		case f == CVArea:
			a.areaUp(in, b0, 1/(float64(out)/(b1-b0)), o0, o1, off)
		case f == CVBilinear || f == CVBicubic || f == CVLanczos4:
			a.cvTaps(kernelOf(f), in, b0, 1/(float64(out)/(b1-b0)), o0, o1, off)
		default:
			a.compute(kernelOf(f), in, b0, b1, out, o0, o1, off)
		}
	}
	ax(&r.h, reg.Dx(), rs.box[0], rs.box[2], rs.out.X, rs.win.Min.X, rs.win.Max.X, reg.Min.X)
	ax(&r.v, reg.Dy(), rs.box[1], rs.box[3], rs.out.Y, rs.win.Min.Y, rs.win.Max.Y, reg.Min.Y)
	if r.wide || r.h.shift {
		r.h.simd.Plan(&r.h.Taps, r.h.maxTaps, 0)
	} else {
		r.h.simd.Plan(&r.h.Taps, r.h.maxTaps, rs.win.Dx())
	}
}

// nearest fills a with one tap per output. Pillow's NEAREST (pil) reads the
// sample under the output sample's centre, floor(in0 + (x+0.5)*scale),
// accumulating the position as Pillow's affine transform does; OpenCV's
// INTER_NEAREST reads floor(in0 + x*scale). Positions are clipped to the
// source.
func (a *axis) nearest(inSize int, in0, scale float64, o0, o1, off int, pil bool) {
	n := o1 - o0
	a.KSize = 1
	a.Start = growInt32(a.Start, n)
	a.N = growInt32(a.N, n)
	a.K = growInt32(a.K, n)
	a.shift = true
	pos := in0 // OpenCV's
	if pil {
		pos = in0 + scale*0.5
	}
	for x := range o1 {
		var s int
		if pil {
			s = int(math.Floor(pos))
			pos += scale
		} else {
			s = int(math.Floor(in0 + float64(x)*scale))
		}
		if x < o0 {
			continue
		}
		s = max(0, min(s, inSize-1))
		i := x - o0
		a.Start[i] = int32(s + off)
		a.N[i] = 1
		a.K[i] = 1 << precisionBits
		if a.Start[i] != a.Start[0]+int32(i) {
			a.shift = false
		}
	}
}

// run resamples src, which prepare's region refers to, and hands the window's
// rows to sink.
func (r *resampler) run(src view, sink rowSink) {
	h, v := &r.h, &r.v
	outW := len(h.Start)
	rowLen := 3 * outW
	y0, y1 := v.span()
	// The source rows the vertical pass reads, after the horizontal pass.
	var rows []uint8
	rowStride := rowLen
	r.line = growUint8(r.line, rowLen)
	if r.wide && !h.shift {
		r.runWide(src, sink, y0, y1)
		return
	}
	if h.shift {
		// A copy: read the source rows in place.
		x0 := 3 * int(h.Start[0])
		rows = src.pix[y0*src.stride+x0:]
		rowStride = src.stride
	} else {
		if need := max(src.h, r.srcH) * rowLen; cap(r.tmp) < need {
			// Room for every row of the source at full size, so that a
			// taller crop of an image of this size, or one decoded at a
			// larger scale, does not grow the buffer again.
			r.tmp = make([]uint8, 0, need+need/4)
		}
		r.tmp = r.tmp[:(y1-y0)*rowLen]
		for y := y0; y < y1; y++ {
			in := src.pix[y*src.stride:]
			pixel.HRow(r.tmp[(y-y0)*rowLen:][:rowLen], in[:3*src.w], len(in), &h.Taps, &h.simd)
		}
		rows = r.tmp
	}
	r.acc = growInt32(r.acc, rowLen)
	for j := range v.Start {
		ys, n := int(v.Start[j])-y0, int(v.N[j])
		if n == 1 && v.K[j*v.KSize] == 1<<precisionBits {
			sink.row(j, rows[ys*rowStride:][:rowLen])
			continue
		}
		pixel.VRow(r.line, r.acc, rows, rowStride, ys, v.K[j*v.KSize:][:n])
		sink.row(j, r.line)
	}
}

// wideBits is the fractional precision of the wide passes' intermediate
// values.
const wideBits = 11

// runWide is run's passes without rounding or clipping in between.
func (r *resampler) runWide(src view, sink rowSink, y0, y1 int) {
	h, v := &r.h, &r.v
	rowLen := 3 * len(h.Start)
	r.tmpW = growInt32(r.tmpW, (y1-y0)*rowLen)
	for y := y0; y < y1; y++ {
		row := r.tmpW[(y-y0)*rowLen:][:rowLen]
		hpassWide(row, src.pix[y*src.stride:][:3*src.w], h)
	}
	if cap(r.accW) < rowLen {
		r.accW = make([]int64, rowLen)
	}
	acc := r.accW[:rowLen]
	for j := range v.Start {
		ys, n := int(v.Start[j])-y0, int(v.N[j])
		for i := range acc {
			acc[i] = 1 << (precisionBits + wideBits - 1)
		}
		for t, w := range v.K[j*v.KSize:][:n] {
			row := r.tmpW[(ys+t)*rowLen:][:rowLen]
			for i, p := range row {
				acc[i] += int64(p) * int64(w)
			}
		}
		for i, s := range acc {
			r.line[i] = uint8(max(0, min(255, s>>(precisionBits+wideBits))))
		}
		sink.row(j, r.line)
	}
}

// hpassWide is hpass keeping wideBits of fraction, unclipped.
func hpassWide(dst []int32, src []uint8, h *axis) {
	ks := h.KSize
	for i, s := range h.Start {
		n := int(h.N[i])
		k := h.K[i*ks:][:n]
		p := src[3*int(s):][:3*n]
		var r, g, b int32
		for t, w := range k {
			q := p[3*t:][:3]
			r += int32(q[0]) * w
			g += int32(q[1]) * w
			b += int32(q[2]) * w
		}
		const sh, half = precisionBits - wideBits, 1 << (precisionBits - wideBits - 1)
		d := dst[3*i:][:3]
		d[0], d[1], d[2] = (r+half)>>sh, (g+half)>>sh, (b+half)>>sh
	}
}

// growUint8 returns s with length n, reusing its memory when it can.
func growUint8(s []uint8, n int) []uint8 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]uint8, n, n+n/4)
}
