package npy

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/internal/filetest"
	"github.com/obskit/obskit/obsdim"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// layouts returns arrays of every layout the writer handles, with values that
// tell elements apart.
func layouts() map[string]*arraycontainer.Array[float64] {
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]float64, 4*3*5)
	for i := range data {
		data[i] = rng.NormFloat64()
	}
	base := must(arraycontainer.New(data, []int{4, 3, 5}, obsdim.First))
	fortran := must(arraycontainer.NewStrided(data[:12], []int{3, 4}, []int{1, 3}, 0, obsdim.First))
	return map[string]*arraycontainer.Array[float64]{
		"C 3-d":           base,
		"Fortran 2-d":     fortran,
		"transposed 3-d":  base.Transpose(1, 0, 2),
		"strided range":   base.Range(2, 1, 4),
		"observation row": base.ObsRange(2, 3),
		"rank 1":          must(arraycontainer.New(data[:7], []int{7}, obsdim.First)),
		"rank 0":          must(arraycontainer.New(data[:1], nil, obsdim.First)),
		"empty":           must(arraycontainer.New([]float64{}, []int{0, 3}, obsdim.First)),
		"broadcast":       must(arraycontainer.NewStrided(data[:3], []int{4, 3}, []int{0, 1}, 0, obsdim.First)),
	}
}

func TestWriteRoundTrip(t *testing.T) {
	for name, a := range layouts() {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, a); err != nil {
				t.Fatal(err)
			}
			h, err := ReadHeader(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if h.DataOffset%dataAlign != 0 || h.Major != 1 {
				t.Errorf("header version %d.%d, data at %d; want 1.0 and a multiple of %d", h.Major, h.Minor, h.DataOffset, dataAlign)
			}
			wantFortran := name == "Fortran 2-d"
			if h.Fortran != wantFortran {
				t.Errorf("fortran_order = %v, want %v", h.Fortran, wantFortran)
			}
			got, err := Read[float64](&buf, obsdim.First)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(filetest.Float64s(a), filetest.Float64s(got), cmpopts.EquateEmpty()); d != "" {
				t.Errorf("values mismatch (-want +got):\n%s", d)
			}
			if d := cmp.Diff(a.Shape(), got.Shape(), cmpopts.EquateEmpty()); d != "" {
				t.Errorf("shape mismatch (-want +got):\n%s", d)
			}
			if buf.Len() != 0 {
				t.Errorf("%d bytes left after the data", buf.Len())
			}
		})
	}
}

// TestOpenCopyOnWrite checks that writes through a mapped array never reach the file.
func TestOpenCopyOnWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.npy")
	a := must(arraycontainer.New([]int32{1, 2, 3, 4}, []int{2, 2}, obsdim.First))
	if err := Save(path, a); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	m, err := Open[int32](path, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	m.Set(99, 1, 1)
	if got := m.At(1, 1); got != 99 {
		t.Errorf("after Set, At = %d, want 99", got)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("a write through the mapped array changed the file")
	}
}

func TestSaveError(t *testing.T) {
	a := must(arraycontainer.New([]uint8{1}, []int{1}, obsdim.First))
	err := Save(filepath.Join(t.TempDir(), "missing", "x.npy"), a)
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "missing") {
		t.Errorf("Save into a missing directory: %v, want ErrNotExist naming the path", err)
	}
}

const python = "/usr/bin/python3"

// TestNumPyReadsWhatWeWrite saves every layout and every element type and checks
// with NumPy's own np.load that dtype, shape and values match.
func TestNumPyReadsWhatWeWrite(t *testing.T) {
	if out, err := exec.Command(python, "-c", "import numpy").CombinedOutput(); err != nil {
		t.Skipf("skipping: %s with numpy is needed to check that np.load reads our files (%v: %s)", python, err, bytes.TrimSpace(out))
	}
	dir := t.TempDir()
	type want struct {
		Dtype  string    `json:"dtype"`
		Shape  []int     `json:"shape"`
		Values []float64 `json:"values"`
	}
	wants := map[string]want{}
	save := func(name string, err error, dtype string, shape []int, values []float64) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if shape == nil {
			shape = []int{}
		}
		wants[name] = want{dtype, shape, values}
	}
	i := 0
	for _, a := range layouts() {
		i++
		name := filepath.Join(dir, "layout"+string(rune('a'+i))+".npy")
		save(name, Save(name, a), "float64", a.Shape(), filetest.Float64s(a))
	}
	for name, a := range map[string]*arraycontainer.Array[float32]{
		"f32.npy": must(arraycontainer.New([]float32{1.5, -2, 3e-8, 0}, []int{2, 2}, obsdim.First)),
	} {
		p := filepath.Join(dir, name)
		save(p, Save(p, a), "float32", a.Shape(), filetest.Float64s(a))
	}
	i8 := must(arraycontainer.New([]int8{-128, 127, 0}, []int{3}, obsdim.First))
	save(filepath.Join(dir, "i8.npy"), Save(filepath.Join(dir, "i8.npy"), i8), "int8", i8.Shape(), filetest.Float64s(i8))
	u16 := must(arraycontainer.New([]uint16{65535, 1}, []int{1, 2}, obsdim.Last))
	save(filepath.Join(dir, "u16.npy"), Save(filepath.Join(dir, "u16.npy"), u16), "uint16", u16.Shape(), filetest.Float64s(u16))
	i64 := must(arraycontainer.New([]int64{-1 << 40, 5}, []int{2}, obsdim.First))
	save(filepath.Join(dir, "i64.npy"), Save(filepath.Join(dir, "i64.npy"), i64), "int64", i64.Shape(), filetest.Float64s(i64))
	u8 := must(arraycontainer.New([]uint8{0, 255}, []int{2}, obsdim.First))
	save(filepath.Join(dir, "u8.npy"), Save(filepath.Join(dir, "u8.npy"), u8), "uint8", u8.Shape(), filetest.Float64s(u8))

	script := `
import json, sys, numpy as np
out = {}
for p in sys.argv[1:]:
    a = np.load(p)
    out[p] = {"dtype": str(a.dtype), "shape": list(a.shape), "values": [float(v) for v in a.ravel(order="C")]}
print(json.dumps(out))
`
	args := []string{"-c", script}
	for p := range wants {
		args = append(args, p)
	}
	out, err := exec.Command(python, args...).Output()
	if err != nil {
		t.Fatalf("np.load failed: %v\n%s", err, out)
	}
	var got map[string]want
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if d := cmp.Diff(wants, got, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("np.load mismatch (-want +got):\n%s", d)
	}
}
