// Package transform derives new containers from existing ones, lazily: maps,
// filters, joins, groups and sliding windows (MLUtils mapobs, filterobs, joinobs,
// groupobs and slidingwindow). Each result is itself a container, Batched, and
// passes the kit's conformance checks, so splits, folds, batch views and loops
// work on it unchanged.
//
// # Which to use
//
//   - [Map] applies a function to every observation when it is read; [MapBatches]
//     also takes a batch function, so a batch loop over the result stays one
//     gather of the source (with the source's fast path, such as an array's
//     gather kernel) and one call per batch.
//   - [Filter] keeps the observations a predicate accepts; [GroupBy] splits a
//     container into one view per key. Both call their function once per
//     observation, when they are called, and return [subset.View]s.
//   - [Join] concatenates containers of one observation type; joins of joins are
//     flattened, and an index finds its part by binary search.
//   - [Windows] turns a sequence into its complete sliding windows of a size and
//     a stride; each window is a batch of the sequence.
//
// # Encoded sources
//
// Filters, groups and joins keep the values of their sources, and so a
// source's container.Encoded ability, its bytes read into a caller's buffer: a
// join of RecordIO files, or of image folders, is one Encoded container whose
// read errors name the part's file. Maps and windows compute new values and do
// not keep it; container.AppendObs reads them through their GetObs.
//
// # Labels
//
// Labels are typed: a container is labeled when its observations are
// tuples.Pair[X, L]. Filters and groups are subset views, so they stay labeled
// and tuples.Labels reads their labels without the features. To transform the
// features of labeled data and keep its labels, transform the member before
// linking it (tuples.Zip2(transform.Map(x, f), y)), so the labels never pass
// through a function.
//
// # Why a package of its own
//
// Package subset chooses observations of one container by index; the functions
// here compute new observations (Map), combine containers (Join) or reshape them
// (Windows), and Filter and GroupBy choose by looking at the observations, as
// MLUtils groups them. transform.Map reads better than subset.Map, and subset
// stays about index lists.
//
// # Arguments
//
// Every function checks its arguments when it is called: a nil container or
// function panics there with a *container.ArgError, not at the first read.
package transform
