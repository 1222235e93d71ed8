package imagedata

import (
	"slices"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/tuples"
)

var (
	_ container.Random[*arraycontainer.Array[uint8], *arraycontainer.Array[uint8]] = (*ImagesUint8)(nil)
	_ arraycontainer.Batched[uint8]                                                = (*ImagesUint8)(nil)
)

// ImagesUint8 is [Images] with 8-bit output: observation i is encoded image i
// decoded and augmented by the pipeline's ApplyUint8, a uint8 array of the
// pipeline's shape holding the pixels whose floats Images would hold (the
// same crop, colour steps and flip, drawn from the same generator), before
// ToTensor's division and the Normalize step. A trainer normalizes them on
// the device (gomlx.Normalize in the obskit/gomlx module); a batch is a
// quarter of the bytes of a float32 one. Everything else is as for Images:
// random access, randomness, skips, errors, no allocation per batch. Make one
// with [DecodeUint8] (labeled data) or [NewImagesUint8].
type ImagesUint8 struct{ c images[uint8] }

// NewImagesUint8 is [NewImages] with 8-bit output. It panics as NewImages
// does, and with a *container.ArgError if p cannot write 8-bit output (an
// augment.Affine pipeline: augment.Pipeline.CanUint8).
func NewImagesUint8(enc container.Container[[]byte], p *augment.Pipeline, dec imagecodec.Decoder, opts ...Option) *ImagesUint8 {
	im := &ImagesUint8{}
	im.c.init("imagedata.NewImagesUint8", enc, p, dec, nil, opts)
	return im
}

// DecodedUint8 is the container of labeled images [DecodeUint8] returns: a
// tuples.Tuple2 of the decoded images (X, an [*ImagesUint8]) and their labels
// (Y), as [Decoded] is [Decode]'s.
type DecodedUint8[L any] = tuples.Tuple2[*ImagesUint8, container.Slice[L], *arraycontainer.Array[uint8], *arraycontainer.Array[uint8], L, []L]

// DecodeUint8 is [Decode] with 8-bit output: observation i is image i of data
// as a uint8 array (see [ImagesUint8]) and its label.
//
//	train := imagedata.DecodeUint8(parts[0], augmentation, turbo.New(imagecodec.Options{}))
//	for b := range eachobs.Batches(train, 64, eachobs.Shuffle(seed), eachobs.Workers(2)) {
//		// b.Data.X: [64 224 224 3] uint8 for an augment.HWC pipeline, b.Data.Y: 64 labels
//	}
//
// It panics as Decode does, and as [NewImagesUint8] does for a pipeline that
// cannot write 8-bit output.
func DecodeUint8[L any](data container.Batched[tuples.Pair[[]byte, L], tuples.Pair[[][]byte, []L]], p *augment.Pipeline, dec imagecodec.Decoder, opts ...Option) *DecodedUint8[L] {
	container.CheckArg(data != nil, "imagedata.DecodeUint8", "data", data, "a labeled container of encoded images")
	labels := tuples.Labels(data)
	im := &ImagesUint8{}
	im.c.init("imagedata.DecodeUint8", tuples.Features(data), p, dec, classes(labels), opts)
	t, err := tuples.Zip2(im, container.Slice[L](labels))
	if err != nil {
		panic(err) // cannot happen: one label an image
	}
	return t
}

// Nobs returns the number of images.
func (im *ImagesUint8) Nobs() int { return im.c.enc.Nobs() }

// ObsShape returns the shape of one image, newly allocated: the pipeline's
// Shape.
func (im *ImagesUint8) ObsShape() []int { return slices.Clone(im.c.shape) }

// Pipeline returns the augmentation pipeline.
func (im *ImagesUint8) Pipeline() *augment.Pipeline { return im.c.p }

// Encoded returns the container of the encoded images.
func (im *ImagesUint8) Encoded() container.Container[[]byte] { return im.c.enc }

// BlockStarts returns the blocks of the encoded images, as
// [Images.BlockStarts] does.
func (im *ImagesUint8) BlockStarts() []int { return container.BlockStarts(im.c.enc) }

// GetObs returns image i decoded and augmented with the randomness of seed
// 0, epoch 0, in a newly allocated array. It panics as [Images.GetObs] does.
func (im *ImagesUint8) GetObs(i int) *arraycontainer.Array[uint8] {
	return im.c.getObsRand("imagedata.ImagesUint8.GetObs", i, container.ObsRand{})
}

// GetObsInto decodes and augments the images at idx into dst with the
// randomness of seed 0, epoch 0: GetObsRandInto with
// container.NewObsRand(0, 0). It panics as GetObs does.
func (im *ImagesUint8) GetObsInto(dst *arraycontainer.Array[uint8], idx []int) *arraycontainer.Array[uint8] {
	return im.c.getObsRandInto("imagedata.ImagesUint8.GetObsInto", dst, idx, container.NewObsRand(0, 0))
}

// GetObsRand returns image i decoded and augmented with the generator
// r.For(i), in a newly allocated array. It panics as GetObs does.
func (im *ImagesUint8) GetObsRand(i int, r container.ObsRand) *arraycontainer.Array[uint8] {
	return im.c.getObsRand("imagedata.ImagesUint8.GetObsRand", i, r)
}

// GetObsRandInto decodes and augments the images at idx into the slots of
// dst, as [Images.GetObsRandInto] does: the batch reuses dst's memory when it
// can hold it, and allocates nothing once the buffers have grown but what the
// decoder allocates. It panics as GetObs does.
func (im *ImagesUint8) GetObsRandInto(dst *arraycontainer.Array[uint8], idx []int, r container.ObsRand) *arraycontainer.Array[uint8] {
	return im.c.getObsRandInto("imagedata.ImagesUint8.GetObsRandInto", dst, idx, r)
}
