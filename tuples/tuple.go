package tuples

import (
	"errors"
	"fmt"

	"github.com/obskit/obskit/container"
)

var (
	_ container.Batched[Pair[int, string], Pair[[]int, []string]]                 = (*Tuple2[container.Slice[int], container.Slice[string], int, []int, string, []string])(nil)
	_ container.Batched[Triple[int, int, string], Triple[[]int, []int, []string]] = (*Tuple3[container.Slice[int], container.Slice[int], container.Slice[string], int, []int, int, []int, string, []string])(nil)
)

// ErrNobsMismatch is wrapped by the error a constructor returns when its members
// hold different numbers of observations.
var ErrNobsMismatch = errors.New("members hold different numbers of observations")

// Pair is an observation or a batch of a [Tuple2]: X from the first member and Y
// from the second. A container of Pair[X, L] is labeled data: L is its label type.
type Pair[X, Y any] struct {
	X X
	Y Y
}

// Triple is an observation or a batch of a [Tuple3].
type Triple[X, Y, Z any] struct {
	X X
	Y Y
	Z Z
}

// Tuple2 links two containers by index. Build one with [Zip2]; its type
// arguments are inferred from the members. CX and CY are the members' own types,
// returned as they are by [Tuple2.X] and [Tuple2.Y]; X, BX, Y and BY are their
// observation and batch types.
type Tuple2[CX container.Batched[X, BX], CY container.Batched[Y, BY], X, BX, Y, BY any] struct {
	x CX
	y CY
	// The members as container.Random containers, or nil: found once, so that
	// a gather with randomness boxes no member.
	rx container.Random[X, BX]
	ry container.Random[Y, BY]
}

// Zip2 links x and y: observation i of the result is Pair{x.GetObs(i), y.GetObs(i)}.
// The members are not copied. It returns an error wrapping [ErrNobsMismatch] when
// x.Nobs() != y.Nobs().
func Zip2[CX container.Batched[X, BX], CY container.Batched[Y, BY], X, BX, Y, BY any](x CX, y CY) (*Tuple2[CX, CY, X, BX, Y, BY], error) {
	if err := sameNobs("Zip2", []string{"X", "Y"}, x.Nobs(), y.Nobs()); err != nil {
		return nil, err
	}
	return &Tuple2[CX, CY, X, BX, Y, BY]{x: x, y: y, rx: random[X, BX](x), ry: random[Y, BY](y)}, nil
}

// X returns the first member, with its own type.
func (t *Tuple2[CX, CY, X, BX, Y, BY]) X() CX { return t.x }

// Y returns the second member, with its own type: the labels of labeled data.
func (t *Tuple2[CX, CY, X, BX, Y, BY]) Y() CY { return t.y }

// Nobs returns the number of observations, the same for both members.
func (t *Tuple2[CX, CY, X, BX, Y, BY]) Nobs() int { return t.x.Nobs() }

// GetObs returns observation i of both members. It panics with a
// [*container.IndexError] if i is out of range.
func (t *Tuple2[CX, CY, X, BX, Y, BY]) GetObs(i int) Pair[X, Y] {
	container.CheckIndex("tuples.Tuple2.GetObs", i, t.Nobs())
	return Pair[X, Y]{t.x.GetObs(i), t.y.GetObs(i)}
}

// GetObsInto gathers the observations at idx of each member into that member's part
// of dst through the member's own GetObsInto, and returns the batch. It allocates
// only what the members allocate: nothing when dst's parts have capacity.
func (t *Tuple2[CX, CY, X, BX, Y, BY]) GetObsInto(dst Pair[BX, BY], idx []int) Pair[BX, BY] {
	container.CheckIndices("tuples.Tuple2.GetObsInto", idx, t.Nobs())
	return Pair[BX, BY]{t.x.GetObsInto(dst.X, idx), t.y.GetObsInto(dst.Y, idx)}
}

// labels gives [Labels] the Y member, to read without the X member.
func (t *Tuple2[CX, CY, X, BX, Y, BY]) labels() container.Container[Y] { return t.y }

// Tuple3 links three containers by index. Build one with [Zip3]; its type
// arguments are inferred from the members.
type Tuple3[CX container.Batched[X, BX], CY container.Batched[Y, BY], CZ container.Batched[Z, BZ], X, BX, Y, BY, Z, BZ any] struct {
	x  CX
	y  CY
	z  CZ
	rx container.Random[X, BX]
	ry container.Random[Y, BY]
	rz container.Random[Z, BZ]
}

// Zip3 links x, y and z: observation i of the result is
// Triple{x.GetObs(i), y.GetObs(i), z.GetObs(i)}. The members are not copied. It
// returns an error wrapping [ErrNobsMismatch] when the members' Nobs differ.
func Zip3[CX container.Batched[X, BX], CY container.Batched[Y, BY], CZ container.Batched[Z, BZ], X, BX, Y, BY, Z, BZ any](x CX, y CY, z CZ) (*Tuple3[CX, CY, CZ, X, BX, Y, BY, Z, BZ], error) {
	if err := sameNobs("Zip3", []string{"X", "Y", "Z"}, x.Nobs(), y.Nobs(), z.Nobs()); err != nil {
		return nil, err
	}
	return &Tuple3[CX, CY, CZ, X, BX, Y, BY, Z, BZ]{x: x, y: y, z: z, rx: random[X, BX](x), ry: random[Y, BY](y), rz: random[Z, BZ](z)}, nil
}

// X returns the first member, with its own type.
func (t *Tuple3[CX, CY, CZ, X, BX, Y, BY, Z, BZ]) X() CX { return t.x }

// Y returns the second member, with its own type.
func (t *Tuple3[CX, CY, CZ, X, BX, Y, BY, Z, BZ]) Y() CY { return t.y }

// Z returns the third member, with its own type.
func (t *Tuple3[CX, CY, CZ, X, BX, Y, BY, Z, BZ]) Z() CZ { return t.z }

// Nobs returns the number of observations, the same for every member.
func (t *Tuple3[CX, CY, CZ, X, BX, Y, BY, Z, BZ]) Nobs() int { return t.x.Nobs() }

// GetObs returns observation i of every member. It panics with a
// [*container.IndexError] if i is out of range.
func (t *Tuple3[CX, CY, CZ, X, BX, Y, BY, Z, BZ]) GetObs(i int) Triple[X, Y, Z] {
	container.CheckIndex("tuples.Tuple3.GetObs", i, t.Nobs())
	return Triple[X, Y, Z]{t.x.GetObs(i), t.y.GetObs(i), t.z.GetObs(i)}
}

// GetObsInto gathers the observations at idx of each member into that member's part
// of dst through the member's own GetObsInto, and returns the batch.
func (t *Tuple3[CX, CY, CZ, X, BX, Y, BY, Z, BZ]) GetObsInto(dst Triple[BX, BY, BZ], idx []int) Triple[BX, BY, BZ] {
	container.CheckIndices("tuples.Tuple3.GetObsInto", idx, t.Nobs())
	return Triple[BX, BY, BZ]{t.x.GetObsInto(dst.X, idx), t.y.GetObsInto(dst.Y, idx), t.z.GetObsInto(dst.Z, idx)}
}

// sameNobs returns an error naming every member's count when they differ.
func sameNobs(op string, names []string, counts ...int) error {
	for _, c := range counts[1:] {
		if c != counts[0] {
			msg := ""
			for k, n := range counts {
				if k > 0 {
					msg += ", "
				}
				msg += fmt.Sprintf("%s has %d", names[k], n)
			}
			return fmt.Errorf("tuples.%s: %w: %s", op, ErrNobsMismatch, msg)
		}
	}
	return nil
}
