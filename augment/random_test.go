package augment

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRandomResizedCropDistribution draws boxes as torchvision does and
// compares their distribution with torchvision's own draws (the means of the
// area fraction, the log aspect ratio and the relative position, within four
// standard errors), and checks every box: inside the image, its area fraction
// and ratio within range up to the rounding of a side to whole pixels, or the
// central fallback.
func TestRandomResizedCropDistribution(t *testing.T) {
	for _, c := range testCases(t).RRC {
		t.Run(fmt.Sprintf("%dx%d", c.Size[0], c.Size[1]), func(t *testing.T) {
			rrc := RandomResizedCrop{Size: image.Pt(8, 8), Scale: c.Scale, Ratio: c.Ratio}
			src := image.Pt(c.Size[0], c.Size[1])
			rng := rand.New(rand.NewPCG(7, 7))
			stats := map[string][]float64{}
			for range c.N {
				b := rrc.Box(src, rng)
				if !b.In(image.Rectangle{Max: src}) || b.Empty() {
					t.Fatalf("box %v is not inside %v", b, src)
				}
				w, h := float64(b.Dx()), float64(b.Dy())
				area := w * h / float64(src.X*src.Y)
				// A side rounded to whole pixels moves the area and the ratio by
				// at most half a pixel on each side.
				slack := (w+h)/(w*h) + 1e-9
				fallback := b.Min.X == (src.X-b.Dx())/2 && b.Min.Y == (src.Y-b.Dy())/2
				if !fallback && (area < c.Scale[0]*(1-slack) || area > c.Scale[1]*(1+slack)) {
					t.Fatalf("box %v: area fraction %v outside %v", b, area, c.Scale)
				}
				if r := w / h; r < c.Ratio[0]*(1-slack) || r > c.Ratio[1]*(1+slack) {
					t.Fatalf("box %v: ratio %v outside %v", b, r, c.Ratio)
				}
				stats["area"] = append(stats["area"], area)
				stats["logratio"] = append(stats["logratio"], math.Log(w/h))
				stats["x"] = append(stats["x"], relPos(b.Min.X, src.X-b.Dx()))
				stats["y"] = append(stats["y"], relPos(b.Min.Y, src.Y-b.Dy()))
			}
			for _, k := range []string{"area", "logratio", "x", "y"} {
				mean := 0.0
				for _, v := range stats[k] {
					mean += v
				}
				mean /= float64(len(stats[k]))
				// Both means have a standard error of std/sqrt(n).
				se := c.Std[k] * math.Sqrt(2/float64(c.N))
				if d := math.Abs(mean - c.Mean[k]); d > 4*se {
					t.Errorf("mean %s = %.4f, torchvision's %.4f: %.1f standard errors apart", k, mean, c.Mean[k], d/se)
				}
			}
		})
	}
}

func relPos(at, room int) float64 {
	if room == 0 {
		return 0.5
	}
	return float64(at) / float64(room)
}

// trainPipeline is RandomResizedCrop(32), a flip with probability p and
// ImageNet's normalization.
func trainPipeline(t testing.TB, layout Layout, p float64, extra ...Step) *Pipeline {
	t.Helper()
	steps := append([]Step{RandomResizedCrop{Size: image.Pt(32, 24)}}, extra...)
	if p > 0 {
		steps = append(steps, RandomHorizontalFlip{P: p})
	}
	pl := New(layout, append(steps, ImageNet)...)
	return pl
}

// TestFlip checks that a flip mirrors the output: with probability 1 the
// output is the mirror of the unflipped one drawn from the same generator, in
// both layouts, and with probability 0.5 about half the images are mirrored.
func TestFlip(t *testing.T) {
	src := rgbOf(loadPNG(t, "chelsea.png"))
	for _, layout := range []Layout{CHW, HWC} {
		plain, always := trainPipeline(t, layout, 0), trainPipeline(t, layout, 1)
		a, b := make([]float32, plain.Len()), make([]float32, plain.Len())
		for seed := range uint64(20) {
			plain.ApplyRGB(a, src, rand.New(rand.NewPCG(seed, 0)))
			always.ApplyRGB(b, src, rand.New(rand.NewPCG(seed, 0)))
			if diff := cmp.Diff(mirror(a, layout, 32, 24), b); diff != "" {
				t.Fatalf("%v seed %d: flipped output is not the mirror (-want +got):\n%s", layout, seed, diff)
			}
		}
	}
	half := trainPipeline(t, CHW, 0.5)
	plain := trainPipeline(t, CHW, 0)
	a, b := make([]float32, half.Len()), make([]float32, half.Len())
	n, flipped := 1000, 0
	for seed := range uint64(n) {
		plain.ApplyRGB(a, src, rand.New(rand.NewPCG(seed, 1)))
		half.ApplyRGB(b, src, rand.New(rand.NewPCG(seed, 1)))
		if !slices.Equal(a, b) {
			flipped++
		}
	}
	// Binomial(1000, 0.5): standard deviation 15.8.
	if flipped < n/2-70 || flipped > n/2+70 {
		t.Errorf("%d of %d images flipped with probability 0.5", flipped, n)
	}
}

// mirror returns a w by h image of floats mirrored left to right.
func mirror(a []float32, layout Layout, w, h int) []float32 {
	out := make([]float32, len(a))
	for y := range h {
		for x := range w {
			for c := range 3 {
				if layout == CHW {
					out[c*w*h+y*w+(w-1-x)] = a[c*w*h+y*w+x]
				} else {
					out[3*(y*w+(w-1-x))+c] = a[3*(y*w+x)+c]
				}
			}
		}
	}
	return out
}

// TestDeterminism checks that an image's augmentation is a function of the
// generator it is given: equal seeds give equal floats, from any goroutine
// and whatever else the pipeline does at the same time; different seeds give
// different crops.
func TestDeterminism(t *testing.T) {
	src := rgbOf(loadPNG(t, "chelsea.png"))
	p := trainPipeline(t, CHW, 0.5, ColorJitter{Brightness: 0.4, Contrast: 0.4, Saturation: 0.4, Hue: 0.1})
	const n = 64
	want := make([][]float32, n)
	for i := range want {
		want[i] = make([]float32, p.Len())
		p.ApplyRGB(want[i], src, rand.New(rand.NewPCG(42, uint64(i))))
	}
	distinct := map[float32]bool{}
	for _, w := range want {
		distinct[w[0]] = true
	}
	if len(distinct) < n/2 {
		t.Errorf("%d seeds gave only %d distinct first values", n, len(distinct))
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got := make([]float32, p.Len())
			for k := range n {
				i := (k*7 + g*13) % n // another order in every goroutine
				p.ApplyRGB(got, src, rand.New(rand.NewPCG(42, uint64(i))))
				if !slices.Equal(got, want[i]) {
					errs <- fmt.Errorf("goroutine %d: image %d differs from the serial run", g, i)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestColorJitterDraw checks the draws of ColorJitter: factors within their
// ranges, every order of the four adjustments about equally often, and the
// adjustments whose argument is zero left out.
func TestColorJitterDraw(t *testing.T) {
	j := ColorJitter{Brightness: 0.5, Contrast: 1.5, Saturation: 0.2, Hue: 0.3}
	rng := rand.New(rand.NewPCG(3, 4))
	orders := map[[4]colorKind]int{}
	var ops []colorOp
	n := 24000
	for range n {
		ops = j.draw(ops[:0], rng)
		if len(ops) != 4 {
			t.Fatalf("%d adjustments, want 4", len(ops))
		}
		var order [4]colorKind
		for i, op := range ops {
			order[i] = op.kind
			lo, hi := map[colorKind][2]float64{
				adjBrightness: {0.5, 1.5}, adjContrast: {0, 2.5}, adjSaturation: {0.8, 1.2}, adjHue: {-0.3, 0.3},
			}[op.kind][0], map[colorKind][2]float64{
				adjBrightness: {0.5, 1.5}, adjContrast: {0, 2.5}, adjSaturation: {0.8, 1.2}, adjHue: {-0.3, 0.3},
			}[op.kind][1]
			if op.f < lo || op.f >= hi {
				t.Fatalf("%v factor %v outside [%v, %v)", op.kind, op.f, lo, hi)
			}
		}
		orders[order]++
	}
	if len(orders) != 24 {
		t.Errorf("%d orders drawn, want 24", len(orders))
	}
	for o, k := range orders {
		// 1000 expected; standard deviation 31.
		if k < 850 || k > 1150 {
			t.Errorf("order %v drawn %d times in %d, want about %d", o, k, n, n/24)
		}
	}
	ops = ColorJitter{Hue: 0.1}.draw(ops[:0], rng)
	if len(ops) != 1 || ops[0].kind != adjHue {
		t.Errorf("ColorJitter{Hue: 0.1} draws %+v, want one hue shift", ops)
	}
}
