package arrowipc_test

import (
	"fmt"

	"github.com/obskit/obskit/columnar/arrowipc"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/tuples"
)

// A file written by apache-arrow (JavaScript): features x, a
// fixed_size_list<float32>[4], and labels, read as a labeled container and
// batched by eachobs with no copy per observation.
func Example() {
	f, err := arrowipc.Open("../testdata/interop/js.arrow")
	if err != nil {
		panic(err)
	}
	x, err := arrowipc.Numbers[float32](f, "x")
	if err != nil {
		panic(err)
	}
	y, err := arrowipc.Scalars[int64](f, "id")
	if err != nil {
		panic(err)
	}
	data, err := tuples.Zip2(x, y)
	if err != nil {
		panic(err)
	}
	fmt.Println(f.Nobs(), "rows in", f.Batches(), "record batches; x", x.ObsShape())
	for b := range eachobs.Batches(data, 400) {
		fmt.Println(b.Data.X.Shape(), b.Data.Y[:3])
	}
	// Output:
	// 1000 rows in 4 record batches; x [4]
	// [400 4] [0 1 2]
	// [400 4] [400 401 402]
	// [200 4] [800 801 802]
}

// Nulls are refused until the caller says what they read as; Valid keeps them
// explicit.
func ExampleStrings() {
	f, err := arrowipc.Open("../testdata/interop/js.arrows") // the stream format
	if err != nil {
		panic(err)
	}
	_, err = arrowipc.Strings(f, "name")
	fmt.Println(err)
	names, err := arrowipc.Strings(f, "name", arrowipc.NullEmpty())
	if err != nil {
		panic(err)
	}
	valid, err := arrowipc.Valid(f, "name")
	if err != nil {
		panic(err)
	}
	cat, err := arrowipc.Strings(f, "cat") // dictionary-encoded: read as its values
	if err != nil {
		panic(err)
	}
	for i := range 3 {
		fmt.Printf("%q %v %s\n", names.GetObs(i), valid[i], cat.GetObs(i))
	}
	// Output:
	// arrowipc: ../testdata/interop/js.arrows: column holds nulls: column "name": 200 nulls; read them as empty with arrowipc.NullEmpty
	// "" false red
	// "name-1" true green
	// "name-2" true blue
}
