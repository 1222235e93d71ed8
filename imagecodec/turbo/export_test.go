package turbo

// SetScales makes the decoder use the scales n/8 of ns (smallest first)
// until the returned function restores them: BenchmarkScales measures
// scales the decoder does not use.
func SetScales(ns []int) (restore func()) {
	old := scales
	scales = ns
	return func() { scales = old }
}
