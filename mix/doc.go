// Package mix mixes several data containers into one by weights: a training set
// drawn 70% from one corpus and 30% from another, every batch in that ratio.
//
//	m, err := mix.New(mix.FirstExhausted, []float64{0.7, 0.3}, seed, web, books)
//	for b := range eachobs.Batches(m, 128) { ... }
//
// A mix is a container like any other: it has a fixed number of observations,
// observation i is one observation of one source ([Mixed.Locate] says which), and
// it is computed, not stored: O(sources) memory beside a block of at most 4096
// positions, O(1) per index. Everything the kit does with containers (loops,
// subsets, splits, resuming a loop at a position) works on it, and a loop over it
// resumes where it stopped because its order is a pure function of the index.
//
// # Sizing and stopping
//
// The sources rarely hold observations in the ratio of their weights, so a mix
// must say when it stops drawing from them. That is its [Rule]:
//
//   - [FirstExhausted]: stop when the first source runs out. No observation
//     appears twice; the larger sources are not read to their end.
//   - [AllExhausted]: read every observation of every source once. The ratio
//     holds until the first source runs out, then the rest mix in the ratio of
//     their weights.
//   - [Resample]: go on until every source has been read whole at least once; a
//     source that runs out starts again, so the smaller sources repeat. It is the
//     only rule that repeats observations.
//
// With sources of 100 and 1000 observations at 1:1, the mixes hold 200, 1100 and
// 1999 observations (the resampled mix ends with the larger source's last
// observation, before the smaller one's turn: a rule stops at a position, to
// within one block of the schedule). [Mixed.Counts] tells how many observations
// of each source a mix holds.
//
// An empty source is never read: under AllExhausted it takes no part, and the
// other rules return an error wrapping container.ErrEmpty, since the first-exhausted mix
// of it would be empty and a resampled one could not draw from it. (Hugging Face's
// interleave_datasets read such a source out of range or duplicated another's
// observation: datasets issue 8626.)
//
// # The order
//
// Positions are laid out by stride scheduling over a block of whole numbers of
// positions per source, so that every stretch of a mix holds each source in its
// share: every prefix to within 1.5 observations, where tf.data's
// sample_from_datasets draws each position at random and a batch of 128 at 70:30
// varies by about 5 either way. Each source is read in its own order, from its
// first observation, or in a seeded random order of its own with
// Mixed.ShuffleSources (to take a random part of it, in O(1) memory). A loop
// shuffles the mix with eachobs.ShuffleWithin, which permutes each source's
// observations among the positions the schedule gives it, so that every batch
// keeps the proportions and every epoch differs:
//
//	m, err := mix.New(mix.FirstExhausted, []float64{0.7, 0.3}, seed, web, books)
//	m = m.ShuffleSources(seed)
//	for b := range eachobs.Batches(m, 128, eachobs.ShuffleWithin(seed, m)) { ... }
//
// (eachobs.Shuffle over a mix gives each batch the proportions only on average.)
//
// Streams, whose lengths are not known in advance, are mixed by stream.Mix: the
// same stride scheduling, the three rules applied as the sources end, and a
// state saved with the stream's.
//
// # Resuming with other weights
//
// A loop's saved position (eachobs.Iter.MarshalBinary) records the mix's
// number of observations, and under eachobs.ShuffleWithin the count of each
// source, but not the weights. A loop resumed over a mix rebuilt with other
// weights is refused (an error wrapping container.ErrState) when they change
// those numbers, as they mostly do under FirstExhausted and Resample; when
// they do not, as under AllExhausted, whose counts are the sources' sizes
// whatever the weights, it resumes at the same position of the new mix's
// order, which is not the old one: in that epoch some observations are read
// twice and others not at all. Keep the weights with the saved position, and
// resume at an epoch's start after changing them.
//
// # Batches
//
// A mix is a view (container.IndexView) of one container, so a loop gathers a
// batch of it with one call of that container's GetObsInto on the mapped
// indices. [Views] mixes views of one container (subset.Range, subset.Of,
// splits) and is a view of that container: a mix of parts of an array keeps the
// array's gather kernel. [New] mixes any containers and is a view of their join
// (transform.Join): batches are slices, read with one GetObsInto call per source
// a batch touches. A mix of container.Encoded sources (image files, RecordIO
// records) is Encoded too: an image decoder reads its bytes with the sources'
// AppendObs.
package mix
