// Package subset chooses observations: lazy views of any container, shuffles,
// splits, cross-validation folds (by group and repeated too), splits by a hash
// of an id that stay put as data grow, resampling and partitions for
// distributed training. Every rule here is written down, every random choice
// comes from an explicit *rand.Rand or seed, and no observation is lost or
// repeated unless the function says it samples.
//
// # Views
//
// A [View] is a subset of a source container by an index list, 0-based and zero
// copy: [Of] takes any index list (any order, repeats allowed), [Range] a
// contiguous block, [Shuffle] a random permutation. A view of a view is flattened
// when it is built, so a view always indexes straight into the original data and
// holds memory in proportion to its own length. Out-of-range indices panic when the
// view is built, with a [*container.IndexError] naming the index and the count.
//
// A view of a Batched container is Batched with the same batch type, and its
// GetObsInto is one GetObsInto call on the source with mapped indices: a subset of
// an array batches through the array's gather kernel. Views are
// [container.IndexView]s, so loops, label readers and conversions go straight to
// the source.
//
// Every function here takes a [container.Batched]; a container with only Nobs and
// GetObs becomes one with [container.AsBatched] (Go cannot do it implicitly; the
// package documentation of container shows the compiler's message). Call sites
// need no type arguments ("subset.Split(data, rng, 0.8)",
// "subset.StratifiedSplit(data, rng, 0.8)").
//
// # Randomness
//
// Functions that can shuffle take a *rand.Rand (math/rand/v2) right after the
// container (the repeated splits, under Repeats below, take a seed there). A
// nil rng keeps the data order; a non-nil rng shuffles first, which means
// exactly: the result is that of the same call on [Shuffle](c, rng), whose
// permutation is rng.Perm(c.Nobs()); [StratifiedGroupKFolds], whose folds do
// not depend on the data order, uses it to order groups instead. The same rng
// state gives the same result, on every platform. index.PermInto writes that
// permutation into a caller's slice.
//
// # Splits
//
// [Split] cuts a container into consecutive parts, one per fraction and one for
// the rest when the fractions sum to less than 1, in data order or shuffled
// first; [SplitCounts] does the same by counts. Applied to [Iota](n) they are index
// forms for data kept elsewhere. The sizes follow MLUtils.splitobs exactly,
// translated to 0-based ranges: the first part of n observations at fraction a
// has round(a*n) observations, rounding half to even (Julia's and Python's round,
// not Go's math.Round); the remaining fractions are rescaled to the remaining
// observations and split the same way; the last part takes the rest. So
//
//	n = 10 at 0.7         -> [0,7) [7,10)
//	n = 10 at (0.5, 0.3)  -> [0,5) [5,8) [8,10)
//	n = 100 at (0.1, 0.4) -> [0,10) [10,50) [50,100)
//	n = 150 at (0.2, 0.3) -> sizes 30, 45, 75
//	n = 15 at 0.7         -> sizes 10, 5 (10.5 rounds to the even 10)
//
// Fractions that sum to 1 (within 1e-9) make exactly one part each: 0.7, 0.15,
// 0.15 gives three parts, the last taking the rounding remainder. Fractions outside
// [0, 1] and fractions summing to more than 1 are errors ([ErrFraction]). A part
// that would be empty although its fraction is above 0 (10 observations at 0.95
// leave no rest) is an error ([container.ErrEmpty]); a fraction of exactly 0 asks for an
// empty part.
// scikit-learn's train_test_split rounds differently (floor(train_size*n) for a
// train fraction, ceil(test_size*n) for a test fraction); [SplitCounts] reproduces
// any split given by counts.
//
// # Stratification
//
// [StratifiedSplit] splits each class on its own with the same fractions and the
// same rounding, so the parts keep the class proportions: a class of m members
// puts round(a*m) of them (half to even) into a part of fraction a, its first
// members in data order into the first part. Each part lists its observations in
// data order, classes interleaved as in the data. The labels [0,0,0,0,1,1,1,1,1,1]
// at 0.5 give the parts [0,1,4,5,6] and [2,3,7,8,9]. (MLUtils concatenates the
// classes' blocks instead; the parts hold the same observations.)
//
// Stratification needs labels, and they are typed: the functions that need them
// take a labeled container, one whose observations are tuples.Pair[X, L] with an
// ordered label type L (numbers, strings), such as tuples.Zip2(features, labels)
// and every view of one. The compiler infers L and refuses a container without
// labels; labels travel with the features, so they stay aligned through shuffles
// and splits, and tuples.Labels reads them without gathering the features:
//
//	data, err := tuples.Zip2(x, container.FromSlice(y))
//	parts, err := subset.StratifiedSplit(data, rng, 0.8)
//
// A label array read from a file is zipped as y.Scalars() (see [StratifiedSplit]).
// For labels in a slice alone, zip them with [Iota](n) and read the indices with
// [View.Indices]. Classes are numbered in order of first appearance. Float labels
// are classes too, one per distinct value, as scikit-learn has them: 0.0 and 1.0
// read from a CSV stratify, and a continuous regression target, every value its
// own class, is refused as the next sentence says.
// StratifiedSplit refuses, with an error naming the largest class and its size
// ([container.ErrEmpty]), a split whose classes are too small to put anything in a part
// (scikit-learn refuses these too).
//
// # Folds
//
// [KFolds] returns k folds (MLUtils.kfolds, scikit-learn KFold): the observations
// are cut into k consecutive blocks whose sizes differ by at most one, the larger
// blocks first (index.Chunk: 10 in 5 folds gives [0,2) [2,4) [4,6) [6,8) [8,10), 10 in
// 3 folds gives [0,4) [4,7) [7,10)); fold f validates on block f and trains on the
// others, in data order. 2 <= k <= n, else [ErrFolds]. [LeaveOut] is
// MLUtils.leavepout: k-fold with k = floor(n/p), 1 <= p <= n/2. A non-nil rng
// shuffles first (scikit-learn's shuffle=True). [Folds] are lazy: each training
// and validation view shares the one permutation (or no index list at all), so ten
// folds of ten million observations cost one permutation.
//
// [StratifiedKFolds] is scikit-learn's StratifiedKFold allocation exactly: list the
// observations class by class; fold f gets from each class as many members as
// there are list positions q = f (mod k) in that class's stretch, so every class
// puts n_c/k or n_c/k+1 members in each fold and fold sizes differ by at most one,
// larger first. A class with fewer than k members is an error ([ErrClassSize]).
// Validation sets are in data order; a training set is the other validation sets
// in fold order (the same observations as scikit-learn's sorted complement).
//
// [TimeSeriesFolds] is scikit-learn's TimeSeriesSplit: the last k*TestSize
// observations form k consecutive validation sets, each trained on everything
// before it, less a Gap, at most MaxTrain of the most recent; nothing is shuffled.
//
// # Groups
//
// When several observations come from one source (a patient, a speaker, a
// photo session, a document), a split that puts some in training and some in
// validation leaks. The group splitters never split a group. The groups are
// given the way labels are: a container of ordered values, one per
// observation in the data's order (container.FromSlice(ids), a member of a
// tuple, a column, a [container.Func] that derives them), read once with
// GetObs without reading the data; its Nobs must be the data's, else the call
// panics with a [*container.ArgError]. Groups are numbered in sorted order
// (NaN last), as scikit-learn's np.unique numbers them, so that the folds are
// scikit-learn's where it is deterministic.
//
// [GroupKFolds] (scikit-learn's GroupKFold) deals the groups largest first, each
// to the fold with the fewest observations, so fold sizes differ by at most
// the largest group. [StratifiedGroupKFolds] (StratifiedGroupKFold) also keeps
// the class proportions as well as whole groups allow, by scikit-learn's greedy
// rule computed in the same floating-point steps. [LeaveOneGroupOut] validates
// on each group in turn; [LeavePGroupsOut] on every set of p groups, C(G, p)
// folds enumerated lazily in scikit-learn's order, refusing a count that does
// not fit an int. [GroupShuffleSplits] draws random train/test splits of the
// groups. More folds than groups is an error ([ErrFolds]) naming both counts.
//
// # Repeats
//
// [RepeatedKFolds], [RepeatedStratifiedKFolds], [ShuffleSplits],
// [StratifiedShuffleSplits] and [GroupShuffleSplits] repeat a random split
// (scikit-learn's RepeatedKFold, RepeatedStratifiedKFold, ShuffleSplit,
// StratifiedShuffleSplit, GroupShuffleSplit), for tighter estimates on small
// data. They take a seed instead of a *rand.Rand: repetition r draws from
// rand.New(rand.NewPCG(seed, r)) alone, the seeding of eachobs's epochs, so
// that any repetition can be rebuilt on its own, in any order, and a
// repetition of KFolds is exactly KFolds with that rng. Their folds are built
// lazily and returned as [Folds] like every list of train/validation pairs.
//
// # Hash splits
//
// A split drawn from a permutation changes entirely when one observation is
// added. [HashSplit] decides each observation's part from a keyed 64-bit hash
// of an id the user names (a key, a file name, a group; never the position)
// and the parts' fractions ([NewHash]), so a held-out set never moves as data
// grow: appending observations never moves one between parts, reordering does
// not change any observation's part, and the stream form, stream.HashPart,
// keeps the same values in O(1) memory. The hash ([Hash], SipHash-2-4 with a
// key derived from a salt) and the mapping to parts are fixed forever and
// documented with test vectors, so a split made today is the split made by
// every later version and can be reproduced in any language.
//
// # Resampling
//
// [Oversample] (MLUtils.oversample) brings every class up to round(fraction*m)
// observations, m the largest class count: the originals once, in order, then
// per class whole copies while more than a class's worth is missing, then its
// first members; the labels (a, c, c, a, b) give 0, 1, 2, 3, 4, 4. [Undersample]
// keeps the first min-count members of each class, in data order: 0, 1, 4. With a
// nil rng both are fully determined by the labels; a non-nil rng shuffles first
// (so the members kept or copied are a random sample without replacement) and
// shuffles the result. [RandObs] draws with replacement (MLUtils.randobs) and
// [Bootstrap] draws n with replacement and returns the out-of-bag rest.
//
// # Partitions
//
// [Partition] gives one worker of distributed training its part of the data:
// part Index of Parts (MXNet part_index/num_parts, PyTorch rank/num_replicas),
// contiguous (MXNet, index.Chunk blocks) or strided (positions Index, Index+Parts, ...,
// PyTorch DistributedSampler), with the rules of index.Part: its Tail says what
// happens to the n mod Parts leftover observations: Keep (parts differ by at most
// one, and together hold every observation exactly once), Pad (every part has
// ceil(n/Parts), the padded positions repeat the data from its start,
// DistributedSampler drop_last=False) or Drop (every part has floor(n/Parts), the
// last positions are dropped, drop_last=True). Every worker passes an rng with the
// same seed so that all partition the same shuffle.
//
// # Classes
//
// [Classes] groups the observations of labeled data by label (classes in order
// of first appearance, members in data order); the size of a class is the length
// of its index list.
//
// # Index arithmetic
//
// The rules this package applies to containers (permutations, chunks,
// partitions) are package index's, which the loops share: a batch loop maps
// positions through index.PermInto and index.Part itself, and reads a view
// through [View.MapIndices] and [View.Source] with its own scratch slice.
//
// # MLUtils and scikit-learn
//
// The guide's docs/from-mlutils.md and docs/from-sklearn.md (in the repository)
// map their calls to these, with the differences that change results.
package subset
