package gomlx_test

import (
	"image"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/google/go-cmp/cmp"

	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/imagecodec"
)

// photo returns a 120x90 RGB image of smooth gradients and noise.
func photo() *imagecodec.RGB {
	rng := rand.New(rand.NewPCG(3, 4))
	img := &imagecodec.RGB{Pix: make([]uint8, 3*120*90), Stride: 3 * 120, Rect: image.Rect(0, 0, 120, 90)}
	for y := range 90 {
		for x := range 120 {
			p := img.Pix[y*img.Stride+3*x:]
			p[0], p[1], p[2] = uint8(2*x), uint8(2*y+rng.IntN(20)), uint8(rng.IntN(256))
		}
	}
	return img
}

// TestNormalizeMatchesAugment: a batch of augment's 8-bit output normalized
// in the graph by Normalize is, bit for bit, the batch of augment's float32
// output with the same Normalize step (ImageNet's mean and std), drawn from
// the same generators: in the same layout and moved to the other.
func TestNormalizeMatchesAugment(t *testing.T) {
	img := photo()
	const batch = 4
	for _, c := range []struct {
		in     augment.Layout
		layout gomlx.Layout
	}{{augment.HWC, gomlx.ChannelsLast}, {augment.CHW, gomlx.ChannelsFirst}} {
		steps := []augment.Step{augment.RandomResizedCrop{Size: image.Pt(24, 16)}, augment.RandomHorizontalFlip{}}
		p8 := augment.New(c.in, steps...)
		pf := augment.New(c.in, append(steps, augment.ImageNet)...)
		n := p8.Len()
		pixels, floats := make([]uint8, batch*n), make([]float32, batch*n)
		for k := range batch {
			if err := p8.ApplyRGBUint8(pixels[k*n:(k+1)*n], img, rand.New(rand.NewPCG(uint64(k), 1))); err != nil {
				t.Fatal(err)
			}
			if err := pf.ApplyRGB(floats[k*n:(k+1)*n], img, rand.New(rand.NewPCG(uint64(k), 1))); err != nil {
				t.Fatal(err)
			}
		}
		s := p8.Shape()
		dims := []int{batch, s[0], s[1], s[2]}
		for _, out := range []gomlx.Layout{gomlx.ChannelsLast, gomlx.ChannelsFirst} {
			exec, err := graph.NewExec(backend(), func(x *graph.Node) *graph.Node {
				return gomlx.Normalize(x, c.layout, out, 255, augment.ImageNet.Mean[:], augment.ImageNet.Std[:])
			})
			if err != nil {
				t.Fatal(err)
			}
			res, err := exec.Call(tensors.FromFlatDataAndDimensions(pixels, dims...))
			if err != nil {
				t.Fatal(err)
			}
			if res[0].DType() != dtypes.Float32 {
				t.Fatalf("Normalize gave %s", res[0].DType())
			}
			got := tensors.MustCopyFlatData[float32](res[0])
			want := floats
			if out != c.layout {
				want = transpose(floats, dims, c.layout)
			}
			if !cmp.Equal(want, got) {
				t.Errorf("%v to %v: the graph's floats differ from augment's float32 output", c.layout, out)
			}
		}
	}
}

// transpose moves the channels of a batch of images of shape dims, in layout
// from, to the other layout.
func transpose(v []float32, dims []int, from gomlx.Layout) []float32 {
	out := make([]float32, len(v))
	b, d1, d2, d3 := dims[0], dims[1], dims[2], dims[3]
	for n := range b {
		for i := range d1 {
			for j := range d2 {
				for k := range d3 {
					src := ((n*d1+i)*d2+j)*d3 + k
					var dst int
					if from == gomlx.ChannelsLast { // [n h w c] -> [n c h w]
						dst = ((n*d3+k)*d1+i)*d2 + j
					} else { // [n c h w] -> [n h w c]
						dst = ((n*d2+j)*d3+k)*d1 + i
					}
					out[dst] = v[src]
				}
			}
		}
	}
	return out
}
