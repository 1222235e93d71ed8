package subset

import (
	"cmp"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/tuples"
)

// A Class is one class of a labeled container: its label and the indices of its
// members, in data order.
type Class[L cmp.Ordered] struct {
	Label   L
	Indices []int
}

// Classes returns the classes of the labeled container c (observations
// tuples.Pair[X, L]), in order of first appearance, each with its members in data
// order: MLUtils' group_indices of the labels. The indices are c's own (for a
// view, positions in the view, not indices of its source), ready for
// subset.Of(c, class.Indices). The labels are read with
// [tuples.Labels], without gathering the features of a tuple or of a view of one.
// Every NaN label (float labels) is one class. The index slices share one
// allocation; the caller owns them.
func Classes[X any, L cmp.Ordered, B any](c container.Batched[tuples.Pair[X, L], B]) []Class[L] {
	cl := classify(tuples.Labels(c))
	out := make([]Class[L], len(cl.labels))
	all := cl.members()
	lo := 0
	for k, m := range cl.counts {
		out[k] = Class[L]{Label: cl.labels[k], Indices: all[lo : lo+m : lo+m]}
		lo += m
	}
	return out
}

// classes numbers the classes of a label slice in order of first appearance, the
// order scikit-learn's StratifiedKFold encodes them in.
type classes[L cmp.Ordered] struct {
	ids    []int // class of each position
	labels []L   // label of each class
	counts []int // members of each class
}

func classify[L cmp.Ordered](labels []L) classes[L] {
	cl := classes[L]{ids: make([]int, len(labels))}
	seen := make(map[L]int)
	nan := -1 // the class of NaN labels, which a map cannot find
	for i, l := range labels {
		c, ok := seen[l]
		if l != l {
			c, ok = nan, nan >= 0
		}
		if !ok {
			c = len(cl.labels)
			if l != l {
				nan = c
			} else {
				seen[l] = c
			}
			cl.labels = append(cl.labels, l)
			cl.counts = append(cl.counts, 0)
		}
		cl.ids[i] = c
		cl.counts[c]++
	}
	return cl
}

// smallest returns the class with the fewest members (the first such).
func (cl classes[L]) smallest() int {
	s := 0
	for c, m := range cl.counts {
		if m < cl.counts[s] {
			s = c
		}
	}
	return s
}

// members returns the positions of every class, class after class, each in data
// order.
func (cl classes[L]) members() []int {
	return bucket(cl.ids, len(cl.counts))
}

// bucket returns the positions 0..len(keys)-1 sorted stably by key (a counting
// sort): the positions of key 0 in order, then those of key 1, and so on.
func bucket(keys []int, nkeys int) []int {
	next := make([]int, nkeys+1)
	for _, k := range keys {
		next[k+1]++
	}
	for k := range nkeys {
		next[k+1] += next[k]
	}
	out := make([]int, len(keys))
	for p, k := range keys {
		out[next[k]] = p
		next[k]++
	}
	return out
}
