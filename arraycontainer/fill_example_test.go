package arraycontainer_test

import (
	"fmt"
	"log"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/obsdim"
)

func ExampleArray_FillObs() {
	x, err := arraycontainer.New([]int{1, 2, 3, 4, 5, 6}, []int{3, 2}, obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	x.FillObs(1, 3, 0) // observations 1 and 2, in place
	fmt.Println(x)
	// Output:
	// [[1 2]
	//  [0 0]
	//  [0 0]]
}
