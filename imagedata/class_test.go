package imagedata_test

import (
	"testing"

	"github.com/obskit/obskit/imagedata"
)

// TestClassRange checks Class's range, whole numbers in [0, 2^31): its ends
// taken (2^31-128 is the largest float32 below 2^31), 2^31 and above, negative
// and fractional labels refused, and no label at all.
func TestClassRange(t *testing.T) {
	for _, c := range []struct {
		l  float32
		ok bool
	}{{0, true}, {7, true}, {1<<31 - 128, true}, {1 << 31, false}, {1 << 32, false}, {-1, false}, {2.5, false}} {
		got, err := imagedata.Class([]float32{c.l})
		if (err == nil) != c.ok || c.ok && got != int(c.l) {
			t.Errorf("Class(%v) = %d, %v; want ok %v", c.l, got, err, c.ok)
		}
	}
	if _, err := imagedata.Class(nil); err == nil {
		t.Error("Class of no label: no error")
	}
}
