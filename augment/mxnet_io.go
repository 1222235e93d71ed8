package augment

import (
	"fmt"
	"os"

	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

// readMeanImage reads a mean image of shape (3, height, width) of the data
// shape from a .npy file of float32.
func readMeanImage(path string, shape [3]int) ([]float32, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a, err := npy.Read[float32](f, obsdim.First)
	if err != nil {
		return nil, err
	}
	got := a.Shape()
	if len(got) != 3 || got[0] != shape[0] || got[1] != shape[1] || got[2] != shape[2] {
		return nil, fmt.Errorf("%s: shape %v, want the data shape %v", path, got, shape)
	}
	return a.Clone().Data(), nil
}
