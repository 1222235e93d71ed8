package provider

import (
	"fmt"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/index"
)

// Range returns slots lo..hi-1 of b as a batch whose arrays are views of b's
// (arraycontainer.Array.ObsRange): it shares memory with b, copies no observation,
// and is valid as long as b is. Its Real counts the real observations among those
// slots; Pos and Count are b's. Range allocates the views' small headers. It
// panics with a [*container.ArgError] when 0 <= lo <= hi <= len(b.Indices) does
// not hold.
func Range[D, L arraycontainer.Number](b Batch[D, L], lo, hi int) Batch[D, L] {
	n := len(b.Indices)
	if !(0 <= lo && lo <= hi && hi <= n) {
		panic(&container.ArgError{Op: "provider.Range", Arg: "range", Value: fmt.Sprintf("[%d, %d)", lo, hi), Want: fmt.Sprintf("within a batch of %d", n)})
	}
	return sliceInto(Batch[D, L]{}, b, lo, hi)
}

// sliceInto returns slots lo..hi-1 of b, reusing the slices of dst's Data and
// the view headers in them.
func sliceInto[D, L arraycontainer.Number](dst, b Batch[D, L], lo, hi int) Batch[D, L] {
	x, y := dst.Data.X, dst.Data.Y
	dst = b
	dst.Data.X = views(x, b.Data.X, lo, hi)
	dst.Data.Y = views(y, b.Data.Y, lo, hi)
	dst.Indices = b.Indices[lo:hi:hi]
	dst.Real = min(max(b.Real-lo, 0), hi-lo)
	return dst
}

// views sets dst[k] to a view of slots lo..hi-1 of src[k], reusing dst's memory
// and headers.
func views[E arraycontainer.Number](dst, src []*arraycontainer.Array[E], lo, hi int) []*arraycontainer.Array[E] {
	dst = container.Resize(dst, len(src))
	for k, a := range src {
		dst[k] = a.ObsRangeInto(dst[k], lo, hi)
	}
	return dst
}

// Split cuts b along the batch into k slices for k devices, MXNet's load_data!
// and load_label! into device slices: slice j holds the slots of index.Chunk(len,
// k, j), so sizes differ by at most one, larger first. The slices are views ([Range]): no observation is
// copied, and writes through them are seen in b. A batch shorter than k (a last
// batch with the index.Keep tail) gives empty slices at the end. Split allocates
// the slices and the views' headers; [SplitInto] reuses them. It panics with a
// [*container.ArgError] if k < 1.
func Split[D, L arraycontainer.Number](b Batch[D, L], k int) []Batch[D, L] {
	return splitInto("provider.Split", nil, b, k)
}

// SplitInto is [Split] into dst: it reuses dst's memory, and the slices and view
// headers of its batches, so a loop that passes back its previous slices
// allocates nothing per batch:
//
//	var devices []provider.Batch[float32, int32]
//	for b := range p.Epoch(e) {
//		devices = provider.SplitInto(devices, b, k)
//	}
//
// dst must be nil or an earlier result of Split or SplitInto, never batches of
// the loop itself: their headers are overwritten. It panics with a
// [*container.ArgError] if k < 1.
func SplitInto[D, L arraycontainer.Number](dst []Batch[D, L], b Batch[D, L], k int) []Batch[D, L] {
	return splitInto("provider.SplitInto", dst, b, k)
}

// splitInto is SplitInto; op names the function called.
func splitInto[D, L arraycontainer.Number](op string, dst []Batch[D, L], b Batch[D, L], k int) []Batch[D, L] {
	container.CheckArg(k >= 1, op, "number of slices", k, ">= 1")
	dst = container.Resize(dst, k)
	for j := range dst {
		lo, hi := index.Chunk(len(b.Indices), k, j)
		dst[j] = sliceInto(dst[j], b, lo, hi)
	}
	return dst
}
