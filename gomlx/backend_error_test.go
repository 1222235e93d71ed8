package gomlx_test

import (
	"errors"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/shapes"

	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/index"
)

// fullBackend is a backend whose shared buffers cannot be made, as a device
// out of memory.
type fullBackend struct{ compute.Backend }

var errFull = errors.New("device full")

func (fullBackend) NewSharedBuffer(compute.DeviceNum, shapes.Shape) (compute.Buffer, any, error) {
	return nil, nil, errFull
}

// TestBackendError checks that a batch whose tensors the backend cannot make
// is an error of the dataset's iterator, wrapping the backend's and naming
// the input, not a batch without its tensors.
func TestBackendError(t *testing.T) {
	if !backend().HasSharedBuffers() {
		t.Skip("the backend has no shared buffers: the route is not taken")
	}
	l := eachobs.NewLoader(digits(t), 100, eachobs.Tail(index.Drop))
	ds, err := gomlx.Labeled(fullBackend{backend()}, "full", l.Iter())
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	for b, err := range ds.Iter() {
		if !errors.Is(err, errFull) {
			t.Errorf("first batch: error %v, want the backend's %v", err, errFull)
		}
		if err == nil {
			b.Finalize()
		}
		break
	}
}
