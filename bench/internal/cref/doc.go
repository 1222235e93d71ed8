// Package cref is the C reference of the benchmark suite: the shuffled rows of
// a gather copied by C's memcpy (glibc's on Linux), without and with software
// prefetch. It is the measured limit of a shuffled gather on the machine at
// hand, beside copy() of contiguous bytes, and it is written as a C programmer
// would write it: a loop of memcpy calls, compiled with -O2 by the C compiler
// that go test -race already needs.
//
// It is built only with cgo ([Available]); without it the functions panic and
// the benchmarks that use it skip their C sides.
package cref

// check panics unless dst holds len(idx) rows of n bytes and every row lies
// within src, so that the C code, which checks nothing, reads and writes only
// the memory it is given.
func check(dst, src []byte, n, stride int, idx []int) {
	if n <= 0 || len(dst) < n*len(idx) {
		panic("obskit/bench/internal/cref: dst does not hold the rows")
	}
	for _, i := range idx {
		if o := i * stride; i < 0 || o < 0 || o > len(src)-n || stride != 0 && o/stride != i {
			panic("obskit/bench/internal/cref: a row outside src")
		}
	}
}
