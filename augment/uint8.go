package augment

import (
	"math/rand/v2"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/imagecodec"
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

// checkUint8 panics when the pipeline writes float32 only.
func (p *Pipeline) checkUint8(op string) {
	container.CheckArg(!p.drawn, op, "pipeline", "an Affine pipeline", "a pipeline of torchvision's steps: an Affine step's values are drawn per image and written as float32 only")
}

// rowAt8 is rowAt for the 8-bit output: the pixels px of row y from column x0,
// in the layout, mirrored with flip.
func (s *tensorSink) rowAt8(y, x0 int, px []uint8) {
	n := len(px) / 3
	w := s.w
	switch s.layout {
	case CHW:
		plane := w * s.h
		r := s.dst8[y*w:][:w]
		g := s.dst8[plane+y*w:][:w]
		b := s.dst8[2*plane+y*w:][:w]
		if s.flip {
			lo := w - x0 - n
			r, g, b = r[lo:lo+n], g[lo:lo+n], b[lo:lo+n]
			for x := range n {
				p := px[3*x : 3*x+3 : 3*x+3]
				o := n - 1 - x
				r[o], g[o], b[o] = p[0], p[1], p[2]
			}
			return
		}
		r, g, b = r[x0:x0+n], g[x0:x0+n], b[x0:x0+n]
		for x := range n {
			p := px[3*x : 3*x+3 : 3*x+3]
			r[x], g[x], b[x] = p[0], p[1], p[2]
		}
	case HWC:
		row := s.dst8[3*y*w:][:3*w]
		if s.flip {
			lo := w - x0 - n
			row = row[3*lo : 3*(lo+n)]
			for x := range n {
				p := px[3*x : 3*x+3 : 3*x+3]
				o := 3 * (n - 1 - x)
				q := row[o : o+3 : o+3]
				q[0], q[1], q[2] = p[0], p[1], p[2]
			}
			return
		}
		copy(row[3*x0:3*(x0+n)], px[:3*n])
	}
}
