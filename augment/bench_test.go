package augment_test

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"iter"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/imagedata"
	"github.com/obskit/obskit/internal/cputime"
	"github.com/obskit/obskit/internal/pypeer"
)

// BenchmarkImages is issue 16's speed comparison. An ImageNet-like set is
// made once per process from the photographs of testdata: benchN JPEGs near
// 500x375 at quality 90 (random crops of the photos, random sizes and aspect
// ratios, Go's encoder), written to a temporary ImageFolder for torchvision.
// Every iteration runs each side over the whole set, a quarter at a time,
// the sides taking turns on each quarter, so that the load of the machine
// falls on all alike:
//
//   - kit-w0, kit-w1, kit-w2: one shuffled epoch through eachobs.Batches in
//     batches of 64 (serially, with Workers(1), with Workers(2)) of
//     imagedata's container of decoded images (imagedata.NewImages over the
//     encoded bytes), which decodes each image and applies
//     RandomResizedCrop(224), RandomHorizontalFlip and Normalize into float32
//     CHW batches;
//   - kit-go-w0: the same, serially, with the pure-Go decoder, over the first
//     benchGoN images;
//   - kit-u8-w0, kit-u8-w2: the same as kit-w0 and kit-w2 with 8-bit output
//     (ApplyUint8, HWC or CHW bytes without ToTensor and Normalize, which a
//     trainer does on the device) into uint8 batches, through a container of
//     this file's (bench_uint8_test.go); kit-u8hwc-w0 the same in HWC
//     (GoMLX's channels-last layout: each row a copy);
//   - decode and decode-go: the same images decoded at full size by each
//     decoder, the decode-only baselines;
//   - tv-w0, tv-w1, tv-w2: torchvision's DataLoader(ImageFolder(...),
//     batch_size=64, shuffle=True, num_workers=0, 1, 2) with the same
//     transforms on the same files, a Subset for each quarter, the workers
//     kept from one quarter's epoch to the next (testdata/torchvision_peer.py,
//     when PYTHON, default /usr/bin/python3, has torchvision).
//
// Each side reports <side>-img/s-cpu, images per second of CPU time (the
// process's, and for torchvision its workers' too: images per second per
// core) and <side>-img/s, per second of wall time. The ratios: x-tv-w<k>,
// kit over torchvision per CPU second with the same number of workers;
// x-decode, the pipeline (kit-w0) over full-size decoding with the same
// decoder, per CPU second, x-decode-u8 the same for kit-u8-w0, x-u8/f32
// kit-u8-w0 over kit-w0, and x-decode-go for the pure-Go decoder;
// decode-share, the share of kit-w0's CPU time spent in the decoder;
// allocs/batch, the allocations of the process per batch in the steady state
// of kit-w0's last epoch (from its fifth batch; the buffers grow to the
// largest image in the first epochs), allocs/batch-w2 those of kit-w2 and
// allocs/batch-go those of kit-go-w0, whose decoder allocates (when its
// parts are long enough to have a steady state: 4 batches).
func BenchmarkImages(b *testing.B) {
	set := benchImageSet(b)
	p := augment.New(augment.CHW, augment.RandomResizedCrop{Size: image.Pt(224, 224)}, augment.RandomHorizontalFlip{}, augment.ImageNet)
	p8hwc := augment.New(augment.HWC, augment.RandomResizedCrop{Size: image.Pt(224, 224)}, augment.RandomHorizontalFlip{}, augment.ImageNet)
	fast, slow := benchDecoders()
	timed := &timedDecoder{Decoder: fast}
	all, goSet := benchParts(set), benchParts(set[:benchGoN])
	var allocs, allocsW2, allocsGo []float64
	sides := []benchSide{
		kitSide("kit-w0", all, p, timed, 0, &allocs),
		kitSide("kit-w1", all, p, fast, 1, new([]float64)),
		kitSide("kit-w2", all, p, fast, 2, &allocsW2),
		kitSide("kit-go-w0", goSet, p, slow, 0, &allocsGo),
		kitU8Side("kit-u8-w0", all, p, fast, 0),
		kitU8Side("kit-u8-w2", all, p, fast, 2),
		kitU8Side("kit-u8hwc-w0", all, p8hwc, fast, 0),
		decodeSide("decode", all, fast),
		decodeSide("decode-go", goSet, slow),
	}
	sides = append(sides, torchvisionSides(b, set)...)
	totals := map[string]*benchTotal{}
	for _, s := range sides {
		totals[s.name] = &benchTotal{}
	}
	var decodeCPU time.Duration
	b.ResetTimer()
	for b.Loop() {
		// Part by part, every side in turn, the first side rotating: the
		// load of the machine changes by the second.
		for part := range benchParts_ {
			for i := range sides {
				s := sides[(i+part)%len(sides)]
				timed.cpu = 0
				n, wall, cpu := s.run(b, part)
				t := totals[s.name]
				t.images += n
				t.wall += wall
				t.cpu += cpu
				if s.name == "kit-w0" {
					decodeCPU += timed.cpu
				}
			}
		}
	}
	b.StopTimer()
	for name, t := range totals {
		if t.images == 0 {
			continue
		}
		b.ReportMetric(float64(t.images)/t.cpu.Seconds(), name+"-img/s-cpu")
		b.ReportMetric(float64(t.images)/t.wall.Seconds(), name+"-img/s")
	}
	perCPU := func(name string) float64 {
		t := totals[name]
		if t == nil || t.images == 0 {
			return 0
		}
		return float64(t.images) / t.cpu.Seconds()
	}
	for _, w := range []string{"w0", "w1", "w2"} {
		if tv := perCPU("tv-" + w); tv > 0 {
			b.ReportMetric(perCPU("kit-"+w)/tv, "x-tv-"+w)
		}
	}
	b.ReportMetric(perCPU("kit-w0")/perCPU("decode"), "x-decode")
	b.ReportMetric(perCPU("kit-u8-w0")/perCPU("decode"), "x-decode-u8")
	b.ReportMetric(perCPU("kit-u8-w0")/perCPU("kit-w0"), "x-u8/f32")
	b.ReportMetric(perCPU("kit-u8hwc-w0")/perCPU("decode"), "x-decode-u8hwc")
	b.ReportMetric(perCPU("kit-go-w0")/perCPU("decode-go"), "x-decode-go")
	b.ReportMetric(decodeCPU.Seconds()/totals["kit-w0"].cpu.Seconds(), "decode-share")
	// The last epoch's: the buffers have grown to the largest image by then.
	for _, a := range []struct {
		unit   string
		epochs []float64
	}{{"allocs/batch", allocs}, {"allocs/batch-w2", allocsW2}, {"allocs/batch-go", allocsGo}} {
		if len(a.epochs) > 0 {
			b.ReportMetric(a.epochs[len(a.epochs)-1], a.unit)
		}
	}
}

// benchN is the size of the set; the pure-Go decoder's sides, four times as
// slow, run over its first benchGoN images. Each iteration runs the sides
// over benchParts_ parts of the set in turn.
const (
	benchN      = 2000
	benchGoN    = 1024
	benchParts_ = 4
)

// benchParts cuts set into benchParts_ parts.
func benchParts(set [][]byte) [][][]byte {
	parts := make([][][]byte, benchParts_)
	for k := range parts {
		parts[k] = set[k*len(set)/benchParts_ : (k+1)*len(set)/benchParts_]
	}
	return parts
}

type benchTotal struct {
	images    int
	wall, cpu time.Duration
}

// A benchSide processes one part of the set and says how many images, in how
// much wall and CPU time.
type benchSide struct {
	name string
	run  func(b *testing.B, part int) (n int, wall, cpu time.Duration)
}

// kitSide is a shuffled epoch of a part through the pipeline p with dec and
// eachobs in batches of 64, with workers goroutines (0: serially). It
// appends to allocs the allocations per batch of the process in the steady
// state of the epoch.
func kitSide(name string, parts [][][]byte, p *augment.Pipeline, dec imagecodec.Decoder, workers int, allocs *[]float64) benchSide {
	opts := []eachobs.Option{eachobs.Shuffle(1)}
	if workers > 0 {
		opts = append(opts, eachobs.Workers(workers))
	}
	var loops []iter.Seq[eachobs.Batch[*arraycontainer.Array[float32]]]
	for _, part := range parts {
		loops = append(loops, eachobs.Batches(imagedata.NewImages(container.FromSlice(part), p, dec), 64, opts...))
	}
	return benchSide{name, func(b *testing.B, part int) (int, time.Duration, time.Duration) {
		if workers == 0 {
			// The serial loop decodes in this goroutine: keep it on its
			// thread, so that the thread clock of timedDecoder holds.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
		}
		n := 0
		var m0, m1 runtime.MemStats
		c0, t0 := processCPU(), time.Now()
		for batch := range loops[part] {
			n += len(batch.Indices)
			// The steady state: from the third batch of the epoch to the last,
			// past the epoch's setup and before its end.
			switch {
			case batch.Count < 4:
				// Too short an epoch to have a steady state.
			case batch.Pos.Batch == 2:
				runtime.ReadMemStats(&m0)
			case batch.Pos.Batch == batch.Count-1:
				runtime.ReadMemStats(&m1)
				*allocs = append(*allocs, float64(m1.Mallocs-m0.Mallocs)/float64(batch.Count-3))
			}
		}
		return n, time.Since(t0), processCPU() - c0
	}}
}

// decodeSide decodes every image of a part at full size with dec into one
// reused buffer.
func decodeSide(name string, parts [][][]byte, dec imagecodec.Decoder) benchSide {
	var img *imagecodec.RGB
	return benchSide{name, func(b *testing.B, part int) (int, time.Duration, time.Duration) {
		c0, t0 := processCPU(), time.Now()
		for _, data := range parts[part] {
			var err error
			if img, _, err = dec.Decode(img, "bench.jpg", data, imagecodec.Request{}); err != nil {
				b.Fatal(err)
			}
		}
		return len(parts[part]), time.Since(t0), processCPU() - c0
	}}
}

// timedDecoder counts the CPU time its decoder spends, for one goroutine.
type timedDecoder struct {
	imagecodec.Decoder
	cpu time.Duration
}

func (d *timedDecoder) Config(name string, data []byte) (imagecodec.Config, error) {
	t := threadCPU()
	c, err := d.Decoder.Config(name, data)
	d.cpu += threadCPU() - t
	return c, err
}

func (d *timedDecoder) Decode(dst *imagecodec.RGB, name string, data []byte, req imagecodec.Request) (*imagecodec.RGB, float64, error) {
	t := threadCPU()
	img, scale, err := d.Decoder.Decode(dst, name, data, req)
	d.cpu += threadCPU() - t
	return img, scale, err
}

// processCPU is the process's CPU time, all threads.
func processCPU() time.Duration { d, _ := cputime.Process(); return d }

// threadCPU is the CPU time of the calling thread; the caller stays on its
// thread in between (a decoder call does not move).
func threadCPU() time.Duration { d, _ := cputime.Thread(); return d }

// torchvisionSides starts testdata/torchvision_peer.py on the set written as
// an ImageFolder and returns its sides, or none (the reason logged) when
// PYTHON has no torchvision.
func torchvisionSides(b *testing.B, set [][]byte) []benchSide {
	root := b.TempDir()
	for i, data := range set {
		dir := filepath.Join(root, fmt.Sprintf("class%d", i%10))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%04d.jpg", i)), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	peer := pypeer.Start(b, "torchvision", "testdata/torchvision_peer.py", len(set), root)
	if peer == nil {
		return nil
	}
	var sides []benchSide
	for w, name := range []string{"tv-w0", "tv-w1", "tv-w2"} {
		sides = append(sides, benchSide{name, func(b *testing.B, part int) (int, time.Duration, time.Duration) {
			return peer.Epoch(b, w, part*len(set)/benchParts_, (part+1)*len(set)/benchParts_)
		}})
	}
	return sides
}

// benchImageSet makes the set: from the photographs of testdata, benchN
// random crops of 40% to 100% of a photo's area, four in five landscape
// (width over height in [4/3, 16/9]) and the others portrait (the inverse),
// resized (Pillow's bilinear) so that the longer side is 450 to 550, encoded
// at quality 90.
var benchImageSet = func(b *testing.B) [][]byte {
	set, err := makeBenchSet()
	if err != nil {
		b.Fatal(err)
	}
	return set
}

var makeBenchSet = sync.OnceValues(func() ([][]byte, error) {
	var photos []*imagecodec.RGB
	for _, name := range []string{"astronaut_q90_420.jpg", "chelsea_q95_444.jpg", "coffee_q85_422.jpg"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			return nil, err
		}
		img, _, err := imagecodec.New(imagecodec.Options{}).Decode(nil, name, data, imagecodec.Request{})
		if err != nil {
			return nil, err
		}
		photos = append(photos, img)
	}
	rng := rand.New(rand.NewPCG(16, benchN))
	set := make([][]byte, benchN)
	var small *imagecodec.RGB
	for i := range set {
		src := photos[i%len(photos)]
		sw, sh := src.Rect.Dx(), src.Rect.Dy()
		ratio := 4.0/3 + rng.Float64()*(16.0/9-4.0/3)
		if rng.IntN(5) == 0 {
			ratio = 1 / ratio
		}
		area := float64(sw*sh) * (0.4 + 0.6*rng.Float64())
		w := min(sw, int(math.Sqrt(area*ratio)))
		h := min(sh, int(float64(w)/ratio))
		x0, y0 := rng.IntN(sw-w+1), rng.IntN(sh-h+1)
		long := 450 + rng.IntN(101)
		out := image.Pt(long, max(1, long*h/w))
		if h > w {
			out = image.Pt(max(1, long*w/h), long)
		}
		crop := src.SubImage(image.Rect(x0, y0, x0+w, y0+h)).(*imagecodec.RGB)
		small = augment.Bilinear.Resize(small, crop, out)
		rgba := image.NewRGBA(small.Rect)
		for k := range out.X * out.Y {
			copy(rgba.Pix[4*k:4*k+3], small.Pix[3*k:3*k+3])
			rgba.Pix[4*k+3] = 255
		}
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, rgba, &jpeg.Options{Quality: 90}); err != nil {
			return nil, err
		}
		set[i] = buf.Bytes()
	}
	return set, nil
})

// benchDecoders returns the fastest decoder of the build (libjpeg-turbo when
// it is available) and the pure-Go one.
func benchDecoders() (fast, slow imagecodec.Decoder) {
	return turbo.New(imagecodec.Options{}), imagecodec.New(imagecodec.Options{})
}
