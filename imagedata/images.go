package imagedata

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/internal/freelist"
	"github.com/obskit/obskit/obsdim"
)

// images is the container of decoded images behind [Images] (float32
// output) and [ImagesUint8] (8-bit output): the element type decides only
// which of the pipeline's methods writes a slot.
type images[E float32 | uint8] struct {
	enc   container.Container[[]byte]
	p     *augment.Pipeline
	dec   imagecodec.Decoder
	shape []int
	skips *Skips
	// class[i] is the label class of image i, for replacements; nil: any.
	class []int32
	free  freelist.List[scratch]
	// apply writes one image into a slot: p.Apply or p.ApplyUint8.
	apply func(slot []E, dec imagecodec.Decoder, name string, data []byte, rng *rand.Rand) error
}

// init checks the arguments of op and sets im up.
func (im *images[E]) init(op string, enc container.Container[[]byte], p *augment.Pipeline, dec imagecodec.Decoder, class []int32, opts []Option) {
	container.CheckArg(enc != nil, op, "images", enc, "a container of encoded images")
	container.CheckArg(p != nil, op, "pipeline", p, "an *augment.Pipeline")
	container.CheckArg(dec != nil, op, "decoder", dec, "an imagecodec.Decoder")
	var o options
	for _, opt := range opts {
		container.CheckArg(opt != nil, op, "option", opt, "an Option")
		opt(&o)
	}
	switch apply := any(&im.apply).(type) {
	case *func([]float32, imagecodec.Decoder, string, []byte, *rand.Rand) error:
		*apply = p.Apply
	case *func([]uint8, imagecodec.Decoder, string, []byte, *rand.Rand) error:
		container.CheckArg(p.CanUint8(), op, "pipeline", "an Affine pipeline", "a pipeline that writes 8-bit output (augment.Pipeline.CanUint8)")
		*apply = p.ApplyUint8
	}
	s := p.Shape()
	im.enc, im.p, im.dec, im.shape, im.skips, im.class = enc, p, dec, s[:], o.skips, class
}

func (im *images[E]) getObsRand(op string, i int, r container.ObsRand) *arraycontainer.Array[E] {
	container.CheckIndex(op, i, im.enc.Nobs())
	s := im.free.Get()
	defer im.free.Put(s)
	obs := arraycontainer.Resize[E](nil, im.shape, obsdim.First)
	im.image(obs.Data(), i, r, s)
	return obs
}

func (im *images[E]) getObsRandInto(op string, dst *arraycontainer.Array[E], idx []int, r container.ObsRand) *arraycontainer.Array[E] {
	container.CheckIndices(op, idx, im.enc.Nobs())
	s := im.free.Get()
	defer im.free.Put(s)
	s.shape = append(append(s.shape[:0], len(idx)), im.shape...)
	dst = arraycontainer.Resize(dst, s.shape, obsdim.First)
	out, n := dst.Data(), im.p.Len()
	for k, i := range idx {
		im.image(out[k*n:(k+1)*n:(k+1)*n], i, r, s)
	}
	return dst
}

// image writes image i into slot, drawn with r.For(i), or its replacement
// when it fails and the container skips; otherwise it panics with the error.
func (im *images[E]) image(slot []E, i int, r container.ObsRand, s *scratch) {
	err := im.decode(slot, i, r.For(i), s)
	if err == nil {
		return
	}
	if im.skips == nil {
		panic(err)
	}
	n := im.enc.Nobs()
	tries := 0
	for j := (i + 1) % n; j != i && tries < maxTries; j = (j + 1) % n {
		if im.class != nil && im.class[j] != im.class[i] {
			continue
		}
		tries++
		if im.decode(slot, j, r.For(i), s) == nil {
			im.skips.add(Skip{Index: i, With: j, Err: err})
			return
		}
	}
	panic(fmt.Errorf("%w (skipping it: no other image of its label among the next %d decodes)", err, tries))
}

// decode reads image i and writes its augmentation, drawn from rng, into
// slot.
func (im *images[E]) decode(slot []E, i int, rng *rand.Rand, s *scratch) error {
	var err error
	if s.data, err = container.AppendObs(im.enc, s.data[:0], i); err != nil {
		if errors.Is(err, ErrRead) {
			return err // this package's containers name the image
		}
		return fmt.Errorf("imagedata: %w: %w", ErrRead, err) // err names where, as container.Encoded's do
	}
	// The decoder's errors name the image as "image"; where it is comes
	// from enc.Where, called only then, since it may allocate.
	if err := im.apply(slot, im.dec, "image", s.data, rng); err != nil {
		where := container.Where(im.enc, i)
		if where == "" {
			where = "image " + strconv.Itoa(i)
		}
		return readError(where, "", err)
	}
	return nil
}

// scratch holds the buffers of one read.
type scratch struct {
	data  []byte // the encoded image
	shape []int  // the batch's shape
}
