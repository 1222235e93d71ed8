package eachobs

import (
	"fmt"
	"math/rand/v2"

	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/internal/mix"
)

// An order is the sequence in which a loop visits its container in every epoch:
// the container index at each position of the epoch's global order. It is the
// one thing that differs between a loop in data order, one shuffled by a cipher
// or by an array permutation, and one in blocks; the schedule of steps and
// parts (index.Steps) says which positions a batch takes, and the order maps
// them, a run of positions at a time, with no closure and no check per index.
//
// An order belongs to one run of a loop, used by one goroutine at a time (the
// pipeline's source): it may keep the state of the epoch it is in (an array
// permutation, a cipher's keys).
type order interface {
	// fill writes into dst the container indices at positions start,
	// start+stride, ..., of epoch e: len(dst) positions, all in [0, n).
	fill(dst []int, e, start, stride int)
}

// An orderKind is an order as an option names it: how to make the order of a
// run, and its name in a Position.
type orderKind struct {
	// name identifies the order in a Position: a loop resumes only a position
	// of its own order.
	name string
	// option names the option that chose it, for the errors of Resume.
	option string
	// make returns the order of a run over n observations with seed.
	make func(n int, seed uint64) order
}

var dataKind = orderKind{name: "data", option: "no shuffle", make: func(int, uint64) order { return dataOrder{} }}

// cipherKind is the order of Shuffle: index.Cipher of (n, seed, epoch).
var cipherKind = orderKind{name: "cipher", option: "Shuffle", make: func(n int, seed uint64) order {
	return &cipherOrder{n: n, seed: seed, epoch: -1}
}}

// permKind is the order of ShufflePerm: rand.New(rand.NewPCG(seed, e)).Perm(n).
var permKind = orderKind{name: "perm", option: "ShufflePerm", make: func(n int, seed uint64) order {
	src := rand.NewPCG(seed, 0)
	return &permOrder{seed: seed, perm: make([]int, n), epoch: -1, src: src, rng: rand.New(src)}
}}

// blocksKind returns the order of ShuffleBlocksOf: index.NewBlocks.
func blocksKind(block, window int) orderKind {
	return orderKind{
		name:   fmt.Sprintf("blocks %dx%d", block, window),
		option: "ShuffleBlocksOf",
		make: func(n int, seed uint64) order {
			return &blocksOrder{b: index.NewBlocks(n, block, window, seed, 0), seed: seed, epoch: -1}
		},
	}
}

// domainStarts keeps the hash of block starts apart from the kit's keys.
const domainStarts = 0x7374617274732d68 // "starts-h"

// blocksAtKind returns the order of ShuffleBlocks over blocks of a container:
// index.NewBlocksAt. Its name holds the number of blocks and a hash of their
// starts, so that a position is restored only into a loop over the same
// blocks.
func blocksAtKind(starts []int, window int) orderKind {
	h := uint64(len(starts))
	for _, s := range starts {
		h = mix.Key(domainStarts, h, uint64(s))
	}
	return orderKind{
		name:   fmt.Sprintf("blocks %d@%016xx%d", len(starts)-1, h, window),
		option: "ShuffleBlocks",
		make: func(_ int, seed uint64) order {
			return &blocksOrder{b: index.NewBlocksAt(starts, window, seed, 0), seed: seed, epoch: -1}
		},
	}
}

// localBlocksKind returns the order of ShuffleBlocksLocal over blocks of a
// container: index.NewLocalBlocks. Its name is blocksAtKind's with the
// number of runs.
func localBlocksKind(starts []int, window, parts int) orderKind {
	k := blocksAtKind(starts, window)
	return orderKind{
		name:   fmt.Sprintf("%s/%d", k.name, parts),
		option: "ShuffleBlocksLocal",
		make: func(_ int, seed uint64) order {
			return &localOrder{b: index.NewLocalBlocks(starts, window, parts, seed, 0), seed: seed, epoch: -1}
		},
	}
}

// localOrder computes each position's index with the epoch's
// index.LocalBlocks, reset from epoch to epoch.
type localOrder struct {
	b     index.LocalBlocks
	seed  uint64
	epoch int
}

func (o *localOrder) fill(dst []int, e, start, stride int) {
	if e != o.epoch {
		o.b.Reset(o.seed, e)
		o.epoch = e
	}
	o.b.Fill(dst, start, stride)
}

// dataOrder is the data order: position i is index i.
type dataOrder struct{}

func (dataOrder) fill(dst []int, _, start, stride int) {
	for j := range dst {
		dst[j] = start + j*stride
	}
}

// cipherOrder computes each position's index with the epoch's cipher.
type cipherOrder struct {
	n     int
	seed  uint64
	epoch int
	c     index.Cipher
}

func (o *cipherOrder) fill(dst []int, e, start, stride int) {
	if e != o.epoch {
		o.c, o.epoch = index.NewCipher(o.n, o.seed, e), e
	}
	if stride == 1 {
		o.c.Fill(dst, start)
		return
	}
	for j := range dst {
		dst[j] = o.c.At(start + j*stride)
	}
}

// permOrder draws the epoch's permutation when the run reaches the epoch and
// reads it.
type permOrder struct {
	seed  uint64
	perm  []int
	epoch int
	src   *rand.PCG
	rng   *rand.Rand
}

func (o *permOrder) fill(dst []int, e, start, stride int) {
	if e != o.epoch {
		o.src.Seed(o.seed, uint64(e))
		index.PermInto(o.perm, o.rng)
		o.epoch = e
	}
	if stride == 1 {
		copy(dst, o.perm[start:start+len(dst)])
		return
	}
	for j := range dst {
		dst[j] = o.perm[start+j*stride]
	}
}

// blocksOrder computes each position's index with the epoch's two-level
// order, one index.Blocks reset from epoch to epoch (its table of blocks, for
// blocks of any sizes, is allocated once per run).
type blocksOrder struct {
	b     index.Blocks
	seed  uint64
	epoch int
}

func (o *blocksOrder) fill(dst []int, e, start, stride int) {
	if e != o.epoch {
		o.b.Reset(o.seed, e)
		o.epoch = e
	}
	if stride == 1 {
		o.b.Fill(dst, start)
		return
	}
	for j := range dst {
		dst[j] = o.b.At(start + j*stride)
	}
}
