package docs_test

// The example of augment.md.

import (
	"fmt"
	"image"
	"os"
	"slices"

	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
)

// jpegs is a container of encoded images whose observation i is image i
// decoded and augmented by a pipeline, drawn from i's own generator. Its
// batches are the images' floats one after the other, and their labels.
type jpegs struct {
	names  []string // what errors call the images
	files  [][]byte
	labels []int
	p      *augment.Pipeline
	dec    imagecodec.Decoder
}

type imageBatch struct {
	X []float32 // len(Y) images of p.Len() floats, CHW
	Y []int
}

func (c *jpegs) Nobs() int { return len(c.files) }

func (c *jpegs) GetObs(i int) imageBatch { return c.GetObsRand(i, container.ObsRand{}) }

func (c *jpegs) GetObsInto(dst imageBatch, idx []int) imageBatch {
	return c.GetObsRandInto(dst, idx, container.NewObsRand(0, 0))
}

func (c *jpegs) GetObsRand(i int, r container.ObsRand) imageBatch {
	return c.GetObsRandInto(imageBatch{}, []int{i}, r)
}

// GetObsRandInto decodes and augments the images at idx straight into dst's
// floats: the loop's buffer, reused from batch to batch.
func (c *jpegs) GetObsRandInto(dst imageBatch, idx []int, r container.ObsRand) imageBatch {
	container.CheckIndices("jpegs.GetObsRandInto", idx, len(c.files))
	n := c.p.Len()
	dst.X = container.Resize(dst.X, len(idx)*n)
	dst.Y = container.Resize(dst.Y, len(idx))
	for k, i := range idx {
		if err := c.p.Apply(dst.X[k*n:(k+1)*n], c.dec, c.names[i], c.files[i], r.For(i)); err != nil {
			panic(err) // a read that fails panics; the loop reports it as a *container.PanicError
		}
		dst.Y[k] = c.labels[i]
	}
	return dst
}

func Example_augmentImages() {
	// Three photographs, each used as 8 "images" of its class.
	var names []string
	var files [][]byte
	var labels []int
	for class, name := range []string{"astronaut_q90_420.jpg", "chelsea_q95_444.jpg", "coffee_q85_422.jpg"} {
		data, err := os.ReadFile("../augment/testdata/" + name)
		if err != nil {
			panic(err)
		}
		for range 8 {
			names, files, labels = append(names, name), append(files, data), append(labels, class)
		}
	}
	// torchvision's ImageNet training transform.
	p, err := augment.New(augment.CHW,
		augment.RandomResizedCrop{Size: image.Pt(224, 224)},
		augment.RandomHorizontalFlip{},
		augment.ImageNet)
	if err != nil {
		panic(err)
	}
	data := &jpegs{names: names, files: files, labels: labels, p: p, dec: turbo.New(imagecodec.Options{})}

	// One shuffled epoch in batches of 8, serially and with two workers: the
	// same floats, since each image draws from its own generator.
	epoch := func(opts ...eachobs.Option) (floats [][]float32) {
		for b := range eachobs.Batches(data, 8, append(opts, eachobs.Shuffle(7))...) {
			if len(opts) == 0 {
				fmt.Println("batch", b.Pos.Batch, "floats", len(b.Data.X), "labels", b.Data.Y)
			}
			floats = append(floats, slices.Clone(b.Data.X)) // b.Data is reused by the next batch
		}
		return floats
	}
	serial := epoch()
	parallel := epoch(eachobs.Workers(2))
	fmt.Println("the same with 2 workers:", slices.EqualFunc(serial, parallel, slices.Equal))
	// Output:
	// batch 0 floats 1204224 labels [1 0 1 1 1 0 0 2]
	// batch 1 floats 1204224 labels [2 1 0 0 2 1 2 2]
	// batch 2 floats 1204224 labels [1 2 1 2 0 0 2 0]
	// the same with 2 workers: true
}
