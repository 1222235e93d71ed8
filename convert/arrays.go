package convert

import (
	"sync"
	"unsafe"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/fileio/mmap"
	"github.com/obskit/obskit/obsdim"
	"golang.org/x/exp/constraints"
)

var _ container.Random[*arraycontainer.Array[float32], *arraycontainer.Array[float32]] = (*Arrays[float32])(nil)

// Arrays is a container of arrays of E computed from another container as it is
// read: the result of [Scale], [Standardize] and [OneHot]. It is Batched: a batch
// is gathered and converted into the caller's buffer, reusing it, with no
// allocation once warm. Like every container it is stateless and safe for
// concurrent readers.
type Arrays[E arraycontainer.Number] struct {
	k      kernel[E]
	blocks []int // the source's block starts, or nil
}

// kernel is what an Arrays computes.
type kernel[E arraycontainer.Number] interface {
	nobs() int
	// layout returns the shape of an observation and the observation axis of a
	// batch.
	layout() (obs []int, dim int)
	// into gathers and converts the observations at checked indices idx, drawn
	// with r when r is not nil and the source is random.
	into(dst *arraycontainer.Array[E], idx []int, d draw) *arraycontainer.Array[E]
	// then returns the kernel followed by v*scale[k]+shift[k] (per feature, or
	// one pair for all), when the kernel is affine itself.
	then(scale, shift []float64) (kernel[E], bool)
}

// Nobs returns the number of observations, the wrapped container's.
func (a *Arrays[E]) Nobs() int { return a.k.nobs() }

// BlockStarts returns the block starts of the wrapped container
// (container.Blocked), or nil when it has no blocks: observation i is its
// observation i, converted, in the same blocks.
func (a *Arrays[E]) BlockStarts() []int { return a.blocks }

// ObsShape returns the shape of one observation, newly allocated.
func (a *Arrays[E]) ObsShape() []int {
	obs, _ := a.k.layout()
	return append([]int(nil), obs...)
}

// GetObs returns observation i, converted, in newly allocated memory. It panics
// with a [*container.IndexError] when i is out of range.
func (a *Arrays[E]) GetObs(i int) *arraycontainer.Array[E] {
	container.CheckIndex("convert.Arrays.GetObs", i, a.k.nobs())
	return a.obs(i, draw{})
}

// obs returns observation i (checked), drawn with r when r is not nil.
func (a *Arrays[E]) obs(i int, d draw) *arraycontainer.Array[E] {
	b := a.k.into(nil, []int{i}, d)
	obs, _ := a.k.layout()
	o, err := b.Reshape(obs, obsdim.First)
	if err != nil {
		panic("convert: " + err.Error()) // a batch of one holds one observation's elements
	}
	return o
}

// GetObsInto gathers the observations at idx, converted, into dst (reused when it
// can hold them) and returns the batch: an array with the wrapped container's
// batch layout. It panics with a [*container.IndexError] when an index is out of
// range.
func (a *Arrays[E]) GetObsInto(dst *arraycontainer.Array[E], idx []int) *arraycontainer.Array[E] {
	container.CheckIndices("convert.Arrays.GetObsInto", idx, a.k.nobs())
	return a.k.into(dst, idx, draw{})
}

// GetObsRand returns observation i, converted, drawn with r when the wrapped
// container is random. It panics as GetObs does.
func (a *Arrays[E]) GetObsRand(i int, r container.ObsRand) *arraycontainer.Array[E] {
	container.CheckIndex("convert.Arrays.GetObsRand", i, a.k.nobs())
	return a.obs(i, draw{r, true})
}

// GetObsRandInto is GetObsInto with the observations drawn with r when the
// wrapped container is random.
func (a *Arrays[E]) GetObsRandInto(dst *arraycontainer.Array[E], idx []int, r container.ObsRand) *arraycontainer.Array[E] {
	container.CheckIndices("convert.Arrays.GetObsRandInto", idx, a.k.nobs())
	return a.k.into(dst, idx, draw{r, true})
}

// source is a container of arrays of E, as the wrapping functions take it.
type source[E arraycontainer.Number] = container.Batched[*arraycontainer.Array[E], *arraycontainer.Array[E]]

// affine is the kernel of Scale and Standardize: v*scale + shift, per feature or
// with one pair for all.
type affine[From arraycontainer.Number, To constraints.Float] struct {
	src    source[From]
	n      int
	obs    []int // the shape of an observation
	dim    int   // the observation axis of a batch
	obsLen int

	// The fused path, when the observations are contiguous rows of one array:
	// observation i of root starts at base + i*stride. view maps the indices of
	// src to those of root when src is a view of root.
	root         []From
	base, stride int
	fused        bool
	view         container.IndexView[*arraycontainer.Array[From], *arraycontainer.Array[From]]
	region       *mmap.Region // the mapping root reads (src keeps it alive), or nil for Go memory

	s64, b64     []float64 // the map, in float64, for composing
	scale, shift []To      // the map: len 1, or obsLen
	lut          []To      // 256 entries: the map of every 8-bit From, or nil

	pool sync.Pool // of *scratch[From]
}

type scratch[From arraycontainer.Number] struct {
	idx   []int
	shape []int
	batch *arraycontainer.Array[From]
	block []From // rows copied from the source, converted while in L1
}

// blockBytes is how many source bytes the fused path copies before it converts
// them: 16 KiB, a third of the smallest L1 data cache of current x86 and arm64
// cores. The copy reads the scattered rows with the memory parallelism of
// memmove; the conversion then reads them from L1 instead of stalling on each
// cache line of a row in turn (measured: converting straight from the shuffled
// rows ran at 1.3x the time of a plain gather followed by a conversion loop).
const blockBytes = 16 << 10

// newAffine returns the kernel of v*scale+shift over src; scale and shift hold
// one value or one per feature.
func newAffine[From arraycontainer.Number, To constraints.Float](src source[From], scale, shift []float64) *affine[From, To] {
	k := &affine[From, To]{src: src, n: src.Nobs(), s64: scale, b64: shift}
	k.obs, k.dim = layoutOf(src)
	k.obsLen = 1
	for _, s := range k.obs {
		k.obsLen *= s
	}
	var root *arraycontainer.Array[From]
	switch s := src.(type) {
	case *arraycontainer.Array[From]:
		root = s
	case container.IndexView[*arraycontainer.Array[From], *arraycontainer.Array[From]]:
		if a, ok := s.Source().(*arraycontainer.Array[From]); ok {
			root, k.view = a, s
		}
	}
	if root != nil && root.Rank() > 0 && root.Dim() == 0 && rowsContiguous(root) {
		k.root, k.base, k.stride, k.fused = root.Data(), root.Offset(), root.Strides()[0], true
		k.region = mmap.Of(root)
	} else {
		k.view = nil
	}
	k.scale, k.shift = make([]To, len(scale)), make([]To, len(shift))
	for j := range scale {
		k.scale[j], k.shift[j] = To(scale[j]), To(shift[j])
	}
	var zero From
	if len(scale) == 1 && unsafe.Sizeof(zero) == 1 {
		k.lut = make([]To, 256)
		for u := range 256 {
			k.lut[u] = To(From(uint8(u)))*k.scale[0] + k.shift[0]
		}
	}
	k.pool.New = func() any { return new(scratch[From]) }
	return k
}

// layoutOf returns the observation shape and batch axis of a container of
// arrays, read from an empty batch.
func layoutOf[E arraycontainer.Number](src source[E]) (obs []int, dim int) {
	b := src.GetObsInto(nil, []int{})
	shape := b.Shape()
	dim = b.Dim()
	if dim < 0 { // cannot happen: a batch has an observation axis
		return shape, 0
	}
	return append(shape[:dim:dim], shape[dim+1:]...), dim
}

// rowsContiguous reports whether every observation of a (observation axis 0) is
// one row-major block.
func rowsContiguous[E arraycontainer.Number](a *arraycontainer.Array[E]) bool {
	shape, strides := a.Shape(), a.Strides()
	want := 1
	for k := len(shape) - 1; k >= 1; k-- {
		if shape[k] != 1 && strides[k] != want {
			return false
		}
		want *= shape[k]
	}
	return true
}

func (k *affine[From, To]) nobs() int             { return k.n }
func (k *affine[From, To]) layout() ([]int, int)  { return k.obs, k.dim }
func (k *affine[From, To]) perFeature() bool      { return len(k.scale) > 1 }
func (k *affine[From, To]) get() *scratch[From]   { return k.pool.Get().(*scratch[From]) }
func (k *affine[From, To]) put(sc *scratch[From]) { k.pool.Put(sc) }
func (k *affine[From, To]) batchShape(sc *scratch[From], m int) []int {
	r := len(k.obs) + 1
	sc.shape = container.Resize(sc.shape, r)
	copy(sc.shape, k.obs[:k.dim])
	sc.shape[k.dim] = m
	copy(sc.shape[k.dim+1:], k.obs[k.dim:])
	return sc.shape
}

func (k *affine[From, To]) into(dst *arraycontainer.Array[To], idx []int, d draw) *arraycontainer.Array[To] {
	sc := k.get()
	defer k.put(sc)
	dst = arraycontainer.Resize(dst, k.batchShape(sc, len(idx)), obsdim.Constant(k.dim))
	out := dst.Data()
	L := k.obsLen
	if k.fused { // an array or a view of one: never random
		if k.region != nil { // a mapped file: a fault (the file truncated) panics with the file's name
			defer k.region.Recover(k.region.Guard())
		}
		ids := idx
		if k.view != nil {
			sc.idx = k.view.MapIndices(sc.idx, idx)
			ids = sc.idx
		}
		var zero From
		rows := max(1, blockBytes/(max(L, 1)*int(unsafe.Sizeof(zero))))
		sc.block = container.Resize(sc.block, rows*L)
		for j0 := 0; j0 < len(ids); j0 += rows {
			j1 := min(j0+rows, len(ids))
			blk := sc.block[:(j1-j0)*L]
			for j, i := range ids[j0:j1] {
				lo := k.base + i*k.stride
				copy(blk[j*L:(j+1)*L], k.root[lo:lo+L])
			}
			if k.perFeature() {
				for j := range j1 - j0 {
					k.row(out[(j0+j)*L:(j0+j+1)*L], blk[j*L:(j+1)*L])
				}
			} else {
				k.row(out[j0*L:j1*L], blk)
			}
		}
		return dst
	}
	sc.batch = gather(k.src, sc.batch, idx, d)
	b := sc.batch
	if !b.IsContiguous() {
		b = b.Clone() // a container whose batches are views: rare, and copied
	}
	in := b.Data()[b.Offset() : b.Offset()+b.Len()]
	if !k.perFeature() {
		k.row(out, in)
		return dst
	}
	for j := range len(idx) { // per feature: observation axis 0, checked at construction
		k.row(out[j*L:(j+1)*L], in[j*L:(j+1)*L])
	}
	return dst
}

// row converts in into out, element by element (len(out) == len(in); per
// feature, one observation).
func (k *affine[From, To]) row(out []To, in []From) {
	out = out[:len(in)]
	switch {
	case k.lut != nil:
		lut := k.lut[:256]
		for j, v := range in {
			out[j] = lut[uint8(v)]
		}
	case !k.perFeature():
		s, b := k.scale[0], k.shift[0]
		for j, v := range in {
			out[j] = To(v)*s + b
		}
	default:
		s, b := k.scale[:len(in)], k.shift[:len(in)]
		for j, v := range in {
			out[j] = To(v)*s[j] + b[j]
		}
	}
}

func (k *affine[From, To]) then(scale, shift []float64) (kernel[To], bool) {
	n := max(len(k.s64), len(scale))
	s, b := make([]float64, n), make([]float64, n)
	for j := range n {
		s0, b0 := k.s64[min(j, len(k.s64)-1)], k.b64[min(j, len(k.b64)-1)]
		s1, b1 := scale[min(j, len(scale)-1)], shift[min(j, len(shift)-1)]
		s[j], b[j] = s0*s1, b0*s1+b1
	}
	return newAffine[From, To](k.src, s, b), true
}

// draw is the randomness a gather draws with: r when on, none (the source's
// GetObs and GetObsInto) otherwise. It is passed by value: a pointer handed to a
// kernel (an interface) or a closure escapes, and cost an allocation per batch.
type draw struct {
	r  container.ObsRand
	on bool
}

// gather gathers the observations at idx of c into dst, drawn with d.r when
// d.on.
func gather[T, B any](c container.Batched[T, B], dst B, idx []int, d draw) B {
	if d.on {
		return container.GetObsRandInto(c, dst, idx, d.r)
	}
	return c.GetObsInto(dst, idx)
}
