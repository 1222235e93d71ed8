package imagedata

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/tuples"
)

var (
	_ container.Random[*arraycontainer.Array[float32], *arraycontainer.Array[float32]] = (*Images)(nil)
	_ arraycontainer.Batched[float32]                                                  = (*Images)(nil)
)

// Images is a container of decoded images: observation i is encoded image i
// decoded and augmented by a pipeline of package augment, a float32 array of
// the pipeline's shape (3 x height x width for augment.CHW, height x width x 3
// for augment.HWC); a batch is an array with the batch first, each image
// written by the pipeline straight into its slot.
//
// Images is a container.Random: the loops of package eachobs hand it the
// randomness of their pass, and image i draws its augmentation from the
// generator of i alone (container.ObsRand.For), so a batch is the same with
// any number of workers and after a resume. Read with GetObs and GetObsInto,
// it draws as in seed 0, epoch 0.
//
// It is stateless apart from reused buffers: any number of goroutines may read
// it at once. Make one with [Decode] (labeled data) or [NewImages].
type Images struct{ c images[float32] }

// An Option configures a container of decoded images.
type Option func(*options)

type options struct {
	skips *Skips
}

// SkipBad makes the container skip the images that cannot be read or decoded
// instead of panicking: such an image is replaced in its slot by the next
// image after it, in the container's order (going round to the start), that
// decodes and, for [Decode], has the same label, so that the label beside it
// stays true. The replacement is drawn with the skipped image's generator, so
// the batch is still the same for every number of workers. Each skip is
// recorded in skips, which says how many and which; Nobs does not change.
// When none of the next 16 images of its label decodes either, the read
// panics as without SkipBad. SkipBad panics with a *container.ArgError if
// skips is nil.
func SkipBad(skips *Skips) Option {
	container.CheckArg(skips != nil, "imagedata.SkipBad", "skips", skips, "a *Skips to record the skipped images in")
	return func(o *options) { o.skips = skips }
}

// maxTries is the number of replacements tried for a skipped image.
const maxTries = 16

// NewImages returns the container of the images of enc, each decoded with dec
// and augmented by p. enc is a container of encoded images, any container of
// []byte. Each image is read with container.AppendObs into a buffer reused from
// image to image and decoded, only the part the augmentation keeps, by
// p.Apply. When enc is a container.Encoded (a [*Files] or [*RecordImages], a
// recordio.File of images, a binary column, a view or a join of any of them)
// the read allocates nothing once the buffer has grown, a read that fails can
// be skipped ([SkipBad]) and an error names the file or record (enc.Where);
// otherwise an image is read by enc's GetObs, whose failure panics as it does.
// NewImages panics with a *container.ArgError if enc, p or dec is nil.
func NewImages(enc container.Container[[]byte], p *augment.Pipeline, dec imagecodec.Decoder, opts ...Option) *Images {
	im := &Images{}
	im.c.init("imagedata.NewImages", enc, p, dec, nil, opts)
	return im
}

// Decoded is the container of labeled images [Decode] returns: a
// tuples.Tuple2 of the decoded images (X, an [*Images]) and their labels (Y).
// Its observations are tuples.Pair[*arraycontainer.Array[float32], L], so
// subset.StratifiedSplit, tuples.Labels and the loops take it unchanged and
// read the labels without decoding an image.
type Decoded[L any] = tuples.Tuple2[*Images, container.Slice[L], *arraycontainer.Array[float32], *arraycontainer.Array[float32], L, []L]

// Decode returns the images of the labeled data set data (an [OpenFolder],
// [OpenList] or [OpenRecords] data set, or a view of one such as a split
// part, or any labeled container of encoded images) decoded with dec and
// augmented by p, beside their labels, which it reads once, without reading an
// image. The images are tuples.Features(data), read as [NewImages] reads
// them: the data sets of this package and their views are container.Encoded.
// Observation i is image i of data as a float32 array (see [Images]) and its
// label:
//
//	train := imagedata.Decode(parts[0], augmentation, turbo.New(imagecodec.Options{}))
//	for b := range eachobs.Batches(train, 64, eachobs.Shuffle(seed), eachobs.Workers(2)) {
//		// b.Data.X: [64 3 224 224] float32, b.Data.Y: 64 labels
//	}
//
// With [SkipBad], an image that cannot be read or decoded is replaced by one
// of its label. Decode panics with a *container.ArgError if data, p or dec is
// nil.
func Decode[L any](data container.Batched[tuples.Pair[[]byte, L], tuples.Pair[[][]byte, []L]], p *augment.Pipeline, dec imagecodec.Decoder, opts ...Option) *Decoded[L] {
	container.CheckArg(data != nil, "imagedata.Decode", "data", data, "a labeled container of encoded images")
	labels := tuples.Labels(data)
	im := &Images{}
	im.c.init("imagedata.Decode", tuples.Features(data), p, dec, classes(labels), opts)
	t, err := tuples.Zip2(im, container.Slice[L](labels))
	if err != nil {
		panic(err) // cannot happen: one label an image
	}
	return t
}

// classes numbers the distinct labels, for replacements of the same label.
func classes[L any](labels []L) []int32 {
	comparable := reflect.TypeFor[L]().Comparable()
	ids := map[any]int32{}
	class := make([]int32, len(labels))
	for i, l := range labels {
		var key any = l
		if !comparable {
			key = fmt.Sprint(l) // []float32 labels: equal when they print alike
		}
		id, ok := ids[key]
		if !ok {
			id = int32(len(ids))
			ids[key] = id
		}
		class[i] = id
	}
	return class
}

// Nobs returns the number of images.
func (im *Images) Nobs() int { return im.c.enc.Nobs() }

// ObsShape returns the shape of one image, newly allocated: the pipeline's
// Shape.
func (im *Images) ObsShape() []int { return slices.Clone(im.c.shape) }

// Pipeline returns the augmentation pipeline.
func (im *Images) Pipeline() *augment.Pipeline { return im.c.p }

// Encoded returns the container of the encoded images.
func (im *Images) Encoded() container.Container[[]byte] { return im.c.enc }

// BlockStarts returns the blocks of the encoded images (container.Blocked), nil
// when they have none: image i is decoded from encoded image i alone, so the
// images of a container stored in blocks (shards, the row groups of a binary
// column, joined .rec files) keep its blocks, and eachobs.ShuffleBlocks reads
// them a window of blocks at a time.
func (im *Images) BlockStarts() []int { return container.BlockStarts(im.c.enc) }

// GetObs returns image i decoded and augmented with the randomness of seed
// 0, epoch 0, in a newly allocated array. It panics with a
// *container.IndexError when i is out of range, and with an error wrapping
// [ErrRead] and its cause (a read error, imagecodec.ErrFormat,
// imagecodec.ErrUnsupported, the augmentation's own...) that names the file, or
// the record's key and offset, when the image cannot be read or decoded and
// the container does not skip it.
func (im *Images) GetObs(i int) *arraycontainer.Array[float32] {
	return im.c.getObsRand("imagedata.Images.GetObs", i, container.ObsRand{})
}

// GetObsInto decodes and augments the images at idx into dst with the
// randomness of seed 0, epoch 0: GetObsRandInto with
// container.NewObsRand(0, 0). It panics as GetObs does.
func (im *Images) GetObsInto(dst *arraycontainer.Array[float32], idx []int) *arraycontainer.Array[float32] {
	return im.c.getObsRandInto("imagedata.Images.GetObsInto", dst, idx, container.NewObsRand(0, 0))
}

// GetObsRand returns image i decoded and augmented with the generator
// r.For(i), in a newly allocated array. It panics as GetObs does.
func (im *Images) GetObsRand(i int, r container.ObsRand) *arraycontainer.Array[float32] {
	return im.c.getObsRand("imagedata.Images.GetObsRand", i, r)
}

// GetObsRandInto decodes and augments the images at idx into the slots of
// dst, image idx[k] with the generator r.For(idx[k]), and returns the batch,
// an array of shape [len(idx), ObsShape()...] that reuses dst's memory when it
// can hold it (arraycontainer.Resize). After the buffers have grown to the
// largest image it allocates nothing, but what the decoder allocates (nothing
// for libjpeg-turbo's JPEGs). It panics as GetObs does, before reading
// anything for an index out of range.
func (im *Images) GetObsRandInto(dst *arraycontainer.Array[float32], idx []int, r container.ObsRand) *arraycontainer.Array[float32] {
	return im.c.getObsRandInto("imagedata.Images.GetObsRandInto", dst, idx, r)
}
