package imagedata

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/tuples"
)

// Labeled is the container of labeled images the constructors of this package
// return: a tuples.Tuple2 of the images (X, a container of encoded bytes) and
// their labels (Y, a container.Slice[L]). Its observations are
// tuples.Pair[[]byte, L], so the kit's labeled tools (subset.StratifiedSplit,
// tuples.Labels, balanced sampling) work on it unchanged, and read the labels
// without reading an image.
type Labeled[X container.Batched[[]byte, [][]byte], L any] = tuples.Tuple2[X, container.Slice[L], []byte, [][]byte, L, []L]

// First labels an image with its first label, as ImageRecordIter does with
// label_width 1: a list line's first label, or an image record's. Pass it to
// [OpenList] or [OpenRecords]; the labels are then float32.
func First(labels []float32) (float32, error) {
	if len(labels) == 0 {
		return 0, errors.New("imagedata.First: no label")
	}
	return labels[0], nil
}

// Class labels an image with its first label as a class number 0, 1, 2...:
// it is an error when that label is not a whole number in [0, 2^31).
// Pass it to [OpenList] or [OpenRecords]; the labels are then int, as
// [OpenFolder]'s.
func Class(labels []float32) (int, error) {
	if len(labels) == 0 {
		return 0, errors.New("imagedata.Class: no label")
	}
	l := labels[0]
	if l < 0 || l >= 1<<31 || l != float32(math.Trunc(float64(l))) {
		return 0, fmt.Errorf("imagedata.Class: label %v is not a class number (a whole number from 0 to 2^31-1)", l)
	}
	return int(l), nil
}

// All labels an image with all its labels, in a slice of its own: the labels
// of a multi-label list line, or the flag labels of an image record (its one
// header label when its flag is 0). Pass it to [OpenList] or [OpenRecords];
// the labels are then []float32, which subset.StratifiedSplit does not accept
// (it needs ordered labels).
func All(labels []float32) ([]float32, error) {
	if len(labels) == 0 {
		return nil, errors.New("imagedata.All: no label")
	}
	return slices.Clone(labels), nil
}
