package pixel

// useAVX2 is whether the functions run the AVX2 assembly: hasAVX2, unless
// ForceGo switched it off.
var useAVX2 = hasAVX2

// AVX2 reports whether the functions run AVX2 assembly.
func AVX2() bool { return useAVX2 }

// ForceGo makes every function of the package run its Go loop when on is
// true, and the assembly again (where the processor has AVX2) when it is
// false: for tests that compare the two through a caller. It must not be
// called while another goroutine runs a function of the package, and a
// [HPlan] planned before the call must be planned again.
func ForceGo(on bool) { useAVX2 = hasAVX2 && !on }
