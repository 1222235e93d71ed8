package tuples

import "github.com/obskit/obskit/container"

var (
	_ container.Random[Pair[int, string], Pair[[]int, []string]]                 = (*Tuple2[container.Slice[int], container.Slice[string], int, []int, string, []string])(nil)
	_ container.Random[Triple[int, int, string], Triple[[]int, []int, []string]] = (*Tuple3[container.Slice[int], container.Slice[int], container.Slice[string], int, []int, int, []int, string, []string])(nil)
	_ container.Random[[]int, [][]int]                                           = (*Named[container.Slice[int], int, []int])(nil)
)

// The tuples pass per-observation randomness (container.ObsRand) to every member
// that is a container.Random container, the same r to each: members that draw
// alike (an image and its segmentation mask through one random crop) stay
// aligned. A member that must draw independently takes a stream of its own
// (ObsRand.Stream) in its own GetObsRand.

// GetObsRand returns observation i of both members, each drawn with r when it
// is a [container.Random] container. It panics as GetObs does.
func (t *Tuple2[CX, CY, X, BX, Y, BY]) GetObsRand(i int, r container.ObsRand) Pair[X, Y] {
	container.CheckIndex("tuples.Tuple2.GetObsRand", i, t.Nobs())
	return Pair[X, Y]{obsRand(t.x, t.rx, i, r), obsRand(t.y, t.ry, i, r)}
}

// GetObsRandInto is GetObsInto with each member drawn with r when it is a
// [container.Random] container.
func (t *Tuple2[CX, CY, X, BX, Y, BY]) GetObsRandInto(dst Pair[BX, BY], idx []int, r container.ObsRand) Pair[BX, BY] {
	container.CheckIndices("tuples.Tuple2.GetObsRandInto", idx, t.Nobs())
	return Pair[BX, BY]{gather(t.x, t.rx, dst.X, idx, r), gather(t.y, t.ry, dst.Y, idx, r)}
}

// GetObsRand returns observation i of every member, each drawn with r when it is
// a [container.Random] container. It panics as GetObs does.
func (t *Tuple3[CX, CY, CZ, X, BX, Y, BY, Z, BZ]) GetObsRand(i int, r container.ObsRand) Triple[X, Y, Z] {
	container.CheckIndex("tuples.Tuple3.GetObsRand", i, t.Nobs())
	return Triple[X, Y, Z]{obsRand(t.x, t.rx, i, r), obsRand(t.y, t.ry, i, r), obsRand(t.z, t.rz, i, r)}
}

// GetObsRandInto is GetObsInto with each member drawn with r when it is a
// [container.Random] container.
func (t *Tuple3[CX, CY, CZ, X, BX, Y, BY, Z, BZ]) GetObsRandInto(dst Triple[BX, BY, BZ], idx []int, r container.ObsRand) Triple[BX, BY, BZ] {
	container.CheckIndices("tuples.Tuple3.GetObsRandInto", idx, t.Nobs())
	return Triple[BX, BY, BZ]{gather(t.x, t.rx, dst.X, idx, r), gather(t.y, t.ry, dst.Y, idx, r), gather(t.z, t.rz, dst.Z, idx, r)}
}

// GetObsRand returns observation i of every member, each drawn with r when it is
// a [container.Random] container, in a new slice. It panics as GetObs does.
func (g *Named[C, T, B]) GetObsRand(i int, r container.ObsRand) []T {
	container.CheckIndex("tuples.Named.GetObsRand", i, g.Nobs())
	out := make([]T, len(g.members))
	for k, m := range g.members {
		out[k] = obsRand(m, g.random[k], i, r)
	}
	return out
}

// GetObsRandInto is GetObsInto with each member drawn with r when it is a
// [container.Random] container.
func (g *Named[C, T, B]) GetObsRandInto(dst []B, idx []int, r container.ObsRand) []B {
	container.CheckIndices("tuples.Named.GetObsRandInto", idx, g.Nobs())
	dst = g.batches(dst)
	for k, m := range g.members {
		dst[k] = gather(m, g.random[k], dst[k], idx, r)
	}
	return dst
}

// random returns c as a container.Random container, or nil.
func random[T, B any, C container.Batched[T, B]](c C) container.Random[T, B] {
	r, _ := any(c).(container.Random[T, B])
	return r
}

// obsRand returns observation i of member c drawn with r when the member is
// random (rc, found when the tuple was built, is not nil).
func obsRand[T, B any, C container.Batched[T, B]](c C, rc container.Random[T, B], i int, r container.ObsRand) T {
	if rc != nil {
		return rc.GetObsRand(i, r)
	}
	return c.GetObs(i)
}

// gather gathers the observations at idx of member c into dst, drawn with r
// when the member is random.
func gather[T, B any, C container.Batched[T, B]](c C, rc container.Random[T, B], dst B, idx []int, r container.ObsRand) B {
	if rc != nil {
		return rc.GetObsRandInto(dst, idx, r)
	}
	return c.GetObsInto(dst, idx)
}
