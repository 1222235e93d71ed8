package shard

import (
	"fmt"

	"github.com/obskit/obskit/container"
)

// Bytes is one field of a shard set as a container of its bytes:
// observation i is the bytes of the field of sample i (for an Npy set, a
// .npy file of the sample's row), read from the shard at the member's
// offset and checked against its CRC-32C. It is a container.Encoded, so
// imagedata.NewImages decodes a field of images with no allocation per image,
// and a container.Blocked whose blocks are the set's shards.
type Bytes struct {
	s    *Set
	name string
}

var (
	_ container.Encoded                   = (*Bytes)(nil)
	_ container.Batched[[]byte, [][]byte] = (*Bytes)(nil)
	_ container.Blocked                   = (*Bytes)(nil)
	_ container.Batched[Sample, []Sample] = (*Set)(nil)
	_ container.Blocked                   = (*Set)(nil)
)

// Field returns the field name of s. It returns an error wrapping
// [ErrNoField] when no sample of s has it (the manifest lists every field);
// a set whose samples have it only in part is read until a sample without it,
// whose read fails with such an error.
func (s *Set) Field(name string) (*Bytes, error) {
	if _, ok := s.m.Field(name); !ok {
		return nil, fmt.Errorf("shard: %s: %w: %q (fields: %v)", s.name, ErrNoField, name, fieldNames(s.m))
	}
	return &Bytes{s: s, name: name}, nil
}

func fieldNames(m *Manifest) []string {
	names := make([]string, len(m.Fields))
	for k, f := range m.Fields {
		names[k] = f.Name
	}
	return names
}

// Name returns the field's name.
func (b *Bytes) Name() string { return b.name }

// Nobs returns the number of samples of the set.
func (b *Bytes) Nobs() int { return b.s.Nobs() }

// BlockStarts returns the set's shards' starts ([Set.BlockStarts]).
func (b *Bytes) BlockStarts() []int { return b.s.starts }

// AppendObs appends the field's bytes of sample i to dst and returns the
// extended slice, or dst and an error: the errors of [Set.ReadSample], and one
// wrapping [ErrNoField] naming the sample when it has no such field. It
// allocates nothing once the sample's shard is open and dst has room. It
// panics with a *container.IndexError when i is outside [0, Nobs()).
func (b *Bytes) AppendObs(dst []byte, i int) ([]byte, error) {
	container.CheckIndex("shard.Bytes.AppendObs", i, b.s.Nobs())
	k, j := b.s.locate(i)
	b.s.reach(k)
	st, err := b.s.acquire(k)
	if err != nil {
		return dst, err
	}
	defer b.s.done(st, j)
	f := st.ix.fieldOf(j, b.name)
	if f < 0 {
		return dst, fmt.Errorf("shard: %s: %w %q", b.s.where(st, j, -1), ErrNoField, b.name)
	}
	return b.s.appendMember(dst, st, j, f)
}

// fieldOf returns the position of the field name among sample j's members,
// or -1.
func (ix *index) fieldOf(j int, name string) int {
	for f, m := range ix.members(j) {
		if ix.fields[m.field] == name {
			return f
		}
	}
	return -1
}

// GetObs returns the field's bytes of sample i, newly allocated. It panics
// with AppendObs's error.
func (b *Bytes) GetObs(i int) []byte {
	out, err := b.AppendObs(nil, i)
	if err != nil {
		panic(err)
	}
	if out == nil {
		out = []byte{}
	}
	return out
}

// GetObsInto reads the field of the samples idx names into dst, reusing the
// memory of its byte slices, and returns it. It panics as GetObs does.
func (b *Bytes) GetObsInto(dst [][]byte, idx []int) [][]byte {
	for _, i := range idx {
		container.CheckIndex("shard.Bytes.GetObsInto", i, b.s.Nobs())
	}
	if cap(dst) < len(idx) {
		dst = append(dst[:cap(dst)], make([][]byte, len(idx)-cap(dst))...)
	}
	dst = dst[:len(idx)]
	for j, i := range idx {
		v, err := b.AppendObs(dst[j][:0], i)
		if err != nil {
			panic(err)
		}
		if v == nil {
			v = []byte{}
		}
		dst[j] = v
	}
	return dst
}

// Where returns where the field of sample i is stored: the shard, the
// sample's key and the member's offset.
func (b *Bytes) Where(i int) string {
	container.CheckIndex("shard.Bytes.Where", i, b.s.Nobs())
	k, j := b.s.locate(i)
	st, err := b.s.open(k)
	if err != nil {
		return err.Error()
	}
	defer st.release()
	return b.s.where(st, j, st.ix.fieldOf(j, b.name))
}
