package imagecodec

import "image"

// The YCbCr to RGB conversion of libjpeg-turbo (jdcolor.c), in its fixed
// point: R = Y + round(1.402 (Cr-128)), B = Y + round(1.772 (Cb-128)),
// G = Y + floor((-0.34414 (Cb-128) - 0.71414 (Cr-128)) 2^16 + 2^15) / 2^16),
// each coefficient rounded to 16 fractional bits. Decoding the same Y, Cb
// and Cr, the pure-Go decoder then gives libjpeg-turbo's (and Pillow's)
// colors exactly.
var crR, cbB [256]int32
var crG, cbG [256]int32

func init() {
	fix := func(x float64) int32 { return int32(x*(1<<16) + 0.5) }
	for i := range 256 {
		x := int32(i - 128)
		crR[i] = (fix(1.40200)*x + 1<<15) >> 16
		cbB[i] = (fix(1.77200)*x + 1<<15) >> 16
		crG[i] = -fix(0.71414) * x
		cbG[i] = -fix(0.34414)*x + 1<<15
	}
}

func clamp8(v int32) uint8 {
	if uint32(v) > 255 {
		if v < 0 {
			return 0
		}
		return 255
	}
	return uint8(v)
}

// subsampling returns the horizontal and vertical chroma factors of r.
func subsampling(r image.YCbCrSubsampleRatio) (hf, vf int) {
	switch r {
	case image.YCbCrSubsampleRatio422:
		return 2, 1
	case image.YCbCrSubsampleRatio420:
		return 2, 2
	case image.YCbCrSubsampleRatio440:
		return 1, 2
	case image.YCbCrSubsampleRatio411:
		return 4, 1
	case image.YCbCrSubsampleRatio410:
		return 4, 2
	}
	return 1, 1
}

// yccToRGB converts the part r of src (in src's coordinates) to RGB in dst,
// whose size is r's. Chroma is upsampled as libjpeg-turbo does with its
// default "fancy" upsampling: a triangle filter for 2:1 horizontal (4:2:2),
// 2:1 vertical (4:4:0) and both (4:2:0) when the chroma plane is wider than
// two samples, the edges of the image replicated and 0.5 rounded alternately
// up and down; plain replication for 4:1:1 and 4:1:0 and for narrow images.
// With vp8 set the colors are converted as libwebp converts a lossy WebP's
// limited-range BT.601 samples (its VP8YUVToR/G/B) instead of JPEG's full
// range. Go's image/jpeg decodes the chroma planes alone (its own conversion
// replicates them), so this is where the pure-Go decoder meets Pillow.
func yccToRGB(dst *RGB, src *image.YCbCr, r image.Rectangle, vp8 bool) {
	W, H := src.Rect.Dx(), src.Rect.Dy()
	hf, vf := subsampling(src.SubsampleRatio)
	dw, dh := (W+hf-1)/hf, (H+vf-1)/vf // the chroma plane as libjpeg sees it
	fancyH := hf == 2 && dw > 2
	fancyV := vf == 2 && (hf == 1 || fancyH) // 4:1:0 is replicated both ways
	ybase := src.YOffset(src.Rect.Min.X, src.Rect.Min.Y)
	cbase := src.COffset(src.Rect.Min.X, src.Rect.Min.Y)
	w := r.Dx()
	// the chroma columns the crop reads, with one neighbor on each side
	c0, c1 := max(r.Min.X/hf-1, 0), min((r.Max.X-1)/hf+2, dw)
	// the chroma samples of the row after the vertical pass, and the row's
	// pixels' chroma
	colCb := make([]int32, dw+2) // sample c at c+1, the edges copied around
	colCr := make([]int32, dw+2)
	upCb := make([]int32, w)
	upCr := make([]int32, w)
	for j := range r.Dy() {
		y := r.Min.Y + j
		cy := y / vf
		// Vertical pass: one chroma row, or 3/4 of the nearer and 1/4 of the
		// next nearer (above for even rows, below for odd ones).
		near := cbase + cy*src.CStride
		vbias := int32(0)
		if fancyV {
			o := cy + 1
			vbias = 2 // lower row of the pair
			if y%2 == 0 {
				o, vbias = cy-1, 1
			}
			o = min(max(o, 0), dh-1)
			far := cbase + o*src.CStride
			for c := c0; c < c1; c++ {
				colCb[c+1] = 3*int32(src.Cb[near+c]) + int32(src.Cb[far+c])
				colCr[c+1] = 3*int32(src.Cr[near+c]) + int32(src.Cr[far+c])
			}
		} else {
			for c := c0; c < c1; c++ {
				colCb[c+1] = int32(src.Cb[near+c])
				colCr[c+1] = int32(src.Cr[near+c])
			}
		}
		colCb[0], colCr[0] = colCb[1], colCr[1]
		colCb[dw+1], colCr[dw+1] = colCb[dw], colCr[dw]
		upsample(upCb, colCb, r.Min.X, hf, dw, fancyH, fancyV, vbias)
		upsample(upCr, colCr, r.Min.X, hf, dw, fancyH, fancyV, vbias)
		yrow := src.Y[ybase+y*src.YStride+r.Min.X:][:w]
		out := dst.Pix[j*dst.Stride : j*dst.Stride+3*w]
		if vp8 {
			for i, yv := range yrow {
				y8, cb, cr := int32(yv)*19077>>8, upCb[i], upCr[i]
				o := out[3*i : 3*i+3 : 3*i+3]
				o[0] = clamp8((y8 + cr*26149>>8 - 14234) >> 6)
				o[1] = clamp8((y8 - cb*6419>>8 - cr*13320>>8 + 8708) >> 6)
				o[2] = clamp8((y8 + cb*33050>>8 - 17685) >> 6)
			}
			continue
		}
		for i, yv := range yrow {
			yy, cb, cr := int32(yv), uint8(upCb[i]), uint8(upCr[i])
			o := out[3*i : 3*i+3 : 3*i+3]
			o[0] = clamp8(yy + crR[cr])
			o[1] = clamp8(yy + (cbG[cb]+crG[cr])>>16)
			o[2] = clamp8(yy + cbB[cb])
		}
	}
}

// upsample writes into up the chroma of the len(up) pixels from column x0
// of a row. col holds the row's chroma samples after the vertical pass (sums
// of 3/4 and 1/4 of two rows, times 4, when fancyV), dw of them, one for
// every hf pixels, at col[1:dw+1], with col[0] and col[dw+1] copies of the
// edge samples.
func upsample(up, col []int32, x0, hf, dw int, fancyH, fancyV bool, vbias int32) {
	switch {
	case fancyH:
		// Pixels 2c and 2c+1 take 3/4 of sample c and 1/4 of sample c-1
		// and c+1; with the vertical pass, 9/16, 3/16, 3/16, 1/16.
		shift, even, odd := uint(2), int32(1), int32(2)
		if fancyV {
			shift, even, odd = 4, 8, 7
		}
		i, x := 0, x0
		if x&1 == 1 && len(up) > 0 {
			c := x>>1 + 1
			up[0] = (3*col[c] + col[c+1] + odd) >> shift
			i, x = 1, x+1
		}
		for ; i+1 < len(up); i, x = i+2, x+2 {
			c := x>>1 + 1
			a := 3 * col[c]
			up[i] = (a + col[c-1] + even) >> shift
			up[i+1] = (a + col[c+1] + odd) >> shift
		}
		if i < len(up) {
			c := x>>1 + 1
			up[i] = (3*col[c] + col[c-1] + even) >> shift
		}
	case fancyV: // 4:4:0: one chroma sample a pixel
		for i := range up {
			up[i] = (col[x0+i+1] + vbias) >> 2
		}
	default:
		for i := range up {
			up[i] = col[(x0+i)/hf+1]
		}
	}
}
