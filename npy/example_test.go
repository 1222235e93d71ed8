package npy_test

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

// Open maps a file of five 8x8 digit images; observations are read on demand.
func ExampleOpen() {
	x, err := npy.Open[uint8]("testdata/u8_3d.npy", obsdim.First)
	if err != nil {
		log.Fatal(err)
	}

	fmt.Println(x.Nobs(), "images of", x.ObsShape())
	batch := x.GetObsInto(nil, []int{4, 0})
	fmt.Println("batch shape", batch.Shape())
	fmt.Println(x.GetObs(0))
	// Output:
	// 5 images of [8 8]
	// batch shape [2 8 8]
	// [[ 0  0  5 13  9  1  0  0]
	//  [ 0  0 13 15 10 15  5  0]
	//  [ 0  3 15  2  0 11  8  0]
	//  [ 0  4 12  0  0  8  8  0]
	//  [ 0  5  8  0  0  9  8  0]
	//  [ 0  4 11  0  1 12  7  0]
	//  [ 0  2 14  5 10 12  0  0]
	//  [ 0  0  6 13 10  0  0  0]]
}

// Load reads a file into memory; here each column is an observation.
func ExampleLoad() {
	x, err := npy.Load[int32]("testdata/i32_2d.npy", obsdim.Last)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(x)
	fmt.Println(x.Nobs(), "observations; the third is", x.GetObs(2))
	// Output:
	// [[ 0  1  2  3]
	//  [ 4  5  6  7]
	//  [ 8  9 10 11]]
	// 4 observations; the third is [ 2  6 10]
}

// Stat reads only the header, so a program can choose the element type at run
// time; a typed reader refuses any other type and says which one the file holds.
func ExampleStat() {
	h, err := npy.Stat("testdata/f32_fortran_2d.npy")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(h.Dtype, h.Dtype.GoType(), h.Shape, "fortran:", h.Fortran)

	switch h.Dtype.GoType() {
	case "float32":
		x, err := npy.Load[float32]("testdata/f32_fortran_2d.npy", obsdim.First)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("strides", x.Strides())
	case "float64":
		// npy.Load[float64]...
	}

	_, err = npy.Load[float64]("testdata/f32_fortran_2d.npy", obsdim.First)
	fmt.Println(err)
	// Output:
	// <f4 float32 [6 4] fortran: true
	// strides [1 6]
	// npy: testdata/f32_fortran_2d.npy: element type mismatch: file holds <f4 (Go float32), not float64
}

// Write produces what np.load reads; Read reads it back from any io.Reader.
func ExampleWrite() {
	a, err := arraycontainer.New([]float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer
	if err := npy.Write(&buf, a); err != nil {
		log.Fatal(err)
	}
	h, err := npy.ReadHeader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(h)
	fmt.Println("data at byte", h.DataOffset)

	b, err := npy.Read[float64](&buf, obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(b.Equal(a))
	// Output:
	// {'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }
	// data at byte 128
	// true
}

// Save writes a file np.load reads; Open maps it back. A Fortran-ordered view
// (here a transpose) is written as it is, with fortran_order True.
func ExampleSave() {
	a, err := arraycontainer.New([]int16{1, 2, 3, 4, 5, 6}, []int{2, 3}, obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "npy-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "t.npy")
	if err := npy.Save(path, a.Transpose()); err != nil {
		log.Fatal(err)
	}
	h, err := npy.Stat(path)
	if err != nil {
		log.Fatal(err)
	}
	m, err := npy.Open[int16](path, obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(h)
	fmt.Println(m)
	// Output:
	// {'descr': '<i2', 'fortran_order': True, 'shape': (3, 2), }
	// [[1 4]
	//  [2 5]
	//  [3 6]]
}
