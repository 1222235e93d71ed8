package augment

import (
	"image"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
)

// memDecoder decodes from pixels it holds, as a cropping decoder does: only
// the crop asked for is copied out, into dst's memory. With maxReduce above 1
// it decodes at scale 1/f, for the largest f in 2, 4, 8 up to maxReduce that
// keeps the crop at least Min, from a copy of the image reduced by f (Pillow's
// box filter, an average as a JPEG's DCT scaling is), rounding the crop
// outward as the contract says.
type memDecoder struct {
	full      view
	reduced   map[int]view
	maxReduce int
	mu        sync.Mutex // the counters; a decoder is safe for concurrent use
	scales    map[float64]int
	last      float64 // the scale of the last decode
}

func newMemDecoder(full view, maxReduce int) *memDecoder {
	d := &memDecoder{full: full, reduced: map[int]view{1: full}, maxReduce: maxReduce, scales: map[float64]int{}}
	var r resampler
	for f := 2; f <= maxReduce; f *= 2 {
		w, h := (full.w+f-1)/f, (full.h+f-1)/f
		d.reduced[f] = resampleView(&r, full, &resampling{
			filter: Box, region: image.Rect(0, 0, full.w, full.h),
			box: [4]float64{0, 0, float64(f * w), float64(f * h)},
			out: image.Pt(w, h), win: image.Rect(0, 0, w, h),
		})
	}
	return d
}

func (d *memDecoder) Config(name string, data []byte) (imagecodec.Config, error) {
	return imagecodec.Config{Format: imagecodec.JPEG, Width: d.full.w, Height: d.full.h, Orientation: 1}, nil
}

func (d *memDecoder) Decode(dst *imagecodec.RGB, name string, data []byte, req imagecodec.Request) (*imagecodec.RGB, float64, error) {
	crop := req.Crop.Intersect(image.Rect(0, 0, d.full.w, d.full.h))
	f := 1
	for req.Min != (image.Point{}) && 2*f <= d.maxReduce && crop.Dx() >= 2*f*req.Min.X && crop.Dy() >= 2*f*req.Min.Y {
		f *= 2
	}
	src, scale := d.reduced[f], 1/float64(f)
	crop = image.Rect(crop.Min.X/f, crop.Min.Y/f, (crop.Max.X+f-1)/f, (crop.Max.Y+f-1)/f)
	d.mu.Lock()
	d.scales[scale]++
	d.last = scale
	d.mu.Unlock()
	dst = imagecodec.Reuse(dst, crop)
	for y := crop.Min.Y; y < crop.Max.Y; y++ {
		copy(dst.Pix[(y-crop.Min.Y)*dst.Stride:][:3*crop.Dx()], src.pix[y*src.stride+3*crop.Min.X:])
	}
	return dst, scale, nil
}

// TestCropDecode checks that decoding only the crop changes nothing: Apply
// with a decoder that hands out only what is asked gives what ApplyRGB gives
// with the whole image, for the training pipeline, the evaluation one and
// Affine steps (rotated and sheared, or cropped and resized).
func TestCropDecode(t *testing.T) {
	full := loadPNG(t, "chelsea.png")
	whole := rgbOf(full)
	dec := newMemDecoder(full, 1)
	eval := New(CHW, Resize{Size: 50}, CenterCrop{Size: image.Pt(40, 30)}, ImageNet)
	var ps []*Pipeline
	for _, m := range []Affine{warpStep(image.Pt(50, 40)), cropStep(image.Pt(50, 40), 60, 110)} {
		p := New(HWC, m)
		ps = append(ps, p)
	}
	for _, p := range append(ps, trainPipeline(t, CHW, 0.5, ColorJitter{Contrast: 0.5}), eval) {
		a, b := make([]float32, p.Len()), make([]float32, p.Len())
		for seed := range uint64(50) {
			if err := p.ApplyRGB(a, whole, rand.New(rand.NewPCG(seed, 9))); err != nil {
				t.Fatal(err)
			}
			if err := p.Apply(b, dec, "chelsea", nil, rand.New(rand.NewPCG(seed, 9))); err != nil {
				t.Fatal(err)
			}
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("seed %d: float %d is %v decoding the crop, %v from the whole image", seed, i, b[i], a[i])
				}
			}
		}
	}
}

// TestScaledDecode checks where a crop decoded at a reduced scale is
// resampled from. On a gradient (two levels a pixel across in red and blue,
// two down in green) the box averages of the reduced images (each pass's
// included) are whole levels, the gradient's values at the boxes' centres, and a bilinear
// resampling of a gradient is its value at the output pixel's centre:
// decoding at 1/2, 1/4 or 1/8 must give the full-size output inside the
// output's border to within the filters' rounding (2 levels), with no bias (a
// mean of the signed differences within 0.05 of a level; a box misplaced by a
// pixel of the full-size image would move it by 2 levels).
func TestScaledDecode(t *testing.T) {
	const w, h = 128, 96
	full := view{pix: make([]uint8, 3*w*h), stride: 3 * w, w: w, h: h}
	for y := range h {
		for x := range w {
			full.pix[3*(y*w+x)], full.pix[3*(y*w+x)+1], full.pix[3*(y*w+x)+2] = uint8(2*x), uint8(2*y), uint8(255-2*x)
		}
	}
	whole := rgbOf(full)
	dec := newMemDecoder(full, 8)
	const ow, oh = 12, 9
	p := New(HWC, RandomResizedCrop{Size: image.Pt(ow, oh), Scale: [2]float64{0.1, 1}})
	a, b := make([]float32, p.Len()), make([]float32, p.Len())
	worst, bias, count := map[float64]float64{}, map[float64]float64{}, map[float64]int{}
	for seed := range uint64(300) {
		if err := p.ApplyRGB(a, whole, rand.New(rand.NewPCG(seed, 5))); err != nil {
			t.Fatal(err)
		}
		if err := p.Apply(b, dec, "gradient", nil, rand.New(rand.NewPCG(seed, 5))); err != nil {
			t.Fatal(err)
		}
		for y := 1; y < oh-1; y++ {
			for x := 1; x < ow-1; x++ {
				for c := range 3 {
					i := 3*(y*ow+x) + c
					d := 255 * float64(b[i]-a[i])
					worst[dec.last] = max(worst[dec.last], math.Abs(d))
					bias[dec.last] += d
					count[dec.last]++
				}
			}
		}
	}
	for s := range bias {
		bias[s] /= float64(count[s])
	}
	t.Logf("scales %v; inside the border, by scale: largest difference %v, mean signed difference %v levels", dec.scales, worst, bias)
	for _, s := range []float64{0.5, 0.25, 0.125} {
		if dec.scales[s] < 10 {
			t.Errorf("decoded at scale %v %d times of 300, want at least 10", s, dec.scales[s])
		}
		if worst[s] > 2.01 || math.Abs(bias[s]) > 0.05 {
			t.Errorf("decoding at scale %v differs from full size by up to %.2f levels (want <= 2), a mean of %.3f (want within 0.05)", s, worst[s], bias[s])
		}
	}
}

// TestApplyAllocs pins the pipeline at zero allocations per image once its
// buffers have grown, with and without colour steps, decoding or not.
func TestApplyAllocs(t *testing.T) {
	full := loadPNG(t, "chelsea.png")
	whole := rgbOf(full)
	dec := newMemDecoder(full, 8)
	for name, p := range map[string]*Pipeline{
		"train":  trainPipeline(t, CHW, 0.5),
		"jitter": trainPipeline(t, HWC, 0.5, ColorJitter{Brightness: 0.4, Contrast: 0.4, Saturation: 0.4, Hue: 0.1}),
	} {
		dst := make([]float32, p.Len())
		pcg := rand.NewPCG(1, 2)
		rng := rand.New(pcg)
		// Grow the buffers with the largest crop first.
		p.ApplyRGB(dst, whole, rng)
		if a := testing.AllocsPerRun(200, func() { p.ApplyRGB(dst, whole, rng) }); a != 0 {
			t.Errorf("%s: ApplyRGB allocates %v times per image", name, a)
		}
		if a := testing.AllocsPerRun(200, func() { _ = p.Apply(dst, dec, "chelsea", nil, rng) }); a != 0 {
			t.Errorf("%s: Apply allocates %v times per image", name, a)
		}
	}
}

// TestTurboScaled runs random crops of a photograph through libjpeg-turbo's
// cropped and DCT-scaled decoding and compares them with the same crops
// resampled from the whole image at full size. The DCT's reduced images are
// not box averages: the difference grows with the reduction, from about a
// level at 1/2 and 3/8 to a mean of about 3.5 levels at 1/4 and 1/8 on this
// photo's detail; the tolerances hold what was measured, with room.
func TestTurboScaled(t *testing.T) {
	if err := turbo.Available().Err; err != nil {
		t.Skipf("libjpeg-turbo is not available: %v", err)
	}
	data, err := os.ReadFile("testdata/astronaut_q90_420.jpg")
	if err != nil {
		t.Fatal(err)
	}
	dec := turbo.New(imagecodec.Options{})
	whole, _, err := dec.Decode(nil, "astronaut", data, imagecodec.Request{})
	if err != nil {
		t.Fatal(err)
	}
	p := New(CHW, RandomResizedCrop{Size: image.Pt(48, 40)}, RandomHorizontalFlip{}, ImageNet)
	scales := map[float64]int{}
	counting := countScales{dec, scales, new(float64)}
	a, b := make([]float32, p.Len()), make([]float32, p.Len())
	worst := map[float64]float64{}
	for seed := range uint64(60) {
		if err := p.ApplyRGB(a, whole, rand.New(rand.NewPCG(seed, 2))); err != nil {
			t.Fatal(err)
		}
		if err := p.Apply(b, counting, "astronaut", data, rand.New(rand.NewPCG(seed, 2))); err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for i := range a {
			// Back to levels: Normalize's std is about 0.22.
			sum += math.Abs(float64(a[i]-b[i])) * 0.225 * 255
		}
		worst[*counting.last] = max(worst[*counting.last], sum/float64(len(a)))
	}
	if scales[0.5]+scales[0.25]+scales[0.125] == 0 {
		t.Fatalf("no crop decoded at a reduced scale: %v", scales)
	}
	t.Logf("scales %v; worst mean difference by scale %v levels", scales, worst)
	for s, w := range worst {
		// Full size is exact; 3/8 and 1/2 measured about a level; 1/4 and 1/8
		// about 3.5.
		tol := 0.0
		switch {
		case s >= 0.375 && s < 1:
			tol = 1.5
		case s < 0.375:
			tol = 5
		}
		if w > tol {
			t.Errorf("decoding the crop at scale %v differs from full size by a mean of up to %.2f levels, want <= %v", s, w, tol)
		}
	}
}

// countScales counts the scales its decoder decodes at.
type countScales struct {
	imagecodec.Decoder
	scales map[float64]int
	last   *float64
}

func (d countScales) Decode(dst *imagecodec.RGB, name string, data []byte, req imagecodec.Request) (*imagecodec.RGB, float64, error) {
	img, scale, err := d.Decoder.Decode(dst, name, data, req)
	d.scales[scale]++
	*d.last = scale
	return img, scale, err
}

// benchImages is a container of encoded images whose observation i is
// image i decoded and augmented, drawn with the generator of (seed, epoch,
// i); its batches are the floats of the images one after the other, with
// their labels: the loop of package imagedata's Images, written here so that
// the allocation pin runs inside this package (imagedata imports it).
type benchImages struct {
	files [][]byte
	p     *Pipeline
	dec   imagecodec.Decoder
}

type benchBatch struct {
	X []float32
	Y []int32
}

var _ container.Random[benchBatch, benchBatch] = (*benchImages)(nil)

func (c *benchImages) Nobs() int { return len(c.files) }

func (c *benchImages) GetObs(i int) benchBatch {
	return c.GetObsRand(i, container.ObsRand{})
}

func (c *benchImages) GetObsInto(dst benchBatch, idx []int) benchBatch {
	return c.GetObsRandInto(dst, idx, container.NewObsRand(0, 0))
}

func (c *benchImages) GetObsRand(i int, r container.ObsRand) benchBatch {
	return c.GetObsRandInto(benchBatch{}, []int{i}, r)
}

func (c *benchImages) GetObsRandInto(dst benchBatch, idx []int, r container.ObsRand) benchBatch {
	container.CheckIndices("benchImages", idx, len(c.files))
	n := c.p.Len()
	dst.X = container.Resize(dst.X, len(idx)*n)
	dst.Y = container.Resize(dst.Y, len(idx))
	for k, i := range idx {
		if err := c.p.Apply(dst.X[k*n:(k+1)*n], c.dec, "bench.jpg", c.files[i], r.For(i)); err != nil {
			panic(err)
		}
		dst.Y[k] = int32(i % 10)
	}
	return dst
}

// TestLoopAllocs pins the whole loop of the benchmark, eachobs over a
// container that decodes and augments into the batch, serially and with two
// workers: once the buffers have grown (a scratch grows to the whole source
// image on its first image), no allocation from the second batch of an epoch
// to its last. The pipeline keeps one scratch per call that ever ran at
// once, so a loop allocates one more set of buffers the first time its
// workers overlap in Apply; the test gives the pipeline its two scratches
// first, since when the workers first overlap depends on the scheduler.
//
// The Go runtime allocates now and then on its own: a thread when
// ReadMemStats restarts the world, a channel waiter (sudog) after a garbage
// collection has emptied its cache. Those are not the loop's, and they do not
// recur: an allocation of the loop happens in every epoch (the draws are the
// same on every run), so the test fails when each of three epochs allocates.
func TestLoopAllocs(t *testing.T) {
	full := loadPNG(t, "chelsea.png")
	files := make([][]byte, 48)
	p := trainPipeline(t, CHW, 0.5)
	c := &benchImages{files: files, p: p, dec: newMemDecoder(full, 8)}
	warmScratches(p, 2, func(rng *rand.Rand) {
		c.GetObsRandInto(benchBatch{}, []int{0}, container.NewObsRand(1, 0))
	})
	for _, opts := range [][]eachobs.Option{{eachobs.Shuffle(3)}, {eachobs.Shuffle(3), eachobs.Workers(2)}} {
		loop := eachobs.Batches(c, 8, opts...)
		for range 3 {
			for range loop {
			}
		}
		var counts []uint64
		for range 3 {
			var m0, m1 runtime.MemStats
			for b := range loop {
				switch b.Pos.Batch {
				case 1:
					runtime.ReadMemStats(&m0)
				case b.Count - 1:
					runtime.ReadMemStats(&m1)
				}
			}
			counts = append(counts, m1.Mallocs-m0.Mallocs)
			if counts[len(counts)-1] == 0 {
				break
			}
		}
		if slices.Index(counts, 0) < 0 {
			t.Errorf("%d options: %v allocations from the second batch to the last in three epochs", len(opts), counts)
		}
	}
}

// warmScratches puts n scratches on p's free list, each grown by one call of
// apply, as n calls at once would leave them.
func warmScratches(p *Pipeline, n int, apply func(*rand.Rand)) {
	held := make([]*scratch, 0, n)
	for range n {
		apply(rand.New(rand.NewPCG(1, 2)))
		held = append(held, p.free.Get())
	}
	for _, s := range held {
		p.free.Put(s)
	}
}
