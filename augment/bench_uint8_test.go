package augment_test

import (
	"iter"
	"runtime"
	"testing"
	"time"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/obsdim"
)

// pixels is a container of encoded images decoded and augmented into 8-bit
// batches by ApplyUint8, image i drawn from the generator of i: the uint8
// counterpart of imagedata.NewImages, for BenchmarkImages' kit-u8 sides.
type pixels struct {
	data  [][]byte
	p     *augment.Pipeline
	dec   imagecodec.Decoder
	shape []int
}

func (c *pixels) Nobs() int { return len(c.data) }

func (c *pixels) GetObs(i int) *arraycontainer.Array[uint8] {
	return c.GetObsRand(i, container.ObsRand{})
}

func (c *pixels) GetObsInto(dst *arraycontainer.Array[uint8], idx []int) *arraycontainer.Array[uint8] {
	return c.GetObsRandInto(dst, idx, container.NewObsRand(0, 0))
}

func (c *pixels) GetObsRand(i int, r container.ObsRand) *arraycontainer.Array[uint8] {
	return c.GetObsRandInto(nil, []int{i}, r).ObsRange(0, 1)
}

func (c *pixels) GetObsRandInto(dst *arraycontainer.Array[uint8], idx []int, r container.ObsRand) *arraycontainer.Array[uint8] {
	shape := append([]int{len(idx)}, c.shape...)
	dst = arraycontainer.Resize(dst, shape, obsdim.First)
	out, n := dst.Data(), c.p.Len()
	for k, i := range idx {
		if err := c.p.ApplyUint8(out[k*n:(k+1)*n:(k+1)*n], c.dec, "bench.jpg", c.data[i], r.For(i)); err != nil {
			panic(err)
		}
	}
	return dst
}

// kitU8Side is kitSide with 8-bit output: a shuffled epoch of a part through
// p's ApplyUint8 with dec, in batches of 64, with workers goroutines (0:
// serially).
func kitU8Side(name string, parts [][][]byte, p *augment.Pipeline, dec imagecodec.Decoder, workers int) benchSide {
	opts := []eachobs.Option{eachobs.Shuffle(1)}
	if workers > 0 {
		opts = append(opts, eachobs.Workers(workers))
	}
	s := p.Shape()
	var loops []iter.Seq[eachobs.Batch[*arraycontainer.Array[uint8]]]
	for _, part := range parts {
		loops = append(loops, eachobs.Batches(&pixels{data: part, p: p, dec: dec, shape: s[:]}, 64, opts...))
	}
	return benchSide{name, func(b *testing.B, part int) (int, time.Duration, time.Duration) {
		if workers == 0 {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
		}
		n := 0
		c0, t0 := processCPU(), time.Now()
		for batch := range loops[part] {
			n += len(batch.Indices)
		}
		return n, time.Since(t0), processCPU() - c0
	}}
}
