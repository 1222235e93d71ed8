package augment

import (
	"fmt"
	"image"
	"math/rand/v2"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/internal/freelist"
)

// A Pipeline decodes an image and augments it into one float32 slot of a
// batch: its steps, fused into as few passes over the pixels as they allow.
// Build one with [New]; it is immutable and safe for concurrent use, each
// call drawing its random numbers from the *rand.Rand it is given and nothing
// else, so that an image's augmentation depends only on that generator.
type Pipeline struct {
	layout Layout
	orient bool
	geom   geometry
	colors []ColorJitter
	flip   float64
	lut    [3][256]float32        // the values of ToTensor and Normalize
	drawn  bool                   // an Affine step: colour and values drawn per image (geomPlan.img)
	size   image.Point            // the output's width and height
	free   freelist.List[scratch] // the buffers of the calls not running, kept for the next ones
}

// A geometry decides, per image, which part of the source becomes the
// output and how it is resampled.
type geometry interface {
	// plan fills g for an image of size src, drawing from rng, or returns
	// why the image does not fit.
	plan(src image.Point, rng *rand.Rand, g *geomPlan) error
	outSize() image.Point
}

// A geomPlan is one image's geometry.
type geomPlan struct {
	rs resampling // in the full-size image's coordinates
	// at is where the window's top-left pixel lands in the output; pad is
	// set when the window does not cover the whole output, whose other
	// pixels are fill.
	at   image.Point
	pad  bool
	fill uint8
	// warp, when set, samples the source through affine (from output pixels
	// to source pixels) with rs.filter instead of resampling rs separably.
	warp   bool
	affine affine
	// scalable allows a decoder to decode at a reduced scale as long as the
	// region keeps at least the output's size.
	scalable bool
	// img is an Affine step's drawing of the image.
	img AffineImage
}

// New returns the pipeline of steps, in the order torchvision's Compose would
// apply them, writing its floats in layout:
//
//	p := augment.New(augment.CHW,
//		augment.RandomResizedCrop{Size: image.Pt(224, 224)},
//		augment.RandomHorizontalFlip{},
//		augment.ImageNet)
//
// The steps must be: an optional [ExifTranspose]; one geometry, which is
// [RandomResizedCrop], or [Resize] followed by [CenterCrop], or [CenterCrop]
// alone; then any [ColorJitter] and at most one [RandomHorizontalFlip], in any
// order; then at most one [Normalize], last. [Affine] is a pipeline on its
// own: its step may follow an ExifTranspose and nothing else. Every output
// has the same size, so that it fills a batch's slot: a [Resize] needs a
// [CenterCrop] after it.
//
// Steps are a program's values: New panics with a *container.ArgError that
// names the step at fault when the steps do not make a pipeline or a step's
// values are out of range (a size below 1x1, a zero std, a probability
// outside [0, 1]...), as for any bad argument. A program that builds steps
// from its users' input checks that input first, as obskit image eval does
// with its flags.
func New(layout Layout, steps ...Step) *Pipeline {
	const op = "augment.New"
	container.CheckArg(layout == CHW || layout == HWC, op, "layout", layout, "CHW or HWC")
	p := &Pipeline{layout: layout}
	bad := func(i int, format string, args ...any) {
		panic(&container.ArgError{Op: op, Arg: fmt.Sprintf("step %d", i), Value: fmt.Sprintf("%T%+v", steps[i], steps[i]), Want: fmt.Sprintf(format, args...)})
	}
	var (
		resize   *Resize
		norm     *Normalize
		flipSeen bool
	)
	for i, s := range steps {
		if norm != nil {
			bad(i, "no step after Normalize, the last")
		}
		geomDone := p.geom != nil
		switch s := s.(type) {
		case ExifTranspose:
			if i != 0 {
				bad(i, "ExifTranspose as the first step")
			}
			p.orient = true
		case RandomResizedCrop:
			if geomDone || resize != nil {
				bad(i, "one geometry in a pipeline")
			}
			s = s.withDefaults()
			if err := s.check(); err != nil {
				bad(i, "%v", err)
			}
			p.geom = s
		case Resize:
			if geomDone || resize != nil {
				bad(i, "one geometry in a pipeline")
			}
			if s.Size < 1 || s.Filter >= numFilters {
				bad(i, "a size >= 1 and a filter of this package")
			}
			resize = &s
		case CenterCrop:
			if geomDone {
				bad(i, "one geometry in a pipeline")
			}
			if s.Size.X < 1 || s.Size.Y < 1 {
				bad(i, "a size of at least 1x1")
			}
			g := centerCrop{crop: s.Size}
			if resize != nil {
				g.resize, g.filter = resize.Size, resize.Filter
			}
			p.geom = g
		case ColorJitter:
			if !geomDone {
				bad(i, "the geometry first")
			}
			if err := s.check(); err != nil {
				bad(i, "%v", err)
			}
			p.colors = append(p.colors, s)
		case RandomHorizontalFlip:
			if !geomDone {
				bad(i, "the geometry first")
			}
			if flipSeen {
				bad(i, "one flip in a pipeline")
			}
			if !(0 <= s.P && s.P <= 1) {
				bad(i, "a probability in [0, 1]")
			}
			flipSeen, p.flip = true, s.P
			if p.flip == 0 {
				p.flip = 0.5
			}
		case Affine:
			if geomDone || resize != nil || len(steps) > i+1 {
				bad(i, "Affine as a pipeline of its own: only an ExifTranspose before it")
			}
			if s.Size.X < 1 || s.Size.Y < 1 || s.Draw == nil {
				bad(i, "a size of at least 1x1 and a Draw function")
			}
			p.geom, p.drawn = s, true
		case Normalize:
			if !geomDone {
				bad(i, "the geometry first")
			}
			for c := range 3 {
				if s.Std[c] == 0 {
					bad(i, "a std without a zero")
				}
			}
			norm = &s
		default:
			bad(i, "a step of this package")
		}
	}
	if p.geom == nil {
		if resize != nil {
			panic(&container.ArgError{Op: op, Arg: "steps", Value: fmt.Sprintf("%+v", steps), Want: "a CenterCrop after Resize: Resize gives every image its own size"})
		}
		panic(&container.ArgError{Op: op, Arg: "steps", Value: fmt.Sprintf("%+v", steps), Want: "a geometry step (RandomResizedCrop, Resize and CenterCrop, CenterCrop, Affine)"})
	}
	if norm != nil {
		torchLUT(&p.lut, &norm.Mean, &norm.Std)
	} else {
		torchLUT(&p.lut, nil, nil)
	}
	p.size = p.geom.outSize()
	return p
}

// Shape returns the shape of one output: channels, height, width for CHW;
// height, width, channels for HWC.
func (p *Pipeline) Shape() [3]int {
	if p.layout == HWC {
		return [3]int{p.size.Y, p.size.X, 3}
	}
	return [3]int{3, p.size.Y, p.size.X}
}

// Len returns the number of floats of one output.
func (p *Pipeline) Len() int { return 3 * p.size.X * p.size.Y }

// scratch is one goroutine's buffers, kept from image to image.
type scratch struct {
	rs   resampler
	img  *imagecodec.RGB
	rgb  []uint8 // the 8-bit output, when colour steps need it
	ops  []colorOp
	sink tensorSink
	rgbs rgbSink
	g    geomPlan
	lut  [3][256]float32 // an image's own values (an Affine step's)
}

// Apply decodes the image in data with dec and writes its augmentation into
// dst, which must hold exactly [Pipeline.Len] floats, drawing every random
// choice from rng. Only the part of the image the geometry reads is decoded,
// and, for a random crop, at the smallest scale the decoder offers that keeps
// the crop at least the output's size (imagecodec.Request's Crop and Min).
// name is what errors call the image (a file name, a record key). Apply
// returns the decoder's errors, and an [Affine] step's Draw's, wrapped with
// name. Its buffers are sized by dec.Config, which
// refuses a header claiming more pixels than the decoder's limit
// (imagecodec.ErrTooLarge) before anything is allocated; it allocates
// nothing once its buffers have grown to the largest image (the decoder may
// allocate on its own). It panics with a *container.ArgError if dst has the
// wrong length or rng is nil.
func (p *Pipeline) Apply(dst []float32, dec imagecodec.Decoder, name string, data []byte, rng *rand.Rand) error {
	p.checkArgs("augment.Pipeline.Apply", len(dst), rng)
	return p.apply(output{f: dst}, dec, name, data, rng)
}

// output is the slot a call writes: float32 values (f) or 8-bit pixels (b),
// the other nil.
type output struct {
	f []float32
	b []uint8
}

// apply is Apply and ApplyUint8 after their checks.
func (p *Pipeline) apply(dst output, dec imagecodec.Decoder, name string, data []byte, rng *rand.Rand) error {
	cfg, err := dec.Config(name, data)
	if err != nil {
		return err
	}
	s := p.free.Get()
	defer p.free.Put(s)
	g := &s.g
	size := cfg.Size(p.orient)
	if err := p.geom.plan(size, rng, g); err != nil {
		return fmt.Errorf("augment: %s: %w", name, err)
	}
	// The part of the image the taps read, at full size.
	var crop image.Rectangle
	if g.warp {
		crop = warpRegion(g.affine, p.size.X, p.size.Y, 4, size)
		if crop.Empty() { // every tap is outside: decode a pixel, for the errors
			crop = image.Rect(0, 0, 1, 1)
		}
	} else {
		s.rs.prepare(&g.rs)
		x0, x1 := s.rs.h.span()
		y0, y1 := s.rs.v.span()
		crop = image.Rect(x0, y0, x1, y1)
	}
	req := imagecodec.Request{Crop: crop, Orient: p.orient}
	if g.scalable {
		req.Min = g.rs.out
	}
	if need := 3 * size.X * size.Y; s.img == nil || cap(s.img.Pix) < need {
		// Room for the whole image at once, so that a larger crop of an image
		// of this size does not grow the buffer again: within the decoder's
		// pixel limit, which dec.Config checked.
		s.img = &imagecodec.RGB{Pix: make([]uint8, 0, need+need/4)}
	}
	img, scale, err := dec.Decode(s.img, name, data, req)
	if err != nil {
		return err
	}
	s.img = img
	rs := g.rs
	if scale != 1 {
		rs = scaled(rs, scale, img.Rect)
	}
	// The decoded pixels start at img.Rect.Min.
	rs.region = rs.region.Sub(img.Rect.Min)
	g.affine[2] -= float64(img.Rect.Min.X)
	g.affine[5] -= float64(img.Rect.Min.Y)
	src := view{pix: img.Pix, stride: img.Stride, w: img.Rect.Dx(), h: img.Rect.Dy()}
	p.finish(dst, s, src, &rs, rng)
	return nil
}

// ApplyRGB writes the augmentation of the decoded image img into dst, as
// [Pipeline.Apply] does after decoding; img is used as it is ([ExifTranspose]
// acts when decoding). With the pixels Pillow decodes, a deterministic
// pipeline gives torchvision's floats exactly. It returns an error only for an
// image an [Affine] step's Draw refuses.
func (p *Pipeline) ApplyRGB(dst []float32, img *imagecodec.RGB, rng *rand.Rand) error {
	p.checkArgs("augment.Pipeline.ApplyRGB", len(dst), rng)
	return p.applyRGB(output{f: dst}, img, rng)
}

// applyRGB is ApplyRGB and ApplyRGBUint8 after their checks.
func (p *Pipeline) applyRGB(dst output, img *imagecodec.RGB, rng *rand.Rand) error {
	s := p.free.Get()
	defer p.free.Put(s)
	g := &s.g
	if err := p.geom.plan(img.Rect.Size(), rng, g); err != nil {
		return fmt.Errorf("augment.Pipeline.ApplyRGB: %w", err)
	}
	src := view{pix: img.Pix, stride: img.Stride, w: img.Rect.Dx(), h: img.Rect.Dy()}
	p.finish(dst, s, src, &g.rs, rng)
	return nil
}

func (p *Pipeline) checkArgs(op string, n int, rng *rand.Rand) {
	if n != p.Len() {
		container.CheckArg(false, op, "len(dst)", n, fmt.Sprintf("%d, the pipeline's Len", p.Len()))
	}
	container.CheckArg(rng != nil, op, "rng", rng, "a *rand.Rand")
}

// scaled returns rs for the image decoded at scale into the pixels of
// bounds got (in the scaled image's coordinates): the region scaled and
// rounded outward, within got, and the box scaled, in that region's
// coordinates.
func scaled(rs resampling, scale float64, got image.Rectangle) resampling {
	r := rs.region
	sr := image.Rect(floorInt(float64(r.Min.X)*scale), floorInt(float64(r.Min.Y)*scale),
		ceilInt(float64(r.Max.X)*scale), ceilInt(float64(r.Max.Y)*scale)).Intersect(got)
	for i := range rs.box {
		origin := float64(r.Min.X)*scale - float64(sr.Min.X)
		if i%2 == 1 {
			origin = float64(r.Min.Y)*scale - float64(sr.Min.Y)
		}
		rs.box[i] = rs.box[i]*scale + origin
	}
	rs.region = sr
	return rs
}

// finish resamples src into the output, applies the colour steps and the
// flip, and writes the floats (or the 8-bit pixels).
func (p *Pipeline) finish(dst output, s *scratch, src view, rs *resampling, rng *rand.Rand) {
	g := &s.g
	if !g.warp {
		s.rs.prepare(rs)
	}
	w, h := p.size.X, p.size.Y
	s.sink = tensorSink{dst: dst.f, dst8: dst.b, w: w, h: h, at: g.at, layout: p.layout, lut: &p.lut}
	s.ops = s.ops[:0]
	if p.drawn {
		affinePixels(s)
	} else {
		for _, j := range p.colors {
			s.ops = j.draw(s.ops, rng)
		}
		s.sink.flip = p.flip > 0 && rng.Float64() < p.flip
	}
	if len(s.ops) == 0 {
		if g.pad {
			fillRows(&s.sink, w, h, g.fill)
		}
		p.resample(s, src, &s.sink)
		return
	}
	// Colour steps work on the 8-bit image: resample into it, adjust, then
	// write the floats.
	s.rgb = growUint8(s.rgb, 3*w*h)
	if g.pad {
		for i := range s.rgb {
			s.rgb[i] = g.fill
		}
	}
	out := view{pix: s.rgb, stride: 3 * w, w: w, h: h}
	s.rgbs = rgbSink{v: out, at: g.at}
	p.resample(s, src, &s.rgbs)
	for i := range s.ops {
		s.ops[i].apply(out)
	}
	s.sink.at = image.Point{}
	for y := range h {
		s.sink.row(y, out.pix[y*out.stride:][:3*w])
	}
}

// resample runs the geometry's resampling into sink.
func (p *Pipeline) resample(s *scratch, src view, sink rowSink) {
	g := &s.g
	if g.warp {
		s.rs.line = growUint8(s.rs.line, 3*p.size.X)
		warpRows(src, g.affine, g.rs.filter, g.fill, p.size.X, p.size.Y, s.rs.line, sink)
		return
	}
	s.rs.run(src, sink)
}

// fillRows writes the grey fill into every pixel of a w by h output.
func fillRows(s *tensorSink, w, h int, fill uint8) {
	var grey [3 * 256]uint8
	if fill != 0 {
		for i := range grey {
			grey[i] = fill
		}
	}
	for y := range h {
		for x := 0; x < w; x += 256 {
			s.rowAt(y, x, grey[:3*min(256, w-x)])
		}
	}
}

// rgbSink writes rows into an 8-bit image at an offset.
type rgbSink struct {
	v  view
	at image.Point
}

func (s *rgbSink) row(y int, px []uint8) {
	copy(s.v.pix[(y+s.at.Y)*s.v.stride+3*s.at.X:], px)
}

func floorInt(x float64) int {
	i := int(x)
	if float64(i) > x {
		i--
	}
	return i
}

func ceilInt(x float64) int {
	i := int(x)
	if float64(i) < x {
		i++
	}
	return i
}
