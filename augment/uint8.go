package augment

import (
	"math/rand/v2"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/internal/pixel"
)

// ApplyUint8 is [Pipeline.Apply] with 8-bit output: the same decode, geometry,
// colour steps and flip, drawn from rng exactly as Apply draws them, written
// into dst, which must hold [Pipeline.Len] bytes, in the pipeline's layout,
// without ToTensor's division and the [Normalize] step. A loader that hands
// these bytes to the training device, where they are normalized
// (gomlx.Normalize in the obskit/gomlx module, as FFCV and DALI do on the
// GPU), moves a quarter of the bytes of float32 batches and skips the float
// write; the float32 value Apply would write for pixel value v of channel c
// is (float32(v)/255 - Mean[c]) / Std[c], computed in float32, bit for bit.
//
// It returns Apply's errors. It panics as Apply does, and with a
// *container.ArgError for an [Affine] pipeline, whose values are a linear
// map drawn per image (MXNet's contrast, illumination and mean image, package
// mxnet's), written as float32 only.
func (p *Pipeline) ApplyUint8(dst []uint8, dec imagecodec.Decoder, name string, data []byte, rng *rand.Rand) error {
	p.checkArgs("augment.Pipeline.ApplyUint8", len(dst), rng)
	p.checkUint8("augment.Pipeline.ApplyUint8")
	return p.apply(output{b: dst}, dec, name, data, rng)
}

// ApplyRGBUint8 is [Pipeline.ApplyRGB] with 8-bit output, as
// [Pipeline.ApplyUint8] is Apply's.
func (p *Pipeline) ApplyRGBUint8(dst []uint8, img *imagecodec.RGB, rng *rand.Rand) error {
	p.checkArgs("augment.Pipeline.ApplyRGBUint8", len(dst), rng)
	p.checkUint8("augment.Pipeline.ApplyRGBUint8")
	return p.applyRGB(output{b: dst}, img, rng)
}

// CanUint8 reports whether the pipeline writes 8-bit output: true unless it
// is an [Affine] pipeline, whose values are written as float32 only.
// ApplyUint8 and ApplyRGBUint8 panic where it is false.
func (p *Pipeline) CanUint8() bool { return !p.drawn }

// checkUint8 panics when the pipeline writes float32 only.
func (p *Pipeline) checkUint8(op string) {
	container.CheckArg(!p.drawn, op, "pipeline", "an Affine pipeline", "a pipeline of torchvision's steps: an Affine step's values are drawn per image and written as float32 only")
}

// rowAt8 is rowAt for the 8-bit output: the pixels px of row y from column x0,
// in the layout, mirrored with flip.
func (s *tensorSink) rowAt8(y, x0 int, px []uint8) {
	n := len(px) / 3
	w := s.w
	lo := x0 // the first column the pixels land in
	if s.flip {
		lo = w - x0 - n
	}
	switch s.layout {
	case CHW:
		plane := w * s.h
		r := s.dst8[y*w:][:w][lo : lo+n]
		g := s.dst8[plane+y*w:][:w][lo : lo+n]
		b := s.dst8[2*plane+y*w:][:w][lo : lo+n]
		pixel.Planes(r, g, b, px, s.flip)
	case HWC:
		row := s.dst8[3*y*w:][:3*w][3*lo : 3*(lo+n)]
		if s.flip {
			pixel.Mirror(row, px)
			return
		}
		copy(row, px[:3*n])
	}
}
