package subset

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/obskit/obskit/container"
)

// groupsOf reads the group of every observation of a container of n
// observations from groups and numbers the distinct groups in sorted order
// (NaN last, as NumPy's unique sorts them), the order scikit-learn's group
// splitters number them in. It panics with a [*container.ArgError] naming op
// when groups is nil or does not have one value per observation.
func groupsOf[G cmp.Ordered](op string, groups container.Container[G], n int) classes[G] {
	container.CheckArg(groups != nil, op, "groups", groups, "a container of one group per observation")
	if m := groups.Nobs(); m != n {
		panic(&container.ArgError{Op: op, Arg: "groups.Nobs()", Value: m, Want: fmt.Sprintf("%d, one group per observation of the data", n)})
	}
	values := make([]G, n)
	for i := range values {
		values[i] = groups.GetObs(i)
	}
	return sortedClasses(values)
}

// sortedClasses is classify with the classes numbered in sorted order (NaN
// last) instead of order of first appearance.
func sortedClasses[L cmp.Ordered](values []L) classes[L] {
	cl := classify(values)
	byValue := iotaInts(len(cl.labels)) // the classes, to be sorted by label
	slices.SortFunc(byValue, func(a, b int) int { return compareNaNLast(cl.labels[a], cl.labels[b]) })
	rank := make([]int, len(byValue))
	labels := make([]L, len(byValue))
	counts := make([]int, len(byValue))
	for r, c := range byValue {
		rank[c] = r
		labels[r], counts[r] = cl.labels[c], cl.counts[c]
	}
	for p, c := range cl.ids {
		cl.ids[p] = rank[c]
	}
	cl.labels, cl.counts = labels, counts
	return cl
}

// iotaInts returns 0, 1, ..., n-1.
func iotaInts(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// compareNaNLast is cmp.Compare with NaN after every number instead of before.
func compareNaNLast[L cmp.Ordered](a, b L) int {
	switch aNaN, bNaN := a != a, b != b; {
	case aNaN && bNaN:
		return 0
	case aNaN:
		return 1
	case bNaN:
		return -1
	}
	return cmp.Compare(a, b)
}

// GroupKFolds returns k folds of c in which no group is split: every
// observation of a group is in the same validation set (scikit-learn's
// GroupKFold). groups holds the group of each observation of c, in c's order
// (a patient, a speaker, a document id): any container of ordered values, such
// as container.FromSlice(ids), a member of a tuple or a column, read once with
// GetObs; the data of c are not read.
//
// The balance rule is scikit-learn's: the groups are dealt in order of
// decreasing size, each to the fold with the fewest observations so far (the
// first such fold among equals), so fold sizes differ by at most the size of
// the largest group. Among groups of equal size the one greater in sorted
// order is dealt first: the order of a stable sort by size, reversed, which
// scikit-learn's GroupKFold takes since its pull request 28464; its earlier
// releases leave such ties in the order of NumPy's unstable sort, so their
// folds equal these whenever the group sizes are distinct. Fold f
// validates on the groups dealt to it, its observations in data order, and
// trains on the other folds' validation sets in fold order. The views share
// one index list; building the folds costs O(n log n) for n observations.
// Nothing is random: scikit-learn's GroupKFold does not shuffle either.
//
// GroupKFolds returns an error wrapping [ErrFolds] when k < 2 or when there
// are fewer groups than folds, naming both counts. It panics with a
// [*container.ArgError] when groups is nil or its Nobs differs from c's.
func GroupKFolds[T, B any, G cmp.Ordered](c container.Batched[T, B], groups container.Container[G], k int) (*Folds[T, B], error) {
	const op = "subset.GroupKFolds"
	v := viewOf(c)
	gr := groupsOf(op, groups, v.n)
	if err := checkGroupFolds(op, k, len(gr.counts)); err != nil {
		return nil, err
	}
	// Largest first; among equal sizes, the greater group first (the reverse
	// of a stable ascending sort).
	order := iotaInts(len(gr.counts))
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(gr.counts[b], gr.counts[a]); c != 0 {
			return c
		}
		return cmp.Compare(b, a)
	})
	foldOf := make([]int, len(gr.counts))
	h := newLightest(k)
	for _, g := range order {
		foldOf[g] = h.add(gr.counts[g])
	}
	return groupFolds(v, gr.ids, foldOf, k), nil
}

// checkGroupFolds checks k folds of ngroups groups.
func checkGroupFolds(op string, k, ngroups int) error {
	if k < 2 || k > ngroups {
		return fmt.Errorf("%s: k = %d folds outside [2, %d] for %d groups: %w", op, k, ngroups, ngroups, ErrFolds)
	}
	return nil
}

// groupFolds returns the k folds whose validation set f holds the groups g
// with foldOf[g] == f, ids giving the group of every position of v.
func groupFolds[T, B any](v *View[T, B], ids, foldOf []int, k int) *Folds[T, B] {
	partOf := make([]int, len(ids))
	bounds := make([]int, k+1)
	for p, g := range ids {
		partOf[p] = foldOf[g]
		bounds[foldOf[g]+1]++
	}
	for f := range k {
		bounds[f+1] += bounds[f]
	}
	return boundsFolds(v.positions(bucket(partOf, k)), bounds)
}

// lightest is a min-heap of folds by load, ties to the lower fold, so that add
// deals a weight to scikit-learn's np.argmin of the loads in O(log k).
type lightest struct {
	load []int // load of each fold
	heap []int // folds, the lightest first
}

func newLightest(k int) *lightest {
	h := &lightest{load: make([]int, k), heap: make([]int, k)}
	for f := range h.heap {
		h.heap[f] = f // all loads 0: already a heap
	}
	return h
}

func (h *lightest) less(i, j int) bool {
	a, b := h.heap[i], h.heap[j]
	return h.load[a] < h.load[b] || h.load[a] == h.load[b] && a < b
}

// add adds w to the lightest fold and returns that fold.
func (h *lightest) add(w int) int {
	f := h.heap[0]
	h.load[f] += w
	for i := 0; ; { // sift down
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h.heap) && h.less(l, m) {
			m = l
		}
		if r < len(h.heap) && h.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		h.heap[i], h.heap[m] = h.heap[m], h.heap[i]
		i = m
	}
	return f
}

// LeaveOneGroupOut returns one fold per group (scikit-learn's
// LeaveOneGroupOut): fold g validates on the observations of group g, in data
// order, and trains on all the others. The groups are taken in sorted order
// (NaN last), as scikit-learn numbers them, so the folds are scikit-learn's in
// its order. groups is read as for [GroupKFolds]. The views share one index
// list of the observations sorted by group; training sets list the other
// groups' observations group by group.
//
// LeaveOneGroupOut returns an error wrapping [ErrFolds] when there are fewer
// than 2 groups, and panics with a [*container.ArgError] when groups is nil or
// its Nobs differs from c's.
func LeaveOneGroupOut[T, B any, G cmp.Ordered](c container.Batched[T, B], groups container.Container[G]) (*Folds[T, B], error) {
	const op = "subset.LeaveOneGroupOut"
	v := viewOf(c)
	gr := groupsOf(op, groups, v.n)
	if len(gr.counts) < 2 {
		return nil, fmt.Errorf("%s: %d groups, fewer than 2: %w", op, len(gr.counts), ErrFolds)
	}
	bounds := make([]int, len(gr.counts)+1)
	for g, m := range gr.counts {
		bounds[g+1] = bounds[g] + m
	}
	return boundsFolds(v.positions(gr.members()), bounds), nil
}
