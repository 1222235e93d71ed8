package augment

import (
	"fmt"
	"image"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obskit/obskit/internal/pixel"
)

// TestKernelsMatchGo checks the resampler with internal/pixel's AVX2 kernels
// against the same with its Go loops (pixel.ForceGo), on random sources,
// crops, boxes, output sizes and filters: the bytes must be equal.
// internal/pixel's tests check each kernel on its own.
func TestKernelsMatchGo(t *testing.T) {
	if !pixel.AVX2() {
		t.Skip("no AVX2 on this machine (or built with purego): the Go loops are the only path")
	}
	t.Cleanup(func() { pixel.ForceGo(false) })
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
		pixel.ForceGo(false)
		got := resampleView(&fast, src, &rs).pixels()
		pixel.ForceGo(true)
		want := resampleView(&slow, src, &rs).pixels()
		pixel.ForceGo(false)
		if !slices.Equal(got, want) {
			maxd, _ := levelDiff(got, want)
			t.Fatalf("%s: the kernels differ from the Go loops by up to %d levels", name, maxd)
		}
	}
}
