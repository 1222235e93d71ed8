package arraycontainer

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/obskit/obskit/fileio/mmap"
	"github.com/obskit/obskit/obsdim"
)

// TestMappedRegion checks which derived arrays hold the file mapping of their
// source: every view (they share its memory), and no copy (batches with new
// memory, observations, clones).
func TestMappedRegion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, make([]byte, 4*6*4), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := mmap.Map(f, 4*6*4, "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	b := r.Bytes()
	data := unsafeFloat32s(b)
	a, err := New(data, []int{4, 6}, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	mmap.Attach(a, r)
	withDim, _ := a.WithDim(obsdim.Last)
	var reused *Array[float32]
	reused = a.GetObsInto(reused, []int{1})
	tests := []struct {
		name string
		x    *Array[float32]
		held bool
	}{
		{"array", a, true},
		{"ObsRange", a.ObsRange(1, 3), true},
		{"Range", a.Range(1, 2, 4), true},
		{"Transpose", a.Transpose(), true},
		{"WithDim", withDim, true},
		{"ObsRangeInto", a.ObsRangeInto(nil, 0, 2), true},
		{"view of a view", a.ObsRange(1, 3).Transpose().Range(0, 1, 2), true},
		{"Reshape", must(a.Reshape([]int{2, 12}, obsdim.First)), true},
		{"Reshape of a transpose (a copy)", must(a.Transpose().Reshape([]int{24}, obsdim.First)), false},
		{"GetObs", a.GetObs(2), false},
		{"GetObsInto", a.GetObsInto(nil, []int{3, 0}), false},
		{"GetObsInto reusing a batch", a.GetObsInto(reused, []int{2}), false},
		{"Clone", a.ObsRange(0, 2).Clone(), false},
		{"ObsFirst", withDim.ObsFirst(), false},
		{"New over the same memory", must(New(data, []int{4, 6}, obsdim.First)), false},
		// Resize and ResizeLike reuse a view's memory when it holds the shape,
		// and leave the mapping behind when they allocate.
		{"Resize within the view's memory", Resize(a.ObsRangeInto(nil, 0, 2), []int{3}, obsdim.First), true},
		{"Resize past it", Resize(a.ObsRangeInto(nil, 0, 2), []int{100, 6}, obsdim.First), false},
		{"ResizeLike past it", ResizeLike(a.ObsRangeInto(nil, 0, 2), must(New(make([]float64, 200), []int{200}, obsdim.First))), false},
	}
	for _, tc := range tests {
		if got := mmap.Of(tc.x); (got == r) != tc.held || (got != nil && got != r) {
			t.Errorf("%s: region %p, want held %v (region %p)", tc.name, got, tc.held, r)
		}
	}
	if mmap.Of(42) != nil {
		t.Error("mmap.Of(not an array) is not nil")
	}
	vec := must(New(data, []int{len(data)}, obsdim.First))
	mmap.Attach(vec, r)
	if s, err := vec.Scalars(); err != nil || &s[0] == &data[0] {
		t.Errorf("Scalars of a mapped array = %v sharing the mapping, want a copy", err)
	}
}

// unsafeFloat32s views b as float32s, as the file packages view a mapping.
func unsafeFloat32s(b []byte) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/4)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
