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
// reproducible from the seed and resumable mid-epoch (the state of a
// [Provider.Iter], saved and restored as a container.Iterator's), goroutines that stop when a loop is left early,
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
// The guide's docs/from-mxnet.md (in the repository) maps MXNet.jl's calls to
// these. A provider is immutable: the caller numbers the epochs (there is no
// reset!), and several loops may read one provider at once.
//
// # Limits
//
// All data sources share one element type, and all label sources another. A
// group (tuples.Named) also holds members of one Go type: sources of different
// types, such as an array beside a convert.Scale of another, go in as their
// common interface, arraycontainer.Batched:
//
//	data, err := tuples.NewNamed([]string{"x", "pixels"}, []arraycontainer.Batched[float32]{x, scaled}...)
//
// A source of another element type can be converted to D with package convert.
package provider
