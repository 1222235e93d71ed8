package shard

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
	"unsafe"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

// Arrays is a field of .npy arrays of one dtype and shape as an array
// container: observation i is sample i's array, a batch the arrays of its
// samples stacked along a first axis. It reads an Npy set's rows straight
// from their files into the batch, and a tar or RecordIO set's .npy members
// (a field such as "x.npy" written by WebDataset) through their headers.
// It is a container.Blocked whose blocks are the set's shards.
type Arrays[E arraycontainer.Number] struct {
	s     *Set
	name  string
	shape []int // one sample's
	size  int   // elements of one sample
	npy   bool  // the set is Npy: members are raw rows
	descr string
}

var _ container.Batched[*arraycontainer.Array[float32], *arraycontainer.Array[float32]] = (*Arrays[float32])(nil)

// descrOf returns the little-endian NumPy descr of E.
func descrOf[E arraycontainer.Number]() string {
	var z E
	switch any(z).(type) {
	case float32:
		return "<f4"
	case float64:
		return "<f8"
	case int8:
		return "|i1"
	case uint8:
		return "|u1"
	case int16:
		return "<i2"
	case uint16:
		return "<u2"
	case int32:
		return "<i4"
	case uint32:
		return "<u4"
	case int64, int:
		return "<i8"
	case uint64, uint, uintptr:
		return "<u8"
	}
	return "?"
}

// ArraysOf returns the field name of s as arrays of E, one per sample, of
// the shape shape (nil: read from the manifest for an Npy set, and from the
// first sample's header otherwise). It returns an error wrapping [ErrNoField]
// for a field s does not have, and one naming both when the field's dtype is
// not E's (little-endian; a bool field reads as uint8).
func ArraysOf[E arraycontainer.Number](s *Set, name string) (*Arrays[E], error) {
	f, ok := s.m.Field(name)
	if !ok {
		return nil, fmt.Errorf("shard: %s: %w: %q (fields: %v)", s.name, ErrNoField, name, fieldNames(s.m))
	}
	a := &Arrays[E]{s: s, name: name, npy: s.m.Kind == Npy, descr: descrOf[E]()}
	descr, shape := f.Dtype, f.Shape
	if !a.npy {
		if s.Nobs() == 0 {
			return nil, fmt.Errorf("shard: %s: field %q: no sample to read its shape from", s.name, name)
		}
		// The first sample that has the field says.
		var h npy.Header
		var err error
		for i := range s.Nobs() {
			var b []byte
			b, err = (&Bytes{s: s, name: name}).AppendObs(nil, i)
			if err == nil {
				h, err = npy.ReadHeader(bytes.NewReader(b))
				break
			}
		}
		if err != nil {
			return nil, fmt.Errorf("shard: %s: field %q: %w", s.name, name, err)
		}
		descr, shape = h.Dtype.Descr, h.Shape
	}
	if descr != a.descr && !(descr == "|b1" && a.descr == "|u1") {
		return nil, fmt.Errorf("shard: %s: field %q holds %s, not %s (%T)", s.name, name, descr, a.descr, *new(E))
	}
	a.shape = slices.Clone(shape)
	a.size = 1
	for _, d := range shape {
		a.size *= d
	}
	return a, nil
}

// Nobs returns the number of samples.
func (a *Arrays[E]) Nobs() int { return a.s.Nobs() }

// ObsShape returns the shape of one sample's array.
func (a *Arrays[E]) ObsShape() []int { return slices.Clone(a.shape) }

// BlockStarts returns the set's shards' starts.
func (a *Arrays[E]) BlockStarts() []int { return a.s.starts }

// GetObs returns sample i's array, newly allocated. A read that fails panics
// with its error (see [Set.ReadSample]), and so does an array of another
// dtype or shape in a tar or RecordIO set.
func (a *Arrays[E]) GetObs(i int) *arraycontainer.Array[E] {
	container.CheckIndex("shard.Arrays.GetObs", i, a.s.Nobs())
	data := make([]E, a.size)
	if err := a.read(data, i); err != nil {
		panic(err)
	}
	out, err := arraycontainer.New(data, slices.Clone(a.shape), obsdim.First)
	if err != nil {
		panic(err)
	}
	return out
}

// GetObsInto reads the arrays of the samples idx names into one array of
// shape [len(idx), shape...], reusing dst's memory when it is large enough,
// and returns it. It panics as GetObs does.
func (a *Arrays[E]) GetObsInto(dst *arraycontainer.Array[E], idx []int) *arraycontainer.Array[E] {
	for _, i := range idx {
		container.CheckIndex("shard.Arrays.GetObsInto", i, a.s.Nobs())
	}
	need := len(idx) * a.size
	var data []E
	if dst != nil && cap(dst.Data()) >= need {
		data = dst.Data()[:need]
	} else {
		data = make([]E, need)
	}
	for j, i := range idx {
		if err := a.read(data[j*a.size:(j+1)*a.size], i); err != nil {
			panic(err)
		}
	}
	out, err := arraycontainer.New(data, append([]int{len(idx)}, a.shape...), obsdim.First)
	if err != nil {
		panic(err)
	}
	return out
}

// read reads sample i's array into data.
func (a *Arrays[E]) read(data []E, i int) error {
	k, j := a.s.locate(i)
	a.s.reach(k)
	st, err := a.s.acquire(k)
	if err != nil {
		return err
	}
	defer a.s.done(st, j)
	f := st.ix.fieldOf(j, a.name)
	if f < 0 {
		return fmt.Errorf("shard: %s: %w %q", a.s.where(st, j, -1), ErrNoField, a.name)
	}
	var z E
	out := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(data))), len(data)*int(unsafe.Sizeof(z)))
	if a.npy {
		// A row, straight into the batch.
		m := st.ix.members(j)[f]
		if m.size != int64(len(out)) {
			return fmt.Errorf("shard: %s: %w: %d bytes, an array of %v %s is %d", a.s.where(st, j, f), ErrCorrupt, m.size, a.shape, a.descr, len(out))
		}
		if w := st.whole.Load(); w != nil {
			copy(out, w.files[st.ix.file(m)][m.off:m.off+m.size])
			if w.verified {
				return nil // checked when read whole
			}
		} else {
			n, err := st.objs[st.ix.file(m)].ReadAt(out, m.off)
			if n == len(out) && err == io.EOF {
				err = nil
			}
			if err != nil {
				return fmt.Errorf("shard: %s: %w", a.s.where(st, j, f), err)
			}
		}
		if sum := crc32.Checksum(out, castagnoli); sum != m.crc {
			return fmt.Errorf("shard: %s: %w: CRC-32C %08x, the index says %08x", a.s.where(st, j, f), ErrCorrupt, sum, m.crc)
		}
		return nil
	}
	b, err := a.s.appendMember(nil, st, j, f)
	if err != nil {
		return err
	}
	h, err := npy.ReadHeader(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("shard: %s: %w", a.s.where(st, j, f), err)
	}
	if h.Dtype.Descr != a.descr && !(h.Dtype.Descr == "|b1" && a.descr == "|u1") || !slices.Equal(h.Shape, a.shape) || h.Fortran && len(h.Shape) > 1 || int64(len(b))-h.DataOffset != int64(len(out)) {
		return fmt.Errorf("shard: %s: an array of %v %s (%d bytes), the field's are %v %s", a.s.where(st, j, f), h.Shape, h.Dtype.Descr, int64(len(b))-h.DataOffset, a.shape, a.descr)
	}
	copy(out, b[h.DataOffset:])
	return nil
}
