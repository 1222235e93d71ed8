package gomlx

import (
	"fmt"
	"slices"
	"strconv"
	"unsafe"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/distributed"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/core/tensors/dtensor"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
)

// A Writer writes one batch into the tensors of a training step: the fill
// function given to [New] asks it for each tensor in turn, the inputs with
// [Writer.Input] and the labels with [Writer.Label], and writes each with
// [Array], [Values] or [Stack]. The first batch fixes the number, element
// types and shapes of the tensors; a later batch that differs is an error
// wrapping [ErrShape], yielded by [Dataset.Iter].
//
// Every batch gets new tensors, made on the backend's device
// (tensors.FromRaw from the batch's bytes when [Array] is given a contiguous
// batch, tensors.FromShapeForBackend and a write otherwise: with a backend of
// shared buffers, such as the pure-Go one, into the memory the graph reads, the
// one copy a batch costs), since GoMLX's trainer takes the ownership of a batch's
// tensors and frees them after the step. The writer's own code allocates
// nothing per batch when the batch's arrays are contiguous with the
// observation axis first, as every batch the kit gathers from an
// observation-first array is: the allocations per batch are those of GoMLX's
// tensors.
type Writer struct {
	backend    compute.Backend
	host       bool // reuse host tensors instead (measured against the device route; see route.go)
	mask       bool
	parts      int                       // shards per tensor: 1, or the devices of a Distributed dataset
	sharding   *distributed.ShardingSpec // of every tensor, when distributed
	real, size int
	in, lab    []*Slot
	ni, nl     int
	first      bool // the first batch: it makes the slots
	made       bool // a batch was written
	inputs     []*tensors.Tensor
	labels     []*tensors.Tensor
	dinputs    []*dtensor.Tensor
	dlabels    []*dtensor.Tensor
	err        error
}

// A Slot is one tensor of a step, handed out by [Writer.Input] or
// [Writer.Label] and written by [Array], [Values] or [Stack].
type Slot struct {
	w      *Writer
	role   string // "input" or "label"
	k      int
	t      []*tensors.Tensor // one per part: the shards of a distributed tensor
	dtype  dtypes.DType
	dims   []int        // of the tensor (of a shard, when distributed), the batch first
	shape  shapes.Shape // dtype and dims
	made   bool         // its tensors were made for this batch
	key    [3]int       // batch length, elements per observation, rank of the source
	filled bool
}

// Input returns the slot of the next input tensor of the step.
func (w *Writer) Input() *Slot { return w.slot(&w.in, &w.ni, "input") }

// Label returns the slot of the next label tensor of the step.
func (w *Writer) Label() *Slot { return w.slot(&w.lab, &w.nl, "label") }

func (w *Writer) slot(slots *[]*Slot, n *int, role string) *Slot {
	k := *n
	*n++
	if k == len(*slots) {
		if !w.first && w.err == nil {
			w.err = fmt.Errorf("%s %d is one more than the first batch had: %w", role, k, ErrShape)
		}
		*slots = append(*slots, &Slot{w: w, role: role, k: k})
	}
	s := (*slots)[k]
	s.filled, s.made = false, false
	return s
}

// begin starts a batch of size slots, real of them observations.
func (w *Writer) begin(real, size int) {
	w.real, w.size, w.ni, w.nl = real, size, 0, 0
	w.first = !w.made
}

// end finishes a batch: it checks that the batch wrote the tensors of the first
// one, adds the mask, and collects the tensors. It returns the batch's first
// error.
func (w *Writer) end() error {
	if w.err != nil {
		return w.err
	}
	if w.ni == 0 {
		return fmt.Errorf("the fill function wrote no input: GoMLX needs at least one")
	}
	if w.mask {
		w.putMask(w.Label())
	}
	if w.err != nil {
		return w.err
	}
	if !w.first && (w.ni != len(w.in) || w.nl != len(w.lab)) {
		return fmt.Errorf("%d inputs and %d labels, the first batch had %d and %d: %w", w.ni, w.nl, len(w.in), len(w.lab), ErrShape)
	}
	for _, s := range w.in[:w.ni] {
		if !s.filled {
			return fmt.Errorf("input %d was asked for and not written", s.k)
		}
	}
	for _, s := range w.lab[:w.nl] {
		if !s.filled {
			return fmt.Errorf("label %d was asked for and not written", s.k)
		}
	}
	w.made = true
	if w.sharding != nil {
		return w.collectDistributed()
	}
	if w.inputs == nil {
		w.inputs = make([]*tensors.Tensor, w.ni)
		w.labels = make([]*tensors.Tensor, w.nl)
	}
	for k, s := range w.in[:w.ni] {
		w.inputs[k] = s.t[0]
	}
	for k, s := range w.lab[:w.nl] {
		w.labels[k] = s.t[0]
	}
	return nil
}

// discard frees the tensors of a batch that failed, which no caller owns.
func (w *Writer) discard() {
	if w.host {
		return
	}
	for _, slots := range [][]*Slot{w.in, w.lab} {
		for _, s := range slots {
			if !s.made {
				continue // the tensors of an earlier batch, the caller's
			}
			for j, t := range s.t {
				if t != nil {
					_ = t.FinalizeAll()
					s.t[j] = nil
				}
			}
			s.made = false
		}
	}
}

// putMask writes the mask of the batch into s.
func (w *Writer) putMask(s *Slot) {
	if !s.tensor(dtypes.Bool, [3]int{w.size, 1, -1}, func() []int { return []int{w.size} }) {
		return
	}
	s.write(func(flat any, lo, _ int) {
		m := flat.([]bool)
		for i := range m {
			m[i] = lo+i < w.real
		}
	})
}

// tensor readies the tensor of s for a batch whose source has key (batch
// length, elements per observation, rank): on the first batch it makes a tensor
// of the shape dims (one shard per part, each 1/parts of the batch), later one
// of the first batch's shape; each batch's are new, on the backend's devices.
// It records an error wrapping ErrShape and returns false for a batch that
// differs from the first.
func (s *Slot) tensor(dtype dtypes.DType, key [3]int, dims func() []int) bool {
	ok, _ := s.tensorFrom(dtype, key, dims, nil)
	return ok
}

// tensorFrom is tensor, which with raw, the batch's bytes in the tensor's
// layout, makes the device tensor from them at once (tensors.FromRaw: one
// copy, without zeroing the buffer first) and reports it written.
func (s *Slot) tensorFrom(dtype dtypes.DType, key [3]int, dims func() []int, raw []byte) (ok, written bool) {
	w := s.w
	if s.filled && w.err == nil {
		w.err = fmt.Errorf("%s %d written twice", s.role, s.k)
	}
	if w.err != nil {
		return false, false
	}
	switch {
	case s.dims == nil:
		d := dims()
		if d[0]%w.parts != 0 {
			w.err = fmt.Errorf("%s %d: a batch of %d does not split into %d equal shards: %w", s.role, s.k, d[0], w.parts, ErrShape)
			return false, false
		}
		d[0] /= w.parts
		s.dtype, s.key, s.dims = dtype, key, d
	case dtype != s.dtype || key != s.key:
		first := slices.Clone(s.dims)
		first[0] *= w.parts
		w.err = fmt.Errorf("%s %d is %s%v, the first batch's %s%v: %w", s.role, s.k, dtype, dims(), s.dtype, first, ErrShape)
		return false, false
	}
	if s.t == nil {
		s.t = make([]*tensors.Tensor, w.parts)
		s.shape = shapes.Make(s.dtype, s.dims...)
	}
	for j, t := range s.t {
		if w.host && w.sharding == nil && t != nil && t.Ok() {
			continue // the host route: the tensor of the last batch, rewritten
		}
		if w.host || w.sharding != nil {
			// A shard is a host tensor, which the trainer moves to its
			// device (a backend with several devices, XLA's, shares no
			// buffers with the host).
			s.t[j], s.made = tensors.FromShape(s.shape), true
			continue
		}
		var t *tensors.Tensor
		var err error
		if raw != nil && len(s.t) == 1 {
			t, err = tensors.FromRaw(w.backend, 0, s.shape, raw)
			written = err == nil
		} else {
			t, err = tensors.FromShapeForBackend(w.backend, 0, s.shape)
		}
		if err != nil {
			w.err = fmt.Errorf("%s %d: %w", s.role, s.k, err)
			return false, false
		}
		s.t[j], s.made = t, true
	}
	if written {
		s.filled = true
	}
	return true, written
}

// write runs fill on the flat data of every shard of the tensor, with the
// batch slots lo..hi-1 the shard holds, and marks s written.
func (s *Slot) write(fill func(flat any, lo, hi int)) {
	q := s.dims[0]
	for j, t := range s.t {
		if err := t.MutableFlatData(func(flat any) { fill(flat, j*q, (j+1)*q) }); err != nil {
			s.w.err = fmt.Errorf("%s %d: %w", s.role, s.k, err)
			return
		}
	}
	s.filled = true
}

// Array writes the batch array a into s: a tensor with a's shape, its
// observation axis moved first (a batch of [32 8 8] images is [32 8 8]; one
// stored observation-last as [64 32], [32 64]), and a rank-1 array, one value
// per observation, as [batch, 1]. The element type is a's: int and uint are
// GoMLX's Int64 and Uint64 (on 64-bit machines). It panics with a
// *container.ArgError if a is nil or has no observation axis (rank 0).
func Array[E arraycontainer.Number](s *Slot, a *arraycontainer.Array[E]) {
	container.CheckArg(a != nil && a.Rank() >= 1, "gomlx.Array", "array", "nil or rank 0", "a batch array")
	n, m := a.Nobs(), a.ObsLen()
	var raw []byte
	if (a.Dim() == 0 || a.Rank() == 1) && a.IsContiguous() && a.Len() > 0 {
		// The batch's bytes are the tensor's: E and the tensor's type have
		// one size (int and uint are Int64 and Uint64 on 64-bit machines,
		// Int32 and Uint32 on 32-bit ones).
		data := a.Data()[a.Offset() : a.Offset()+a.Len()]
		raw = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(data))), len(data)*int(unsafe.Sizeof(data[0])))
	}
	ok, written := s.tensorFrom(dtypeOf[E](), [3]int{n, m, a.Rank()}, func() []int {
		shape := a.Shape()
		dims := append([]int{n}, slices.Delete(shape, a.Dim(), a.Dim()+1)...)
		if len(dims) == 1 {
			dims = append(dims, 1)
		}
		return dims
	}, raw)
	if ok && !written {
		s.write(func(flat any, lo, hi int) { writeFlat(flat, a, lo, hi) })
	}
}

// Values writes v, one value per observation, into s as a tensor of shape
// [len(v), 1]: labels, weights, any per-observation number.
func Values[E arraycontainer.Number](s *Slot, v []E) {
	if s.tensor(dtypeOf[E](), [3]int{len(v), 1, 1}, func() []int { return []int{len(v), 1} }) {
		s.write(func(flat any, lo, hi int) { convertInto(flat, v[lo:hi]) })
	}
}

// Stack writes the observations obs, arrays of one shape, into s as one tensor
// with the batch first: [len(obs), shape...]. It is for batches that are lists
// of arrays, such as those of transform.Map or transform.MapRand over an array
// container; it panics with a *container.ArgError if obs is empty or holds a
// nil array, and an observation of another size than the first is an error
// wrapping [ErrShape].
func Stack[E arraycontainer.Number](s *Slot, obs []*arraycontainer.Array[E]) {
	container.CheckArg(len(obs) > 0 && !slices.Contains(obs, nil), "gomlx.Stack", "observations", len(obs), "a non-empty list of arrays")
	m := obs[0].Len()
	if !s.tensor(dtypeOf[E](), [3]int{len(obs), m, obs[0].Rank() + 1}, func() []int {
		return append([]int{len(obs)}, obs[0].Shape()...)
	}) {
		return
	}
	for j, a := range obs {
		if a.Len() != m || a.Rank() != obs[0].Rank() {
			s.w.err = fmt.Errorf("%s %d: observation %d has shape %v, observation 0 %v: %w", s.role, s.k, j, a.Shape(), obs[0].Shape(), ErrShape)
			return
		}
	}
	s.write(func(flat any, lo, hi int) {
		for j, a := range obs[lo:hi] {
			writeFlat(sliceFlat(flat, j*m, (j+1)*m), a, -1, 0)
		}
	})
}

// dtypeOf is the GoMLX type of E: int and uint by the machine's word size.
func dtypeOf[E arraycontainer.Number]() dtypes.DType {
	var zero E
	switch any(zero).(type) {
	case int:
		return pick(dtypes.Int32, dtypes.Int64)
	case uint, uintptr:
		return pick(dtypes.Uint32, dtypes.Uint64)
	case int8:
		return dtypes.Int8
	case int16:
		return dtypes.Int16
	case int32:
		return dtypes.Int32
	case int64:
		return dtypes.Int64
	case uint8:
		return dtypes.Uint8
	case uint16:
		return dtypes.Uint16
	case uint32:
		return dtypes.Uint32
	case uint64:
		return dtypes.Uint64
	case float32:
		return dtypes.Float32
	default:
		return dtypes.Float64
	}
}

func pick(d32, d64 dtypes.DType) dtypes.DType {
	if strconv.IntSize == 32 {
		return d32
	}
	return d64
}
