package turbo_test

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/image/draw"

	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/internal/cputime"
	"github.com/obskit/obskit/internal/pypeer"
)

// The benchmark set: 300 JPEGs of 500x375 at quality 90 (4:2:0, Go's
// encoder), random 4:3 crops of 50% to 100% of the area of the photographs
// of testdata, resized with x/image/draw's bilinear filter. Made once per
// process from a fixed seed.
const (
	benchN         = 300
	benchW, benchH = 500, 375
)

var benchCrop = image.Rect(125, 94, 375, 282) // the middle 250x188

var benchSet = sync.OnceValues(func() ([][]byte, error) {
	var photos []image.Image
	for _, name := range []string{"astronaut.png", "chelsea_q95_444.jpg", "coffee_q85_422.jpg", "orig_rocket.jpg", "orig_hubble_deep_field.jpg", "astronaut_q90_420.jpg"} {
		data, err := os.ReadFile("../testdata/images/" + name)
		if err != nil {
			return nil, err
		}
		img, _, err := imagecodec.New(imagecodec.Options{}).Decode(nil, name, data, imagecodec.Request{})
		if err != nil {
			return nil, err
		}
		rgba := image.NewRGBA(img.Rect) // for x/image/draw's fast path
		draw.Copy(rgba, image.Point{}, img, img.Rect, draw.Src, nil)
		photos = append(photos, rgba)
	}
	r := rand.New(rand.NewPCG(16, 300))
	set := make([][]byte, benchN)
	dst := image.NewRGBA(image.Rect(0, 0, benchW, benchH))
	for i := range set {
		p := photos[i%len(photos)]
		b := p.Bounds()
		s := 0.5 + 0.5*r.Float64() // area
		w := min(b.Dx(), int(float64(b.Dy())*4/3))
		w = int(float64(w) * s)
		h := w * 3 / 4
		x0, y0 := r.IntN(b.Dx()-w+1), r.IntN(b.Dy()-h+1)
		draw.BiLinear.Scale(dst, dst.Bounds(), p, image.Rect(x0, y0, x0+w, y0+h), draw.Src, nil)
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 90}); err != nil {
			return nil, err
		}
		set[i] = buf.Bytes()
	}
	return set, nil
})

// A side is one way of decoding the whole set once; run returns the wall
// time and the CPU time it took.
type side struct {
	name string
	run  func(b *testing.B) (wall, cpu time.Duration)
}

// decodeSide decodes every image of set with d and req into one reused
// buffer.
func decodeSide(name string, d imagecodec.Decoder, set [][]byte, req imagecodec.Request) side {
	var dst *imagecodec.RGB
	return side{name, func(b *testing.B) (time.Duration, time.Duration) {
		t, c := time.Now(), processCPU()
		for _, data := range set {
			var err error
			if dst, _, err = d.Decode(dst, "bench.jpg", data, req); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(t), processCPU() - c
	}}
}

// pillow starts testdata/pillow_decode.py on the set and returns its sides,
// or none (with the reason logged) when PYTHON (default /usr/bin/python3)
// has no Pillow.
func pillow(b *testing.B, set [][]byte) []side {
	dir := b.TempDir()
	for i, data := range set {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d.jpg", i)), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	peer := pypeer.Start(b, "PIL", "testdata/pillow_decode.py", len(set), dir)
	if peer == nil {
		return nil
	}
	ask := func(name, mode string) side {
		return side{name, func(b *testing.B) (time.Duration, time.Duration) {
			c := benchCrop
			line := peer.Ask(b, mode, c.Min.X, c.Min.Y, c.Max.X, c.Max.Y)
			var t [2]time.Duration
			for k, f := range strings.Fields(line) {
				s, err := strconv.ParseFloat(f, 64)
				if err != nil || k > 1 {
					b.Fatalf("pillow_decode.py: %q", line)
				}
				t[k] = time.Duration(s * float64(time.Second))
			}
			return t[0], t[1]
		}}
	}
	return []side{ask("pillow-full", "full"), ask("pillow-half", "half"), ask("pillow-quarter", "quarter"), ask("pillow-crop", "crop")}
}

// BenchmarkDecode decodes the 300 JPEGs of the benchmark set, decode only,
// with every decoder and request in turn in each iteration (so that the
// load of the machine weighs on all alike), and reports each side's
// images/s, by the wall clock and per second of CPU time (the process's,
// all threads: Go's collector included; Python's process_time), and the
// libjpeg-turbo and pure-Go sides over Pillow's full decode, by CPU time.
// On a busy machine the CPU figures are the ones to read. Sides: full size; scale 1/2 and 1/4 (Min half or a quarter of
// the size); the middle 250x188 crop at full size (Pillow decodes all,
// then crops). It runs libjpeg-turbo's sides only when it is available and
// Pillow's when PYTHON has PIL (testdata/pillow_decode.py, timed in Python).
//
//	go test -run '^$' -bench Decode -benchtime 5x ./imagecodec/turbo/
func BenchmarkDecode(b *testing.B) {
	set, err := benchSet()
	if err != nil {
		b.Fatal(err)
	}
	pure := imagecodec.New(imagecodec.Options{})
	sides := []side{
		decodeSide("go-full", pure, set, imagecodec.Request{}),
		decodeSide("go-crop", pure, set, imagecodec.Request{Crop: benchCrop}),
	}
	if err := turbo.Available().Err; err != nil {
		b.Logf("no libjpeg-turbo: %v", err)
	} else {
		t := turbo.New(imagecodec.Options{})
		sides = append(sides,
			decodeSide("turbo-full", t, set, imagecodec.Request{}),
			decodeSide("turbo-half", t, set, imagecodec.Request{Min: image.Pt(benchW/2, benchH/2)}),
			decodeSide("turbo-quarter", t, set, imagecodec.Request{Min: image.Pt(benchW/4, benchH/4)}),
			decodeSide("turbo-crop", t, set, imagecodec.Request{Crop: benchCrop}),
		)
	}
	sides = append(sides, pillow(b, set)...)
	wall := make([]time.Duration, len(sides))
	cpu := make([]time.Duration, len(sides))
	for _, s := range sides { // warm up: buffers, caches, Pillow's imports
		s.run(b)
	}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		// Rotate which side goes first.
		for k := range sides {
			j := (i + k) % len(sides)
			b.StopTimer()
			runtime.GC() // the garbage of the side before is not this one's CPU time
			b.StartTimer()
			w, c := sides[j].run(b)
			wall[j] += w
			cpu[j] += c
		}
		i++
	}
	rate := map[string]float64{} // per CPU second
	for j, s := range sides {
		n := float64(i * len(set))
		b.ReportMetric(n/wall[j].Seconds(), s.name+"-images/s")
		if cpu[j] > 0 {
			rate[s.name] = n / cpu[j].Seconds()
			b.ReportMetric(rate[s.name], s.name+"-images/cpu-s")
		}
	}
	if p := rate["pillow-full"]; p > 0 {
		for _, n := range []string{"go-full", "turbo-full", "turbo-half", "turbo-quarter", "turbo-crop"} {
			if rate[n] > 0 {
				b.ReportMetric(rate[n]/p, n+"/pillow-full")
			}
		}
	}
	b.ReportMetric(0, "ns/op")
}

// processCPU is the process's CPU time, all threads (0 where it cannot be read).
func processCPU() time.Duration { d, _ := cputime.Process(); return d }
