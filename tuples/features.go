package tuples

import "github.com/obskit/obskit/container"

var _ container.Encoded = (*memberView[[]byte])(nil)

// withFeatures is the ability of a [Tuple2] to hand over its X member, so
// that [Features] reaches it without the labels.
type withFeatures[X any] interface {
	features() container.Container[X]
}

// features gives [Features] the X member.
func (t *Tuple2[CX, CY, X, BX, Y, BY]) features() container.Container[X] { return t.x }

// Features returns the X of every observation of labeled data c as a
// container, in order, without the labels: the other half of [Labels]. Unlike
// Labels it reads nothing; observation i is read when it is asked for.
//
// When c is a [Tuple2] the result is its X member itself, with every ability
// the member has: for a data set of images, its container of encoded images,
// a container.Encoded whose AppendObs an image decoder reads into its reused
// buffer. When c is a view of a Tuple2 (a split part, a fold, a shuffle, found
// through container.IndexView) the result reads that member at the view's
// source indices, which it keeps (one int per observation): it passes GetObs,
// AppendObs and Where on to the member, so it is container.Encoded when the
// features are []byte. For any other container of pairs, observation i of the
// result is c.GetObs(i).X.
func Features[X, L, B any](c container.Batched[Pair[X, L], B]) container.Container[X] {
	if t, ok := c.(withFeatures[X]); ok {
		return t.features()
	}
	if v, ok := c.(container.IndexView[Pair[X, L], B]); ok {
		if t, ok := v.Source().(withFeatures[X]); ok {
			idx := make([]int, v.Nobs())
			for i := range idx {
				idx[i] = i
			}
			return &memberView[X]{m: t.features(), idx: v.MapIndices(idx, idx)}
		}
	}
	return xs[X, L, B]{c}
}

// memberView is the member m of a tuple at the source indices idx of a view
// of the tuple.
type memberView[X any] struct {
	m   container.Container[X]
	idx []int
}

func (v *memberView[X]) Nobs() int { return len(v.idx) }

func (v *memberView[X]) GetObs(i int) X {
	container.CheckIndex("tuples.Features.GetObs", i, len(v.idx))
	return v.m.GetObs(v.idx[i])
}

// AppendObs appends the bytes of observation i, read by the member's
// AppendObs when it has one (container.AppendObs).
func (v *memberView[X]) AppendObs(dst []byte, i int) ([]byte, error) {
	container.CheckIndex("tuples.Features.AppendObs", i, len(v.idx))
	return container.AppendObs(v.m, dst, v.idx[i])
}

// Where returns where observation i is stored, as the member says.
func (v *memberView[X]) Where(i int) string {
	container.CheckIndex("tuples.Features.Where", i, len(v.idx))
	return container.Where(v.m, v.idx[i])
}

// xs is the container of the X of the observations of c.
type xs[X, L, B any] struct {
	c container.Batched[Pair[X, L], B]
}

func (c xs[X, L, B]) Nobs() int      { return c.c.Nobs() }
func (c xs[X, L, B]) GetObs(i int) X { return c.c.GetObs(i).X }
