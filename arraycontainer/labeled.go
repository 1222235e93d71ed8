package arraycontainer

import (
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/tuples"
)

// Short names for the shapes labeled data takes in the kit, so that a helper's
// signature fits on a line:
//
//	func fit(train arraycontainer.Labeled[float32, int]) error
//	func loader(d arraycontainer.Labeled[float32, int]) *eachobs.Loader[arraycontainer.LabeledBatch[float32, int]]
//
// They are aliases: a value of the long type is a value of the short one.

// Batched is any container whose observations and batches are arrays of E: an
// array, a subset of one, a conversion of one (convert.Scale) or a mapped file.
// It is the interface type to spell when containers of different Go types must
// go into one slice or one tuples.Named group.
type Batched[E Number] = container.Batched[*Array[E], *Array[E]]

// Labeled is any container of arrays of E with labels of type L: a
// [LabeledTuple] and every subset, shuffle, split and fold of one, and tuples
// whose features are converted arrays. Its observations are
// tuples.Pair[*Array[E], L]; its batches are [LabeledBatch]es.
type Labeled[E Number, L any] = container.Batched[LabeledObs[E, L], LabeledBatch[E, L]]

// LabeledObs is an observation of [Labeled] data: the array of its features and
// its label.
type LabeledObs[E Number, L any] = tuples.Pair[*Array[E], L]

// LabeledBatch is a batch of [Labeled] data: an array of the features of the
// batch's observations (one more axis, the observation axis) and their labels.
type LabeledBatch[E Number, L any] = tuples.Pair[*Array[E], []L]

// LabeledTuple is an array of features linked with a slice of labels,
// tuples.Zip2(x, y) for x an *Array[E] and y a container.Slice[L]: the type the
// data sets of package datasets return. X() and Y() return the two members.
type LabeledTuple[E Number, L any] = tuples.Tuple2[*Array[E], container.Slice[L], *Array[E], *Array[E], L, []L]
