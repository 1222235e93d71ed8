package columnar_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/obskit/obskit/columnar"
)

// Three chunks of 4, 2 and 3 rows, in a window of 2: the chunks come in a
// random order, and the rows of each pair of consecutive chunks of that order
// come shuffled together.
func ExampleLocalOrder() {
	order := columnar.LocalOrder([]int{0, 4, 6, 9}, 2, rand.New(rand.NewPCG(7, 0)))
	fmt.Println(order)
	// Output:
	// [8 7 6 5 4 0 2 1 3]
}
