package idx_test

import (
	"fmt"
	"log"

	"github.com/obskit/obskit/idx"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/tuples"
)

// Open maps the 1,797 handwritten digits; Load reads their labels. Paired in a
// tuple, images and labels are split, shuffled and batched together.
func ExampleOpen() {
	images, err := idx.Open[uint8]("../datasets/data/digits-images-idx3-ubyte", obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	labelArray, err := idx.Load[uint8]("../datasets/data/digits-labels-idx1-ubyte", obsdim.First)
	if err != nil {
		log.Fatal(err)
	}
	labels, err := labelArray.Scalars()
	if err != nil {
		log.Fatal(err)
	}
	digits, err := tuples.Zip2(images, labels)
	if err != nil {
		log.Fatal(err)
	}

	fmt.Println(images.Shape())
	obs := digits.GetObs(1)
	fmt.Println("label", obs.Y)
	fmt.Println(obs.X)
	// Output:
	// [1797 8 8]
	// label 1
	// [[ 0  0  0 12 13  5  0  0]
	//  [ 0  0  0 11 16  9  0  0]
	//  [ 0  0  3 15 16  6  0  0]
	//  [ 0  7 15 16 16  2  0  0]
	//  [ 0  0  1 16 16  3  0  0]
	//  [ 0  0  1 16 16  6  0  0]
	//  [ 0  0  1 16 16  6  0  0]
	//  [ 0  0  0 11 16 10  0  0]]
}

// Stat reads the header only; a typed reader refuses another element type.
func ExampleStat() {
	h, err := idx.Stat("../datasets/data/digits-labels-idx1-ubyte")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("magic %#08x: %d labels of type %s\n", h.Magic(), h.Shape[0], h.GoType())

	_, err = idx.Load[float32]("../datasets/data/digits-labels-idx1-ubyte", obsdim.First)
	fmt.Println(err)
	// Output:
	// magic 0x00000801: 1797 labels of type uint8
	// idx: ../datasets/data/digits-labels-idx1-ubyte: element type mismatch: file holds uint8, not float32
}
