package mxnet

import (
	"fmt"
	"slices"

	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

// ReadMeanImg reads the mean image of MXNet's mean_img parameter from the
// .npy file path: float32 values of shape (3, height, width), the data
// shape's, channels first, as [Augmenter]'s MeanImg holds them. It checks the
// shape in the header before reading the data. It returns the errors of
// npy.Load, which name the file (fs.ErrNotExist, npy.ErrFormat, npy.ErrType
// for values that are not float32...), and one naming the file and both
// shapes when the file's shape is not dataShape.
//
// MXNet saves the mean image it computes as an NDArray file of its own; save
// it with NumPy for the kit (numpy.save of the array's asnumpy()).
func ReadMeanImg(path string, dataShape [3]int) ([]float32, error) {
	h, err := npy.Stat(path)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(h.Shape, dataShape[:]) {
		return nil, fmt.Errorf("%s: shape %v, want the data shape %v", path, h.Shape, dataShape)
	}
	a, err := npy.Load[float32](path, obsdim.First)
	if err != nil {
		return nil, err
	}
	return a.Clone().Data(), nil
}
