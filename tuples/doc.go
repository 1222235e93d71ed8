// Package tuples links containers that share one index: observation i of a tuple is
// observation i of every member, so features and labels (or images, masks and
// labels) are split, shuffled and batched together and can never drift apart.
//
// This is MLDataUtils' tuple of data containers. [Zip2] and [Zip3] link two or three
// members with typed fields; [NewNamed] links any number of members of one type under
// names, the named data and label sources of an MXNet data provider.
//
//	data, err := tuples.Zip2(images, labels) // images *arraycontainer.Array[float32], labels container.Slice[int]
//	obs := data.GetObs(7)                   // tuples.Pair{X: image 7, Y: label 7}
//	x := data.X()                           // *arraycontainer.Array[float32]: the member itself
//
// Every type argument is inferred from the members, and each member comes back
// with its own type: [Tuple2.X] of the tuple above is the *arraycontainer.Array
// itself, with no type assertion.
//
// # Construction errors
//
// Members that hold different numbers of observations are a data error, returned by
// the constructor wrapped around [ErrNobsMismatch] with both counts named.
//
// # Batches
//
// A tuple is Batched. Its batch is a [Pair] (or [Triple], or for a named group a
// []B) of the members' batches, and GetObsInto gathers each member through that
// member's own GetObsInto into that member's part of the buffer, so a tuple of
// arrays batches with the arrays' gather kernels and, with a reused buffer,
// allocates nothing. Every member must be Batched; a member with only Nobs and
// GetObs goes in through container.AsBatched (see package container).
//
// # Labels
//
// Labeled data is a container whose observations are Pair[X, L]: features X and a
// label L. The compiler checks it and infers L, so stratified splits, folds and
// resampling (package subset) and balanced sampling (package eachobs) accept a
// [Tuple2] and any view of one, and refuse at compile time a container without
// labels. [Labels] reads the labels of any labeled container, without gathering
// the features when it is a Tuple2 or a view of one. [Features] is the other
// half: the features of labeled data as a container, the X member itself for a
// Tuple2 and that member read at a view's indices for a view of one, so that
// what the member can do stays in reach (an image decoder reads the encoded
// images of a split part through their container.Encoded ability).
// A tuple itself is not container.Encoded, even with an Encoded member: its
// observations are pairs, not bytes.
//
// The labels must be plain ordered values (integers, floats, strings). A rank-1
// array of labels, as npy.Load or npy.Open returns one, is a container of arrays,
// not of values: call its Scalars method first (labels, err := y.Scalars()).
// Without it a stratified split stops at compile time with "*arraycontainer.Array[int64]
// does not satisfy cmp.Ordered".
//
// # Named groups of different types
//
// The members of a [Named] group are one Go type, C. Members of different types
// with the same observations and batches (an array beside a conversion of one,
// such as convert.Scale's result) go in as their common interface, spelled once:
//
//	group, err := tuples.NewNamed(names, []arraycontainer.Batched[float32]{x, scaled}...)
//
// Without it the compiler reports that the second member "does not match inferred
// type" of the first.
package tuples
