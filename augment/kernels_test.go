package augment

import (
	"fmt"
	"image"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestKernelsMatchGo checks the AVX2 kernels against the Go loops on random
// sources, crops, boxes, output sizes and filters: the bytes must be equal.
// The sources are sized exactly, so that a kernel reading past the last
// row's end would fault.
func TestKernelsMatchGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 on this machine (or built with purego): the Go loops are the only path")
	}
	rng := rand.New(rand.NewPCG(11, 12))
	var fast, slow resampler
	for i := range 200 {
		w, h := 1+rng.IntN(300), 1+rng.IntN(200)
		src := view{pix: make([]uint8, 3*w*h), stride: 3 * w, w: w, h: h}
		for j := range src.pix {
			src.pix[j] = uint8(rng.IntN(256))
		}
		x0, y0 := rng.IntN(w), rng.IntN(h)
		region := image.Rect(x0, y0, x0+1+rng.IntN(w-x0), y0+1+rng.IntN(h-y0))
		out := image.Pt(1+rng.IntN(260), 1+rng.IntN(100))
		rs := resampling{
			filter: Filter(rng.IntN(int(numFilters))),
			region: region,
			box:    [4]float64{0, 0, float64(region.Dx()), float64(region.Dy())},
			out:    out,
			win:    image.Rectangle{Max: out},
		}
		name := fmt.Sprintf("%d: %v %dx%d %v -> %v", i, rs.filter, w, h, region, out)
		useAVX2 = true
		got := resampleView(&fast, src, &rs).pixels()
		useAVX2 = false
		want := resampleView(&slow, src, &rs).pixels()
		useAVX2 = true
		if !slices.Equal(got, want) {
			maxd, _ := levelDiff(got, want)
			t.Fatalf("%s: the kernels differ from the Go loops by up to %d levels", name, maxd)
		}
	}
}

// TestLutCHWMatchGo checks the AVX2 writer of planar floats against the Go
// loop, for every length from 0 to 40 pixels, mirrored or not.
func TestLutCHWMatchGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 on this machine (or built with purego): the Go loops are the only path")
	}
	rng := rand.New(rand.NewPCG(3, 3))
	var lut [3][256]float32
	for c := range lut {
		for v := range lut[c] {
			lut[c][v] = rng.Float32()
		}
	}
	for n := range 41 {
		px := make([]uint8, 3*n)
		for i := range px {
			px[i] = uint8(rng.IntN(256))
		}
		for _, flip := range []bool{false, true} {
			var got, want [3][]float32
			for c := range 3 {
				got[c], want[c] = make([]float32, n), make([]float32, n)
			}
			useAVX2 = false
			lutCHW(want[0], want[1], want[2], px, &lut, flip)
			useAVX2 = true
			lutCHW(got[0], got[1], got[2], px, &lut, flip)
			if !slices.Equal(got[0], want[0]) || !slices.Equal(got[1], want[1]) || !slices.Equal(got[2], want[2]) {
				t.Fatalf("%d pixels, flip %v: the kernel differs from the Go loop", n, flip)
			}
		}
	}
}
