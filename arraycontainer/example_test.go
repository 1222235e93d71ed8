package arraycontainer_test

import (
	"fmt"
	"log"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/obsdim"
)

// Four observations of three features, stored row-major: each observation is a
// contiguous row.
func ExampleNew() {
	data := []float32{
		0, 1, 2,
		3, 4, 5,
		6, 7, 8,
		9, 10, 11,
	}
	x, err := arraycontainer.New(data, []int{4, 3}, obsdim.First)
	if err != nil {
		panic(err)
	}
	fmt.Println(x.Nobs(), x.ObsShape())
	fmt.Println(x.GetObs(2))
	// Output:
	// 4 [3]
	// [6 7 8]
}

// The same numbers stored observation-last, as Julia (column-major) or a
// Fortran-ordered file keeps them: observation i is column i.
func ExampleNew_observationLast() {
	data := []float32{
		0, 3, 6, 9,
		1, 4, 7, 10,
		2, 5, 8, 11,
	}
	x, err := arraycontainer.New(data, []int{3, 4}, obsdim.Last)
	if err != nil {
		panic(err)
	}
	fmt.Println(x.Nobs(), x.GetObs(2))
	// Output: 4 [6 7 8]
}

// A Fortran-ordered (column-major) buffer, as a Fortran-ordered .npy file holds
// it, viewed without copying: strides say how far apart neighbours are.
func ExampleNewStrided() {
	fortran := []int16{
		0, 3, 6, 9, // column 0
		1, 4, 7, 10, // column 1
		2, 5, 8, 11, // column 2
	}
	x, err := arraycontainer.NewStrided(fortran, []int{4, 3}, []int{1, 4}, 0, obsdim.First)
	if err != nil {
		panic(err)
	}
	fmt.Println(x.GetObs(1), x.IsContiguous())
	fmt.Println(x.GetObsInto(nil, []int{3, 1}))
	// Output:
	// [3 4 5] false
	// [[ 9 10 11]
	//  [ 3  4  5]]
}

// A batch buffer allocated once and reused for every batch: after the first call,
// GetObsInto allocates nothing.
func ExampleArray_GetObsInto() {
	x, err := arraycontainer.New([]int{0, 1, 10, 11, 20, 21, 30, 31}, []int{4, 2}, obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	var batch *arraycontainer.Array[int]
	for _, idx := range [][]int{{3, 0}, {1, 2}, {2}} {
		batch = x.GetObsInto(batch, idx)
		fmt.Println(batch.Shape(), batch)
	}
	// Output:
	// [2 2] [[30 31]
	//  [ 0  1]]
	// [2 2] [[10 11]
	//  [20 21]]
	// [1 2] [[20 21]]
}

// Data stored observation-last gathers one element per cache line. ObsFirst
// relayouts it once; afterwards every batch is a block copy.
func ExampleArray_ObsFirst() {
	x, err := arraycontainer.New([]float64{
		0, 3, 6, 9,
		1, 4, 7, 10,
		2, 5, 8, 11,
	}, []int{3, 4}, obsdim.Last)
	if err != nil {
		log.Fatal(err)
	}
	f := x.ObsFirst()
	fmt.Println(f.Shape(), f.Dim(), f.IsContiguous())
	fmt.Println(f)
	fmt.Println(f.GetObs(2).Equal(x.GetObs(2)))
	// Output:
	// [4 3] 0 true
	// [[ 0  1  2]
	//  [ 3  4  5]
	//  [ 6  7  8]
	//  [ 9 10 11]]
	// true
}

// ObsRange is a view: it shares memory with the array and costs no copy.
func ExampleArray_ObsRange() {
	x, err := arraycontainer.New([]int{0, 1, 2, 3, 4, 5}, []int{6}, obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	head := x.ObsRange(1, 4)
	head.Set(100, 0)
	fmt.Println(head, x)
	// Output: [100   2   3] [  0 100   2   3   4   5]
}

// A rank-1 label array becomes a container of plain values, ready to be the
// target member of a tuple.
func ExampleArray_Scalars() {
	labels, err := arraycontainer.New([]uint8{7, 2, 1}, []int{3}, obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(labels.GetObs(0).Item())
	s, err := labels.Scalars()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(s.GetObs(0), s.GetObsInto(nil, []int{2, 1}))
	// Output:
	// 7
	// 7 [1 2]
}
