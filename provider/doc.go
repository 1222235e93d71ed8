// Package provider serves batches of named data and label sources the way
// MXNet.jl's data providers do: each source reports its name and batch shape, a
// padded last batch says how many of its observations are real, a source can be
// fetched by name, and a batch splits into K views for K devices.
//
//	data, _ := tuples.NewNamed([]string{"data"}, x)   // x: 10 observations of 4 features
//	label, _ := tuples.NewNamed([]string{"label"}, y) // y: 10 values
//	p, err := provider.New(data, label, 4, provider.PadWith(0), provider.Loop(eachobs.Shuffle(seed)))
//	p.ProvideData()                                   // [{data [4 4]}]
//	for e := range epochs {
//		for b := range p.Epoch(e) {
//			for d, s := range provider.Split(b, len(devices)) { // views, no copy (SplitInto: no allocation)
//				devices[d].Forward(s.Data.X, s.Data.Y)
//			}
//			loss.Update(p.Label(b, "label"), b.Real) // the first Real observations are real
//		}
//	}
//
// # A thin layer
//
// A provider adds names, shapes, constant padding and device slices to loops the
// kit already has, and nothing else:
//
//   - sources are tuples.Named members, one group of data sources (element type D)
//     and one of labels (element type L), zipped by tuples.Zip2 so that both
//     share one index;
//   - the loop is an eachobs.Loader: [Loop] passes it eachobs's own options
//     (Shuffle, Tail, Partition, Prefetch, Workers), which mean here what they
//     mean there;
//   - a batch is the kit's one batch type, eachobs.Batch ([Batch] is its name
//     here), whose Data holds the batch of every source ([Arrays]: X for the data
//     sources, Y for the labels);
//   - constant padding ([PadWith], [PadSource]) is the loop's index.Pad tail with
//     the padding slots overwritten per source (arraycontainer.Array.FillObs);
//   - device slices are views of the batch's arrays (arraycontainer.Array.ObsRange,
//     or Array.ObsRangeInto to reuse the headers of the previous batch's views).
//
// So everything said of those holds here: one buffer reused from batch to batch
// (a provider allocates nothing per batch; see the benchmarks), epochs
// reproducible from the seed and resumable mid-epoch ([Provider.Resume] with the
// position of the batch's Next), goroutines that stop when a loop is left early,
// and panics in them that reach the ranging goroutine.
//
// Every source is a container whose batches are arrays: an *arraycontainer.Array,
// a subset of one (a training split), an array memory-mapped from a file, a
// conversion of one (package convert: uint8 pixels served as float32). A source's
// batch shape is its array shape with the batch size at the observation axis: a
// source of 4 features per observation (obsdim.First) in batches of 4 has shape
// [4 4], one stored observation-last (Julia's layout) [4 4] too, with the batch on
// the last axis.
//
// # Coming from MXNet.jl
//
//	MXNet.jl                                   here
//	ArrayDataProvider(:data => x,              New(data, label, size,
//	  :label => y; batch_size, shuffle,          Loop(eachobs.Shuffle(seed)),
//	  data_padding, label_padding)               PadWith(v), PadSource(name, v))
//	provide_data(p), provide_label(p)          p.ProvideData(), p.ProvideLabel()
//	get_batch_size(p)                          p.BatchSize()
//	reset!(p); for b in eachbatch(p)           for b := range p.Epoch(e)
//	count_samples(p, b)                        b.Real
//	get_pad, getpad() (DataBatch.pad)          b.Pad()
//	get_data(p, b), get_label(p, b)            b.Data.X, b.Data.Y
//	get(p, b, name)                            p.Data(b, name), p.Label(b, name)
//	load_data!(p, b, targets),                 Split(b, k), SplitInto(prev, b, k):
//	  load_label!(p, b, targets)                 k views, no copy
//	last_batch_handle pad/discard/roll_over    Loop(eachobs.Tail(index.Pad/Drop/RollOver))
//	part_index, num_parts                      Loop(eachobs.Partition(index.Part{Index, Parts}))
//	PrefetchingIter                            Loop(eachobs.Prefetch(k))
//	(none: providers are stateful)             p.Resume(pos), pos = b.Next()
//
// Differences: a provider is immutable, so epochs are numbered by the caller
// (there is no reset!) and several loops may read one provider at once. Padding
// values are float64 (MXNet.jl's Real) converted to each source's element type;
// one that does not fit is an error, not a silent rounding. Batches are valid
// until the loop body returns, as MXNet's are until the next batch.
//
// # Limits
//
// All data sources share one element type, and all label sources another:
// tuples.Named holds members of one type. A source of another element type can
// be converted to D with package convert.
package provider
