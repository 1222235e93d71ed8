//go:build !amd64 || purego

package pixel

// hasAVX2 is false: no assembly is built here.
const hasAVX2 = false

func hrowAVX2(out, in *uint8, meta *int32, masks *uint8, w *int32, npairs int) {
	panic("obskit/internal/pixel: no AVX2 kernel on this build")
}

func vrowAVX2(out *uint8, n int, rows *uint8, stride int, k *int32, nk int) {
	panic("obskit/internal/pixel: no AVX2 kernel on this build")
}

func lutCHWAVX2(red, green, blue *float32, px *uint8, n int, lut *[3][256]float32, masks *[3][32]uint8, flip bool) {
	panic("obskit/internal/pixel: no AVX2 kernel on this build")
}

func shuffle3AVX2(o0, o1, o2 *uint8, lo, hi, step int, px *uint8, n int, masks *[9][32]uint8) {
	panic("obskit/internal/pixel: no AVX2 kernel on this build")
}
