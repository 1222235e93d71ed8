package imagedata_test

import (
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/obskit/obskit/imagedata"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// OpenFolder reads a folder per class as torchvision's ImageFolder does.
func ExampleOpenFolder() {
	data, err := imagedata.OpenFolder("testdata/photos", imagedata.FolderOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(data.Classes)
	for i := range data.Nobs() {
		fmt.Println(data.X().Path(i), data.Y()[i])
	}
	obs := data.GetObs(0)
	fmt.Printf("%d bytes, starting %x, label %d\n", len(obs.X), obs.X[:2], obs.Y)
	// Output:
	// [cat cup person]
	// testdata/photos/cat/chelsea.jpg 0
	// testdata/photos/cup/coffee.jpg 1
	// testdata/photos/person/astronaut.jpg 2
	// testdata/photos/person/camera.jpg 2
	// 1620 bytes, starting ffd8, label 0
}

// OpenList reads an im2rec list; the label function sets the label type, here
// int class numbers, which a stratified split takes.
func ExampleOpenList() {
	data, err := imagedata.OpenList("testdata/photos.lst", "testdata/photos", imagedata.Class)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(data.Nobs(), "images, labels", tuples.Labels(data))
	parts, err := subset.StratifiedSplit(data, rand.New(rand.NewPCG(1, 2)), 0.5)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("half of them:", tuples.Labels(parts[0]))
	// Output:
	// 4 images, labels [2 0 1 2]
	// half of them: [2]
}

// OpenRecords reads the image records of a .rec file (with its index) and
// their labels, here every label of each record.
func ExampleOpenRecords() {
	data, err := imagedata.OpenRecords("../recordio/testdata/images.rec", "../recordio/testdata/images.idx", imagedata.All)
	if err != nil {
		log.Fatal(err)
	}
	for i := range data.Nobs() {
		fmt.Printf("key %d: id %d, labels %v, %d bytes of image\n",
			data.X().File().Key(i), data.Headers[i].ID, data.Y()[i], len(data.GetObs(i).X))
	}
	// Output:
	// key 0: id 0, labels [3], 35078 bytes of image
	// key 1: id 1, labels [1 2.5 -3], 5668 bytes of image
	// key 2: id 2, labels [0], 0 bytes of image
	// key 3: id 3, labels [7], 4 bytes of image
	// key 9223372036854775807: id 18446744073709551615, labels [0.5], 1 bytes of image
	// key 4: id 4, labels [1], 16 bytes of image
}
