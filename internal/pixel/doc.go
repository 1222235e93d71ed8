// Package pixel holds the inner loops over rows of 8-bit RGB pixels (3 bytes a
// pixel) that package augment's passes run: the horizontal and vertical sums
// of a separable resampling in Pillow's fixed point ([HRow], [VRow]), the
// write of float32 planes through a lookup table ([LUTCHW]) and the writes of
// 8-bit output ([Planes], [Mirror]).
//
// Each function is AVX2 assembly on amd64 processors whose CPU and operating
// system support it (as golang.org/x/sys/cpu reports), and a Go loop
// elsewhere and with the purego build tag; both write the same bytes, and
// the tests compare them on random inputs. [ForceGo] makes the Go loops run
// everywhere, for tests of the callers.
//
// The functions trust their callers: lengths are checked only as far as Go's
// bounds checks reach, and the assembly reads exactly what the doc comments
// say. They never allocate (a [HPlan] grows its buffers when it is planned
// for a larger row than before) and start no goroutine.
package pixel
