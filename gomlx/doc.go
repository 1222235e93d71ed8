// Package gomlx feeds GoMLX (github.com/gomlx/gomlx), the Go machine-learning
// framework, from the kit's loops: any eachobs.Loader or provider.Provider
// becomes a GoMLX train.Dataset, so a network trains on the kit's splits, folds,
// shuffles, augmentations and file containers with GoMLX's trainer.
//
//	loader := eachobs.NewLoader(train, 64, eachobs.Shuffle(seed), eachobs.Tail(index.Drop), eachobs.Prefetch(2))
//	ds, err := gomlx.Labeled("train", loader.Iter()) // features -> inputs[0], labels -> labels[0] as [64, 1]
//	...
//	loop := train.NewLoop(train.NewTrainer(backend, ctx, model, losses.SparseCategoricalCrossEntropyLogits, opt, nil, nil))
//	_, err = loop.RunEpochs(ds, 10)
//	ds.Close()
//
// It is a module of its own (github.com/obskit/obskit/gomlx), so that the kit
// never requires GoMLX: only a program that imports this package gains it.
//
// # From batches to tensors
//
// A [Dataset] pulls the loop's batches one Yield at a time and writes each into
// the step's tensors: that write is the only copy a batch costs besides the
// loop's own gather into its reused buffer. By default the dataset keeps one
// set of tensors and rewrites them every step (it says so to GoMLX through
// IsOwnershipTransferred, train.DatasetCustomOwnership), and with a CPU backend
// such as backends/simplego GoMLX shares a tensor's memory with the backend
// after its first step, so the graph reads the batch where the write put it.
// [Owned] gives new tensors per batch instead, for callers that keep them.
//
// [Labeled] serves labeled data (arraycontainer.Labeled: a tuples.Zip2 of
// an array and labels, any split, fold or conversion of one), [Provided] a
// provider's named sources, and [New] any loop with a fill function of your
// own, which writes each tensor with [Array], [Values] or [Stack]. Labels of
// one value per observation are tensors of shape [batch, 1], the sparse labels
// of GoMLX's losses and metrics.
//
// # Fixed shapes
//
// GoMLX compiles a graph for every new shape, so every batch must have the
// batch size: build the loop with eachobs.Tail(index.Drop) to drop the last
// partial batch (training), or index.Pad (or provider.PadWith) to pad it, with
// [Mask] adding the mask label GoMLX's losses and metrics read, so that an
// evaluation counts each observation once. [New] refuses the index.Keep tail
// when it would leave a partial batch ([ErrShape]).
//
// # Epochs, reshuffles, resuming
//
// Yield returns io.EOF after the last batch of an epoch, and GoMLX calls Reset
// to start the next: the loop's next epoch, reshuffled by the loop's seed and
// epoch (eachobs.Shuffle), with the per-observation randomness of that epoch
// for random containers (container.Random, transform.MapRand: augmentations
// that do not depend on prefetching or workers). The loop keeps running across
// the epoch boundary, so its prefetched batches are kept. [Endless] runs
// through the epochs without io.EOF, for train.Loop.RunSteps.
//
// [Dataset.Position] says where the next batch comes from (seed, epoch, batch):
// save it with the model's checkpoint, and [Dataset.Resume] continues there,
// mid-epoch, with the batches and draws the uninterrupted run would have had.
//
// # Waiting for data
//
// [Dataset.Stats] counts the time Yield spent waiting for the loop's next batch
// and writing it into tensors. Build the loop with eachobs.Prefetch (and
// eachobs.Workers for containers that decode or augment) so that the next
// batches are gathered while GoMLX runs the step; the wait is then a small
// share of a step (the demo, cmd/obskit-train, prints it).
//
// # Several devices
//
// [Distributed] yields each batch as distributed tensors, one shard of the
// batch per device, for GoMLX's train.DistributedDataset; to split data over
// processes instead, give each process its part of every epoch with
// eachobs.Partition.
package gomlx
