package tuples

import (
	"errors"
	"fmt"

	"github.com/obskit/obskit/container"
)

var _ container.Batched[[]int, [][]int] = (*Named[container.Slice[int], int, []int])(nil)

// ErrName is wrapped by the error [NewNamed] returns for an empty or repeated name,
// or a count of names that differs from the count of members.
var ErrName = errors.New("invalid member name")

// Named links any number of containers of one type under names, in a fixed order:
// the named data (or label) sources of an MXNet data provider. Observation i is a
// []T holding observation i of each member in order; a batch is a []B holding each
// member's batch. Build one with [NewNamed]; find a member with [Named.Index].
// C is the members' own type, returned as it is by [Named.Member].
//
// Members of different types go in different groups, linked with [Zip2]: data and
// labels, as MXNet's provide_data and provide_label.
type Named[C container.Batched[T, B], T, B any] struct {
	names   []string
	members []C
	random  []container.Random[T, B] // the members as Random containers, or nil
}

// NewNamed links members under names (names[k] names members[k]). Names must be
// non-empty and distinct, one per member; otherwise the error wraps [ErrName]. Members
// that hold different numbers of observations give an error wrapping
// [ErrNobsMismatch] that names each count. A group needs at least one member. The
// members are not copied; names is copied.
func NewNamed[C container.Batched[T, B], T, B any](names []string, members ...C) (*Named[C, T, B], error) {
	if len(names) != len(members) {
		return nil, fmt.Errorf("tuples.NewNamed: %w: %d names for %d members", ErrName, len(names), len(members))
	}
	if len(members) == 0 {
		return nil, fmt.Errorf("tuples.NewNamed: %w: a group needs at least one member", ErrName)
	}
	seen := make(map[string]bool, len(names))
	counts := make([]int, len(members))
	for k, name := range names {
		if name == "" {
			return nil, fmt.Errorf("tuples.NewNamed: %w: member %d has an empty name", ErrName, k)
		}
		if seen[name] {
			return nil, fmt.Errorf("tuples.NewNamed: %w: %q is used twice", ErrName, name)
		}
		seen[name] = true
		counts[k] = members[k].Nobs()
	}
	if err := sameNobs("NewNamed", names, counts...); err != nil {
		return nil, err
	}
	g := &Named[C, T, B]{names: append([]string(nil), names...), members: append([]C(nil), members...)}
	g.random = make([]container.Random[T, B], len(members))
	for k, m := range members {
		g.random[k] = random[T, B](m)
	}
	return g, nil
}

// Names returns the member names in order, in a new slice.
func (g *Named[C, T, B]) Names() []string { return append([]string(nil), g.names...) }

// Len returns the number of members.
func (g *Named[C, T, B]) Len() int { return len(g.members) }

// Index returns the position of the member called name in observations and batches,
// or -1 if there is none.
func (g *Named[C, T, B]) Index(name string) int {
	for k, n := range g.names {
		if n == name {
			return k
		}
	}
	return -1
}

// Member returns the member at position k. It panics if k is out of range.
func (g *Named[C, T, B]) Member(k int) C {
	container.CheckIndex("tuples.Named.Member", k, len(g.members))
	return g.members[k]
}

// Nobs returns the number of observations, the same for every member.
func (g *Named[C, T, B]) Nobs() int { return g.members[0].Nobs() }

// GetObs returns observation i of every member, in member order, in a new slice. It
// panics with a [*container.IndexError] if i is out of range.
func (g *Named[C, T, B]) GetObs(i int) []T {
	container.CheckIndex("tuples.Named.GetObs", i, g.Nobs())
	out := make([]T, len(g.members))
	for k, m := range g.members {
		out[k] = m.GetObs(i)
	}
	return out
}

// GetObsInto gathers the observations at idx of each member through the member's
// own GetObsInto into dst[k], reusing dst when it has room for every member, and
// returns the batch.
func (g *Named[C, T, B]) GetObsInto(dst []B, idx []int) []B {
	container.CheckIndices("tuples.Named.GetObsInto", idx, g.Nobs())
	dst = g.batches(dst)
	for k, m := range g.members {
		dst[k] = m.GetObsInto(dst[k], idx)
	}
	return dst
}

// batches returns dst with one batch per member, reusing dst (and the batches it
// holds) when it has room.
func (g *Named[C, T, B]) batches(dst []B) []B {
	if cap(dst) >= len(g.members) {
		return dst[:len(g.members)]
	}
	old := dst
	dst = make([]B, len(g.members))
	copy(dst, old)
	return dst
}
