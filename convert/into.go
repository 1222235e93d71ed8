package convert

import (
	"fmt"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/fileio/mmap"
	"github.com/obskit/obskit/obsdim"
	"golang.org/x/exp/constraints"
)

// ScaleInto writes src converted element-wise to To, v*scale + shift, into dst
// (reused when it can hold it; nil allocates) and returns it: an array of src's
// shape and observation axis, row-major. It is [Scale] for a batch already in
// hand, in a loop body or a stream.Map. A src that is not contiguous is copied
// first.
func ScaleInto[From arraycontainer.Number, To constraints.Float](dst *arraycontainer.Array[To], src *arraycontainer.Array[From], scale, shift To) *arraycontainer.Array[To] {
	if !src.IsContiguous() {
		src = src.Clone()
	}
	dst = arraycontainer.ResizeLike(dst, src)
	if r := mmap.Of(src); r != nil { // a mapped file: a fault panics with the file's name
		defer r.Recover(r.Guard())
	}
	in := src.Data()[src.Offset() : src.Offset()+src.Len()]
	out := dst.Data()
	for j, v := range in {
		out[j] = To(v)*scale + shift
	}
	return dst
}

// OneHotInto writes labels one-hot into dst (reused when it can hold it): a
// [len(labels) classes] array of To, hot at each label. It is [OneHot] for labels
// already in hand. It returns an error wrapping [ErrRange] naming the first label
// outside [0, classes), and panics with a [*container.ArgError] when classes < 1.
func OneHotInto[L constraints.Integer, To arraycontainer.Number](dst *arraycontainer.Array[To], labels []L, classes int, hot To) (*arraycontainer.Array[To], error) {
	container.CheckArg(classes >= 1, "convert.OneHotInto", "classes", classes, ">= 1")
	shape := [2]int{len(labels), classes}
	dst = arraycontainer.Resize(dst, shape[:], obsdim.First)
	out := dst.Data()
	clear(out)
	for j, l := range labels {
		if l < 0 || uint64(l) >= uint64(classes) {
			return dst, fmt.Errorf("convert.OneHotInto: label %d at index %d outside [0, %d): %w", l, j, classes, ErrRange)
		}
		out[j*classes+int(l)] = hot
	}
	return dst, nil
}

// CastInto writes src converted to To into dst (reused when it can hold it) and
// returns it. It is [Cast] for values already in hand, and returns an error
// wrapping [ErrRange] naming the first value To cannot hold.
func CastInto[To, From arraycontainer.Number](dst []To, src []From) ([]To, error) {
	dst = container.Resize(dst, len(src))
	if i := castInto(dst, src); i >= 0 {
		return dst, rangeError[To]("CastInto", src[i], i)
	}
	return dst, nil
}
