package docs_test

// Code shown by the tests of the checker (docs/checker_test.go). go test
// compiles no file of testdata, so this one only needs to parse.

import (
	"fmt"

	"github.com/obskit/obskit/npy"
	np "github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/subset"
	sub "github.com/obskit/obskit/subset"
)

// T is a declaration shown alone.
type T struct{ n int }

func (t T) Len() int { return t.n }

func Example_good() {
	fmt.Println("hello")
	fmt.Println("world")
	// Output:
	// hello
	// world
}

func Example_types() {
	x, _ := npy.Open[float32]("x.npy", 0) // Go cannot infer: allowed
	w, _ := np.Load[uint8]("w.npy", 0)    // under another name too
	v := zero[float64]()                  // nor for a function of the file
	parts, _ := subset.Split[int, []int](nil, nil, 0.5)
	view := sub.Of[int](nil, nil)
	y := double[int](2)
	var a any = x
	n := a.(int)
	switch a.(type) {
	}
	fns := []func(int) int{double}
	z := fns[0](1) // an index, then a call: not a type argument
	fmt.Println(w, v, parts, view, y, n, z)
	// Output:
	// nothing
}

func double[N int | float64](v N) N { return 2 * v }

func zero[N int | float64]() N { return 0 }
