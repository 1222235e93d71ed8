package npy

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/fileio/mmap"
	"github.com/obskit/obskit/internal/filetest"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/tuples"
)

// pagesFile saves a [rows, 1024] float32 array (4 KiB, one page, a row) whose
// element (i, j) is i*1024+j, and returns its path and the array.
func pagesFile(t *testing.T, rows int) (string, *arraycontainer.Array[float32]) {
	t.Helper()
	data := make([]float32, rows*1024)
	for i := range data {
		data[i] = float32(i)
	}
	a := must(arraycontainer.New(data, []int{rows, 1024}, obsdim.First))
	path := filepath.Join(t.TempDir(), "pages.npy")
	if err := Save(path, a); err != nil {
		t.Fatal(err)
	}
	return path, a
}

// TestViewKeepsMapping checks that each view of a mapped array still reads the
// file's values after the array itself is dropped and garbage collections ran,
// with nothing else of the file reachable: the view alone keeps the mapping
// alive.
func TestViewKeepsMapping(t *testing.T) {
	path, want := pagesFile(t, 16)
	views := map[string]struct {
		view func(m *arraycontainer.Array[float32]) *arraycontainer.Array[float32]
		want *arraycontainer.Array[float32]
	}{
		"ObsRange":  {func(m *arraycontainer.Array[float32]) *arraycontainer.Array[float32] { return m.ObsRange(2, 5) }, want.ObsRange(2, 5)},
		"Range":     {func(m *arraycontainer.Array[float32]) *arraycontainer.Array[float32] { return m.Range(1, 10, 20) }, want.Range(1, 10, 20)},
		"Transpose": {func(m *arraycontainer.Array[float32]) *arraycontainer.Array[float32] { return m.Transpose() }, want.Transpose()},
		"ObsRangeInto": {func(m *arraycontainer.Array[float32]) *arraycontainer.Array[float32] {
			return m.ObsRangeInto(nil, 7, 9)
		}, want.ObsRange(7, 9)},
		"WithDim": {func(m *arraycontainer.Array[float32]) *arraycontainer.Array[float32] {
			v, _ := m.WithDim(obsdim.Last)
			return v
		}, must(want.WithDim(obsdim.Last))},
		"Reshape": {func(m *arraycontainer.Array[float32]) *arraycontainer.Array[float32] {
			return must(m.Reshape([]int{-1}, obsdim.First))
		}, must(want.Reshape([]int{-1}, obsdim.First))},
		"view of a view": {func(m *arraycontainer.Array[float32]) *arraycontainer.Array[float32] {
			return m.ObsRange(2, 5).ObsRange(1, 2).Transpose()
		}, want.ObsRange(3, 4).Transpose()},
	}
	for name, tc := range views {
		t.Run(name, func(t *testing.T) {
			m, err := Open[float32](path, obsdim.First)
			if err != nil {
				t.Fatal(err)
			}
			v := tc.view(m)
			m = nil // only v reaches the mapping now
			for range 3 {
				runtime.GC()
			}
			if d := cmp.Diff(filetest.Float64s(tc.want), filetest.Float64s(v)); d != "" {
				t.Errorf("view of a dropped array mismatch (-want +got):\n%s", d)
			}
			if got := v.GetObsInto(nil, []int{0}); !got.Equal(tc.want.GetObsInto(nil, []int{0})) {
				t.Errorf("GetObsInto of a view of a dropped array = %v", got)
			}
		})
	}
}

// recoverFault runs f and returns the error it panicked with, or nil.
func recoverFault(t *testing.T, f func()) (err error) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		e, ok := r.(error)
		if !ok {
			t.Fatalf("panic with %T %v, want an error", r, r)
		}
		err = e
	}()
	f()
	return nil
}

// TestTruncatedAfterOpen shrinks a file after Open and reads the pages it lost
// through the kit's own reads: each panics with an error wrapping ErrFault that
// names the file and the offset, and the program goes on.
func TestTruncatedAfterOpen(t *testing.T) {
	if !mmap.Mapping {
		t.Skip("files are read into memory on this platform: nothing faults")
	}
	path, _ := pagesFile(t, 64)
	m, err := Open[float32](path, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	first := m.GetObs(0) // row 0 is read while the file is whole
	if err := os.Truncate(path, 2*4096); err != nil {
		t.Fatal(err)
	}
	lost := m.ObsRange(40, 64) // rows 40.. are far past the new end
	var buf *arraycontainer.Array[float32]
	reads := map[string]func(){
		"GetObs":      func() { m.GetObs(50) },
		"GetObsInto":  func() { buf = m.GetObsInto(buf, []int{0, 63}) },
		"view GetObs": func() { lost.GetObs(3) },
		"Clone":       func() { lost.Clone() },
		"ObsFirst":    func() { lost.ObsFirst() },
		"At":          func() { m.At(60, 5) },
		"Set":         func() { m.Set(1, 60, 5) },
		"Fill":        func() { lost.Fill(0) },
		"FillObs":     func() { m.FillObs(50, 51, 0) },
		"Equal":       func() { lost.Equal(lost.Clone()) },
		"String":      func() { _ = lost.String() },
		"Item":        func() { lost.ObsRange(0, 1).Range(1, 0, 1).Item() },
	}
	writes := map[string]func() error{
		"Write":         func() error { return Write(new(bytes.Buffer), lost) },
		"Write strided": func() error { return Write(new(bytes.Buffer), lost.Transpose()) },
	}
	for name, write := range writes {
		reads[name] = func() {
			if err := write(); err != nil {
				panic(err) // for the checks below: Write returns the fault
			}
		}
	}
	for name, read := range reads {
		t.Run(name, func(t *testing.T) {
			err := recoverFault(t, read)
			if err == nil {
				t.Fatal("no panic reading a page the file lost")
			}
			if !errors.Is(err, ErrFault) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "byte ") {
				t.Errorf("panic %v, want an error wrapping ErrFault naming %s and the offset", err, path)
			}
		})
	}
	if got := first.At(5); got != 5 {
		t.Errorf("an observation read before the truncation = %v, want 5", got)
	}
}

// collect runs garbage collections until at most want mappings are live, or up to
// tries times, and returns the count: cleanups run on their own goroutine after a
// collection, so the loop yields to it between collections.
func collect(want int64, tries int) int64 {
	for range tries {
		if mmap.Live() <= want {
			break
		}
		runtime.GC()
		runtime.Gosched()
	}
	return mmap.Live()
}

// TestMappingLifetime checks when a file mapping is released: not while an array
// that shares it is reachable; soon after the last one goes; and batches,
// observations, clones and Scalars, which are Go memory, do not hold it.
func TestMappingLifetime(t *testing.T) {
	path, want := pagesFile(t, 8)
	vec := filepath.Join(t.TempDir(), "vec.npy")
	if err := Save(vec, must(arraycontainer.New([]int32{4, 5, 6}, []int{3}, obsdim.First))); err != nil {
		t.Fatal(err)
	}
	tinyPath := filepath.Join(t.TempDir(), "tiny.npy")
	if err := Save(tinyPath, must(arraycontainer.New([]float32{9}, []int{1, 1}, obsdim.First))); err != nil {
		t.Fatal(err)
	}
	base := collect(0, 200)
	open := func() *arraycontainer.Array[float32] {
		t.Helper()
		m, err := Open[float32](path, obsdim.First)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}

	view := func() *arraycontainer.Array[float32] {
		m := open()
		return m.ObsRange(1, 3).Transpose()
	}()
	if got := collect(base, 10); got != base+1 {
		t.Errorf("%d mappings live while a view of a dropped array is reachable, want %d", got, base+1)
	}
	if !view.Equal(want.ObsRange(1, 3).Transpose()) {
		t.Error("the view reads other values after collections")
	}
	runtime.KeepAlive(view)
	view = nil
	if got := collect(base, 200); got != base {
		t.Errorf("%d mappings live once the last view is unreachable, want %d", got, base)
	}

	func() {
		m := open()
		m.GetObs(0)
	}()
	if got := collect(base, 200); got != base {
		t.Errorf("%d mappings live after a mapped array became unreachable, want %d", got, base)
	}

	type copies struct {
		batch, obs, clone, first *arraycontainer.Array[float32]
		scalars                  []int32
	}
	c := func() copies {
		m := open()
		v, err := Open[int32](vec, obsdim.First)
		if err != nil {
			t.Fatal(err)
		}
		s, err := v.Scalars()
		if err != nil {
			t.Fatal(err)
		}
		tiny, err := Open[float32](tinyPath, obsdim.First)
		if err != nil {
			t.Fatal(err)
		}
		buf := tiny.ObsRange(0, 1)           // a view of another mapping, too small for the batch:
		buf = m.GetObsInto(buf, []int{7, 2}) // the batch gets Go memory and lets the mapping go
		return copies{buf, m.GetObs(3), m.ObsRange(4, 6).Clone(), m.Transpose().ObsFirst(), s}
	}()
	if got := collect(base, 200); got != base {
		t.Errorf("%d mappings live while only copies are reachable, want %d", got, base)
	}
	for name, cmp := range map[string]bool{
		"GetObsInto": c.batch.Equal(want.GetObsInto(nil, []int{7, 2})),
		"GetObs":     c.obs.Equal(want.GetObs(3)),
		"Clone":      c.clone.Equal(want.ObsRange(4, 6)),
		"ObsFirst":   c.first.Equal(want.Transpose().ObsFirst()),
		"Scalars":    slices.Equal(c.scalars, []int32{4, 5, 6}),
	} {
		if !cmp {
			t.Errorf("%s copy changed after the mapping was released", name)
		}
	}
}

// TestOpenInHelper is issue 14's crash: a helper that opens a file and returns
// the data (here zipped with its labels) used to defer the Mapped's Close, which
// set the embedded array to nil, and the first use crashed on a nil pointer. Open
// now returns the array itself, and the mapping lives while it is reachable.
func TestOpenInHelper(t *testing.T) {
	path, want := pagesFile(t, 8)
	load := func() *tuples.Tuple2[*arraycontainer.Array[float32], container.Slice[int], *arraycontainer.Array[float32], *arraycontainer.Array[float32], int, []int] {
		x, err := Open[float32](path, obsdim.First)
		if err != nil {
			t.Fatal(err)
		}
		xy, err := tuples.Zip2(x, container.Slice[int]{0, 1, 2, 3, 4, 5, 6, 7})
		if err != nil {
			t.Fatal(err)
		}
		return xy
	}
	xy := load()
	for range 3 {
		runtime.GC()
	}
	b := xy.GetObsInto(tuples.Pair[*arraycontainer.Array[float32], []int]{}, []int{6, 1})
	if !b.X.Equal(want.GetObsInto(nil, []int{6, 1})) || !slices.Equal(b.Y, []int{6, 1}) {
		t.Errorf("batch of the returned tuple = %v, %v; want rows 6 and 1 of the file", b.X.Shape(), b.Y)
	}
}
