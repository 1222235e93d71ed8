package pixel

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// paths are the ways the functions run here: the Go loops, and the AVX2
// assembly where this processor and build have it.
func paths(t testing.TB) []string {
	t.Cleanup(func() { ForceGo(false) })
	if !hasAVX2 {
		t.Log("no AVX2 on this machine (or built with purego): testing the Go loops only")
		return []string{"go"}
	}
	return []string{"go", "avx2"}
}

// run switches to path.
func run(path string) { ForceGo(path == "go") }

// randBytes fills b with random bytes of rng.
func randBytes(rng *rand.Rand, b []byte) {
	for i := range b {
		b[i] = uint8(rng.IntN(256))
	}
}

// randTaps returns the taps of a resampling of in samples to out, as a
// separable filter of random support has them: output i reads the samples
// around its centre, clipped to the source, with random weights (some
// negative) whose absolute sum keeps 255 times it within an int32.
func randTaps(rng *rand.Rand, in, out int) *Taps {
	scale := float64(in) / float64(out)
	support := max(1, scale) * (0.5 + 2.5*rng.Float64())
	ksize := 2*int(support) + 3
	h := &Taps{KSize: ksize, Start: make([]int32, out), N: make([]int32, out), K: make([]int32, out*ksize)}
	for i := range out {
		c := (float64(i) + 0.5) * scale
		lo := max(0, min(in-1, int(c-support+0.5)))
		hi := max(lo+1, min(in, int(c+support+0.5)))
		n := min(hi-lo, ksize)
		h.Start[i], h.N[i] = int32(lo), int32(n)
		for t := range n {
			h.K[i*ksize+t] = int32(rng.IntN(3<<21/n)) - int32(1<<19/n)
		}
	}
	return h
}

// TestHRow: HRow against a naive sum of each value's taps, on random rows
// and taps (shrinking and enlarging, up to 300 pixels in and 260 out), with
// the row's end at an unreadable page (the last row of an image) and with
// bytes after it, through the Go loop and the AVX2 kernel.
func TestHRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var s HPlan
	for _, path := range paths(t) {
		run(path)
		planned := 0 // cases the kernel computes part of
		for i := range 300 {
			in, out := 1+rng.IntN(300), 1+rng.IntN(260)
			h := randTaps(rng, in, out)
			extra := []int{0, rng.IntN(64)}[i%2]
			buf := guarded(t, 3*in+extra)
			randBytes(rng, buf)
			src := buf[:3*in]
			want := make([]uint8, 3*out)
			for j := range want {
				x, c := j/3, j%3
				sum := int32(1 << (PrecisionBits - 1))
				for tap := range int(h.N[x]) {
					sum += int32(src[3*(int(h.Start[x])+tap)+c]) * h.K[x*h.KSize+tap]
				}
				want[j] = Clip8(sum)
			}
			s.Plan(h, h.KSize, out)
			if len(s.meta) > 0 {
				planned++
			}
			got := guarded(t, 3*out)
			HRow(got, src, len(buf), h, &s)
			if !slices.Equal(got, want) {
				t.Fatalf("%s, %d: %d pixels to %d (%d bytes after the row): HRow differs from the sums at byte %d", path, i, in, out, extra, firstDiff(got, want))
			}
		}
		// A block's samples must lie within 16 bytes, which shrinking by
		// more than 4 prevents; the others must be planned.
		if path == "avx2" && planned < 150 {
			t.Errorf("the AVX2 kernel computed part of %d cases of 300", planned)
		}
	}
}

// TestVRow: VRow against a naive sum down the columns, on random rows (any
// stride, the last row ending at an unreadable page), weights and widths
// from 0 to 200 values, through the Go loop and the AVX2 kernel.
func TestVRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, path := range paths(t) {
		run(path)
		for i := range 300 {
			width := rng.IntN(200)
			stride := width + rng.IntN(40)
			nk := 1 + rng.IntN(12)
			ys := rng.IntN(5)
			buf := guarded(t, (ys+nk-1)*stride+width)
			randBytes(rng, buf)
			k := make([]int32, nk)
			for j := range k {
				k[j] = int32(rng.IntN(3<<21/nk)) - int32(1<<19/nk)
			}
			want := make([]uint8, width)
			for x := range want {
				sum := int32(1 << (PrecisionBits - 1))
				for j, w := range k {
					sum += int32(buf[(ys+j)*stride+x]) * w
				}
				want[x] = Clip8(sum)
			}
			got := guarded(t, width)
			VRow(got, make([]int32, width), buf, stride, ys, k)
			if !slices.Equal(got, want) {
				t.Fatalf("%s, %d: %d values, stride %d, %d taps from row %d: VRow differs at %d", path, i, width, stride, nk, ys, firstDiff(got, want))
			}
		}
	}
}

// TestLUTCHW: LUTCHW against the table lookup of each pixel, for every
// length from 0 to 70 pixels and some longer, mirrored or not, each plane
// ending at an unreadable page, through the Go loop and the AVX2 kernel.
func TestLUTCHW(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var lut [3][256]float32
	for c := range lut {
		for v := range lut[c] {
			lut[c][v] = rng.Float32()
		}
	}
	for _, path := range paths(t) {
		run(path)
		for _, n := range lengths() {
			px := guarded(t, 3*n)
			randBytes(rng, px)
			for _, flip := range []bool{false, true} {
				var got [3][]float32
				for c := range got {
					got[c] = guardedFloats(t, n)
				}
				LUTCHW(got[0], got[1], got[2], px, &lut, flip)
				for x := range n {
					o := x
					if flip {
						o = n - 1 - x
					}
					for c := range 3 {
						if want := lut[c][px[3*x+c]]; got[c][o] != want {
							t.Fatalf("%s: %d pixels, flip %v: pixel %d channel %d is %v at %d, want %v", path, n, flip, x, c, got[c][o], o, want)
						}
					}
				}
			}
		}
	}
}

// TestPlanes: Planes against the deinterleave of each pixel, for every
// length from 0 to 70 pixels and some longer, mirrored or not, each plane
// ending at an unreadable page and preceded by bytes that must stay as they
// were, through the Go loop and the AVX2 kernel.
func TestPlanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const before = 40
	for _, path := range paths(t) {
		run(path)
		for _, n := range lengths() {
			px := guarded(t, 3*n)
			randBytes(rng, px)
			for _, flip := range []bool{false, true} {
				var planes [3][]uint8
				for c := range planes {
					planes[c] = guarded(t, before+n)
					randBytes(rng, planes[c][:before])
				}
				heads := [3][]uint8{slices.Clone(planes[0][:before]), slices.Clone(planes[1][:before]), slices.Clone(planes[2][:before])}
				Planes(planes[0][before:], planes[1][before:], planes[2][before:], px, flip)
				for c := range 3 {
					if !slices.Equal(planes[c][:before], heads[c]) {
						t.Fatalf("%s: %d pixels, flip %v: plane %d was written before its start", path, n, flip, c)
					}
					got := planes[c][before:]
					for x := range n {
						o := x
						if flip {
							o = n - 1 - x
						}
						if got[o] != px[3*x+c] {
							t.Fatalf("%s: %d pixels, flip %v: pixel %d channel %d is %d at %d, want %d", path, n, flip, x, c, got[o], o, px[3*x+c])
						}
					}
				}
			}
		}
	}
}

// TestMirror: Mirror against the reversal of the pixels, for every length
// from 0 to 70 pixels and some longer, the output ending at an unreadable
// page and preceded by bytes that must stay as they were, through the Go loop
// and the AVX2 kernel.
func TestMirror(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const before = 100
	for _, path := range paths(t) {
		run(path)
		for _, n := range lengths() {
			px := guarded(t, 3*n)
			randBytes(rng, px)
			buf := guarded(t, before+3*n)
			randBytes(rng, buf)
			head := slices.Clone(buf[:before])
			Mirror(buf[before:], px)
			if !slices.Equal(buf[:before], head) {
				t.Fatalf("%s: %d pixels: written before the output's start", path, n)
			}
			got := buf[before:]
			for x := range n {
				o := 3 * (n - 1 - x)
				if !slices.Equal(got[o:o+3], px[3*x:3*x+3]) {
					t.Fatalf("%s: %d pixels: pixel %d is %v at %d, want %v", path, n, x, got[o:o+3], n-1-x, px[3*x:3*x+3])
				}
			}
		}
	}
}

// TestAllocs pins the functions at zero allocations, and a plan at zero once
// its buffers have grown.
func TestAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	h := randTaps(rng, 300, 224)
	src := make([]uint8, 3000)
	dst := make([]uint8, 3*224)
	planes := make([]uint8, 3*224)
	acc := make([]int32, 3*224)
	var lut [3][256]float32
	f := make([]float32, 3*224)
	var s HPlan
	s.Plan(h, h.KSize, 224)
	for _, path := range paths(t) {
		run(path)
		a := testing.AllocsPerRun(100, func() {
			s.Plan(h, h.KSize, 224)
			HRow(dst, src, len(src), h, &s)
			VRow(dst, acc, src, 700, 0, h.K[:3])
			LUTCHW(f[:224], f[224:448], f[448:], dst, &lut, true)
			Planes(planes[:224], planes[224:448], planes[448:], dst, true)
			Mirror(planes, dst)
		})
		if a != 0 {
			t.Errorf("%s: %v allocations a run", path, a)
		}
	}
}

// lengths are the pixel counts the write tests try.
func lengths() []int {
	n := make([]int, 0, 80)
	for i := range 71 {
		n = append(n, i)
	}
	return append(n, 95, 96, 97, 127, 128, 224, 255, 1000)
}

// guardedFloats is guarded for n float32s.
func guardedFloats(t testing.TB, n int) []float32 {
	b := guarded(t, 4*n)
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), n)
}

// firstDiff returns the first index where a and b differ.
func firstDiff(a, b []uint8) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// BenchmarkWrite8 measures the 8-bit writes of a row of 224 pixels (a
// RandomResizedCrop(224) output row), the Go loop beside the AVX2 kernel.
func BenchmarkWrite8(b *testing.B) {
	const n = 224
	px := make([]uint8, 3*n)
	out := make([]uint8, 3*n)
	for _, path := range paths(b) {
		for _, c := range []struct {
			name string
			f    func()
		}{
			{"planes", func() { Planes(out[:n], out[n:2*n], out[2*n:], px, false) }},
			{"planes-flip", func() { Planes(out[:n], out[n:2*n], out[2*n:], px, true) }},
			{"mirror", func() { Mirror(out, px) }},
			{"copy", func() { copy(out, px) }},
		} {
			b.Run(fmt.Sprintf("%s/%s", c.name, path), func(b *testing.B) {
				run(path)
				b.SetBytes(3 * n)
				b.ReportAllocs()
				for b.Loop() {
					c.f()
				}
			})
		}
	}
}
