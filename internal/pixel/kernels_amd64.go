//go:build !purego

package pixel

import "golang.org/x/sys/cpu"

// hasAVX2 reports that the processor has AVX2 and the operating system saves
// the YMM registers (x/sys/cpu checks both).
var hasAVX2 = cpu.X86.HasAVX2

// hrowAVX2 computes npairs pairs of blocks of a horizontal pass (see HPlan).
//
//go:noescape
func hrowAVX2(out, in *uint8, meta *int32, masks *uint8, w *int32, npairs int)

// vrowAVX2 computes n values (a multiple of 16) of a vertical pass from nk
// rows stride bytes apart.
//
//go:noescape
func vrowAVX2(out *uint8, n int, rows *uint8, stride int, k *int32, nk int)

// lutCHWAVX2 writes n pixels (a multiple of 8) of px as floats of lut into
// the planes at red, green and blue (see kernels_amd64.s).
//
//go:noescape
func lutCHWAVX2(red, green, blue *float32, px *uint8, n int, lut *[3][256]float32, masks *[3][32]uint8, flip bool)

// shuffle3AVX2 rearranges n pixels (a multiple of 32) of px into three
// outputs, 16 bytes of each lane at a time, by the shuffles masks (see
// write8.go and kernels_amd64.s).
//
//go:noescape
func shuffle3AVX2(o0, o1, o2 *uint8, lo, hi, step int, px *uint8, n int, masks *[9][32]uint8)
