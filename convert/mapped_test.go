package convert_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/convert"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/subset"
)

// mappedPixels saves rows observations of 4096 uint8 values (a page each) and
// opens the file memory-mapped.
func mappedPixels(t *testing.T, rows int) (string, *arraycontainer.Array[uint8]) {
	t.Helper()
	data := make([]uint8, rows*4096)
	for i := range data {
		data[i] = uint8(i / 4096)
	}
	path := filepath.Join(t.TempDir(), "pixels.npy")
	if err := npy.Save(path, must(arraycontainer.New(data, []int{rows, 4096}, obsdim.First))); err != nil {
		t.Fatal(err)
	}
	m, err := npy.Open[uint8](path, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	return path, m
}

// TestMappedSourceKeepsMapping checks that a conversion keeps the mapping it
// reads alive: the mapped array itself is dropped and collected, the conversion
// still reads the file's values.
func TestMappedSourceKeepsMapping(t *testing.T) {
	_, m := mappedPixels(t, 8)
	c := convert.Scale(subset.Range(m, 2, 8), float32(1), 0)
	m = nil
	for range 3 {
		runtime.GC()
	}
	b := c.GetObsInto(nil, []int{0, 5})
	if got := b.At(1, 100); got != 7 {
		t.Errorf("converted after the array was dropped: %v, want 7", got)
	}
}

// TestMappedSourceTruncated checks that the fused path and ScaleInto turn a fault
// of a file truncated after it was mapped into a panic wrapping npy.ErrFault,
// which the process survives.
func TestMappedSourceTruncated(t *testing.T) {
	path, m := mappedPixels(t, 16)
	c := convert.Scale(m, float32(1), 0)
	lost := m.ObsRange(10, 16)
	if err := os.Truncate(path, 2*4096); err != nil {
		t.Fatal(err)
	}
	for name, read := range map[string]func(){
		"Scale":     func() { c.GetObsInto(nil, []int{0, 14}) },
		"ScaleInto": func() { convert.ScaleInto(nil, lost, float32(1), 0) },
	} {
		func() {
			defer func() {
				err, _ := recover().(error)
				if !errors.Is(err, npy.ErrFault) {
					t.Errorf("%s of a truncated file: panic %v, want one wrapping npy.ErrFault", name, err)
				}
			}()
			read()
		}()
	}
}
