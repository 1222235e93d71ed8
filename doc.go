// Package obskit is a toolkit for the data side of machine learning: any Go type
// that can say how many observations it holds and hand one back by index is a data
// container, and every tool in the kit works on it.
//
// This package holds no code; it is the map of the kit.
//
// # The contract
//
//   - container: the Container interface (Nobs, GetObs), Batched containers that
//     gather many observations into a reused buffer (GetObsInto), slices and
//     functions as containers, the one adapter for a type with only the two
//     methods (AsBatched), the typed panics of programmer errors.
//   - obsdim: which axis of an array indexes observations (First, Last, Constant).
//   - container/containertest: the conformance checker of the contract, as
//     testing/fstest is io/fs's: every container of the kit passes it, and a
//     container written anywhere else can be held to it in its own tests; with
//     counting containers that show a wrapper reaches its source's fast paths.
//
// # Data
//
//   - arraycontainer: dense N-d numeric arrays with any strides and observation
//     axis, views, Reshape, and the zero-allocation gather kernels at the heart of
//     the kit; short names for labeled arrays (Labeled, LabeledBatch). Its
//     subpackage arraycontainer/dense (a module of its own) is the zero-copy
//     bridge to gonum.
//   - tuples: containers linked by one index, such as features and labels (a
//     container of tuples.Pair[X, L] is labeled data, its label type L checked by
//     the compiler), and named groups of sources.
//   - convert: batches converted on the loop path into reused buffers: pixels to
//     scaled or standardized floats, labels one-hot or cast.
//
// # Files and data sets
//
//   - npy: NumPy .npy files as arrays: memory-mapped (Open), read (Load, Read)
//     and written for np.load (Write, Save).
//   - idx: MNIST's IDX files (any element type and rank, gzip too) as arrays,
//     memory-mapped or read.
//   - csvdata: CSV files (with a header line or without) as numeric features and
//     a target column.
//   - recordio: MXNet's RecordIO (.rec files and their .idx index), read and
//     written byte for byte as MXNet writes it: a memory-mapped container of the
//     records found by key, a sequential scan of a stream, MXNet's image record
//     header (Pack, Unpack).
//   - imagedata: image data sets as labeled containers of encoded images: a
//     folder per class (torchvision's ImageFolder), an im2rec list with its root,
//     a RecordIO file of image records; decoded and augmented into the loop's
//     float32 batches (Decode).
//   - augment: torchvision's transforms, and affine augmentations drawn per
//     image (Affine), fused into one pipeline that decodes only the crop and
//     writes float32 (or 8-bit) CHW or HWC into a slot of the batch; it reads
//     no files.
//   - mxnet: compatibility with MXNet's image input, above imagedata, augment
//     and the loops: ImageRecordIter as a provider, its augmenter as an augment
//     step (Augmenter) and its mean image file, with MXNet's parameter names
//     and defaults.
//   - columnar/arrowipc and columnar/parquet (a module of their own, with
//     package columnar): Arrow IPC files and streams memory-mapped as zero-copy
//     containers, and Parquet tables (one file or many) decoded a row group at a
//     time, their columns as arrays, lists and strings with nulls kept explicit.
//   - imagecodec: JPEG, PNG, GIF and WebP decoded into reused RGB buffers, found
//     by content, with crops, EXIF orientation and a pixel limit, giving Pillow's
//     pixels; pure Go, or libjpeg-turbo with DCT scaling and crop regions through
//     imagecodec/turbo (the README says which decoder a build gets).
//   - datasets: iris and the handwritten digits, embedded, as (features, targets)
//     tuples ready to split.
//
// # Writing a file format
//
//   - fileio: what the file-format packages share, public so that a format kept
//     in another module (columnar's Arrow and Parquet readers, an object
//     store's shards) reads like npy and idx: the sentinels every format
//     re-exports (ErrType, ErrUnsupported, ErrFault, ErrTooLarge), so that one
//     errors.Is covers them all; errors worded "pkg: file: sentinel: what and
//     where"; element kinds and zero-copy views of bytes as numbers; sizes and
//     reads that never trust a header with memory.
//   - fileio/mmap: files mapped into memory as the storage of arrays, unmapped
//     once no array views them, and a fault (a file truncated under its
//     mapping) turned into an error that names the file and the offset.
//
// # Batches and loops
//
//   - batchview: a container whose observations are batches of another, with a
//     partial-batch policy (keep, drop, pad with the real count recorded, roll over).
//   - eachobs: the training loops (iter.Seq) over observations and batches: one
//     reused buffer (no allocation per batch), per-epoch shuffles from a seed,
//     resumable positions, prefetching and parallel gathering that keep the order,
//     random sampling streams. Its Batch is the kit's one batch type.
//   - provider: MXNet.jl's data providers over named data and label sources:
//     (name, shape) of each source, per-source padding with the real count,
//     batches fetched by name and split into views for several devices.
//
// # Choosing observations
//
//   - subset: lazy views (Of, Range), shuffles, splits by fractions or counts,
//     stratified splits, k-fold, stratified, leave-p-out and time-series folds,
//     over- and undersampling, bootstrap, partitions for distributed training,
//     classes of labeled data.
//   - index: the index arithmetic every loop shares: batch plans and the one
//     vocabulary of the last batch (Keep, Drop, Pad, RollOver), partitions,
//     chunks, permutations and Fuel's iteration schemes.
//   - transform: lazy container transforms: Map and MapBatches, Filter, GroupBy,
//     Join (concatenation) and sliding Windows.
//   - mix: containers mixed by weights into one, sized by a stop rule (first
//     exhausted, all exhausted, resample), every stretch in proportion.
//
// # Streams
//
//   - stream: data that only streams, as pipelines of stages that each save
//     their state: PaddlePaddle's readers (map, filter, shuffle buffers,
//     batches, zip, cache, prefetch and ordered parallel map), Fuel's data
//     streams over containers and stream wrappers driven by the schemes of
//     package index, streams mixed by weights, sequence packing with segment
//     ids. A pass is a pull iterator that saves its state (a shuffle's buffer
//     and the values in flight in parallel stages included) in a small
//     versioned value and resumes exactly.
//
// # Goroutines
//
// Every goroutine the kit starts is started by one internal package, the
// pipeline under eachobs' prefetching and workers, stream.Prefetch,
// stream.ParallelMap and the providers: one implementation of order, panics
// (raised in the ranging goroutine as a container.PanicError), early break and
// waiting.
//
// # The demo
//
// cmd/obskit-demo (make demo) runs the kit's main job end to end on the embedded
// digits, with no file and no network: a stratified train/test split, k-fold
// cross-validation of a small nearest-centroid classifier fitted by shuffled
// batch loops, and a report of class sizes, accuracies and loop throughput.
// Given .npy, IDX or CSV files (make demo ARGS="-x ... -y ..."), it runs the same
// job on them. Its source shows the kit in use, one idea per file.
//
// # Speed
//
// bench holds the benchmark suite: every hot path beside copy() of the same
// bytes (rand.Perm for splits) in the same run. cmd/obskit-bench runs it with the
// packages' own target benchmarks (make bench), against NumPy, PyTorch and
// scikit-learn on the same workloads (make compare), and draws the report in
// docs/performance.md (make chart).
//
// The example below (Example_softmax in the repository) is the kit's main job in
// one page: softmax regression on the digits with a stratified split, 5-fold
// cross-validation and converted shuffled batches, with no type argument and no
// type assertion.
//
// # Where it comes from
//
// MLDataUtils.jl / MLUtils.jl (the container contract, views, splits, batch loops),
// MXNet.jl data providers (named sources, padded batches, device slices), the
// PaddlePaddle reader design (composable readers) and Fuel (iteration schemes and
// stream wrappers). The design record is docs/design.md in the repository.
package obskit
