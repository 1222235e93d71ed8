package docs_test

// The example of container.md.

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// reviews is a container a user writes: two methods are all it needs.
type reviews struct{ text []string }

func (r reviews) Nobs() int { return len(r.text) }

func (r reviews) GetObs(i int) string {
	container.CheckIndex("reviews.GetObs", i, len(r.text)) // the kit's panic for a bad index
	return strings.ToLower(r.text[i])
}

func Example_container() {
	r := reviews{[]string{"Great", "Awful", "Fine", "Superb", "Dull", "Loved it"}}
	labels := []string{"pos", "neg", "pos", "pos", "neg", "pos"}

	// AsBatched gives the type GetObsInto (its batches are []string), which
	// every tool of the kit takes; Zip2 links it with its labels by one index.
	data, err := tuples.Zip2(container.AsBatched(r), container.FromSlice(labels))
	if err != nil {
		panic(err)
	}
	parts, err := subset.StratifiedSplit(data, rand.New(rand.NewPCG(1, 2)), 0.5)
	if err != nil {
		panic(err)
	}
	train, test := parts[0], parts[1]
	for b := range eachobs.Batches(train, 2) {
		fmt.Println("train batch", b.Data.X, b.Data.Y) // reviews and labels, both []string
	}
	fmt.Println("test labels", tuples.Labels(test))
	// Output:
	// train batch [awful loved it] [neg pos]
	// train batch [fine] [pos]
	// test labels [pos pos neg]
}
