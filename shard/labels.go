package shard

import (
	"errors"
	"fmt"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/pipeline"
	"github.com/obskit/obskit/tuples"
)

// ErrNoLabels is wrapped by the error of [Set.Labels] for a set whose
// indexes hold no labels.
var ErrNoLabels = errors.New("shard set has no labels")

// Labels returns the label of every sample, in order, read from the shards'
// indexes and not from the shards: the values of the manifest's Label field
// that the packer kept. It reads every index (8 at a time, so that an object
// store's latency overlaps), costs O(samples) and keeps none of them open.
// It returns an error wrapping [ErrNoLabels] for a set without labels, or
// the first index's error.
func (s *Set) Labels() ([]int, error) {
	if s.m.Label == "" {
		return nil, fmt.Errorf("shard: %s: %w (the packer found no label field in its first sample)", s.name, ErrNoLabels)
	}
	out := make([]int, s.Nobs())
	type step struct {
		k   int
		err error
	}
	next := 0
	var first error
	pipeline.Run(pipeline.Config{Op: "shard.Set.Labels", Workers: 8, Unordered: true}, make([]step, 16),
		func(st *step) bool {
			if next == len(s.m.Shards) {
				return false
			}
			st.k, st.err = next, nil
			next++
			return true
		},
		func(st *step) {
			ix, err := s.readIndex(st.k)
			if err != nil {
				st.err = err
				return
			}
			for j, l := range ix.labels {
				out[s.starts[st.k]+j] = int(l)
			}
		},
		func(st *step) bool {
			if st.err != nil {
				first = st.err
				return false
			}
			return true
		})
	if first != nil {
		return nil, first
	}
	return out, nil
}

// Labeled is a field of a set beside the set's labels: the labeled data of
// the kit (tuples.Pair observations), which subset's stratified splits and
// eachobs' class-balanced loops read labels from without reading a shard, and
// imagedata.Decode decodes the images of.
type Labeled = tuples.Tuple2[*Bytes, container.Slice[int], []byte, [][]byte, int, []int]

// LabeledField returns the field name of s beside the labels of s
// ([Set.Labels]). It returns the errors of [Set.Field] and [Set.Labels].
func LabeledField(s *Set, name string) (*Labeled, error) {
	b, err := s.Field(name)
	if err != nil {
		return nil, err
	}
	labels, err := s.Labels()
	if err != nil {
		return nil, err
	}
	return tuples.Zip2(b, container.Slice[int](labels))
}
