package stream

import "slices"

// SortWindow returns a [Reader] that reads r in windows of size values and
// yields each window sorted by cmp (stably: equal values keep their order), the
// last, shorter window too. It is Fuel's recipe of batching a large window,
// sorting it (SortMapping) and unpacking it again: sorting by sequence length
// before [Batches] gives batches of similar lengths, which need little padding.
// cmp returns a negative number when a sorts before b, as for
// [slices.SortStableFunc]. An error of r ends the stream; the unfinished window
// is dropped. Memory holds one window.
//
// SortWindow panics if r or cmp is nil or size < 1.
func SortWindow[T any](r Reader[T], size int, cmp func(a, b T) int) Reader[T] {
	mustReader("stream.SortWindow", r)
	mustAtLeast("stream.SortWindow", "window size", size, 1)
	mustFunc("stream.SortWindow", "comparison function", cmp == nil)
	return func(yield func(T, error) bool) {
		blocks(r, size, func(w []T) { slices.SortStableFunc(w, cmp) }, yield)
	}
}
