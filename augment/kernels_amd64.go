//go:build !purego

package augment

// useAVX2 reports that the processor and the operating system support AVX2:
// CPUID leaf 7's AVX2 bit, and leaf 1's OSXSAVE with XGETBV enabling the
// XMM and YMM state.
var useAVX2 = func() bool {
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if eax, _ := xgetbv(); eax&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}()

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

// hrowAVX2 computes npairs pairs of blocks of a horizontal pass (see hsimd).
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
