// Package gomlx feeds GoMLX (github.com/gomlx/gomlx), the Go machine-learning
// framework, from the kit's loops: any eachobs.Loader or provider.Provider
// becomes a GoMLX train.Dataset, so a network trains on the kit's splits, folds,
// shuffles, augmentations and file containers with GoMLX's trainer.
//
//	backend, err := gobackend.New("") // github.com/gomlx/compute/gobackend: pure Go
//	loader := eachobs.NewLoader(train, 64, eachobs.Shuffle(seed), eachobs.Tail(index.Drop), eachobs.Prefetch(2))
//	ds, err := gomlx.Labeled(backend, "train", loader.Iter()) // features -> Inputs[0], labels -> Labels[0] as [64, 1]
//	...
//	loop := train.NewLoop(train.NewTrainer(backend, store, model, loss.SparseCategoricalCrossEntropyLogits, opt, nil, nil))
//	_, err = loop.RunEpochs(ds, 10)
//	ds.Close()
//
// It is a module of its own (github.com/obskit/obskit/gomlx), so that the kit
// never requires GoMLX: only a program that imports this package gains it.
//
// # GoMLX versions
//
// The module is built on GoMLX v0.28.2 with github.com/gomlx/compute v0.1.3,
// and works with the GoMLX v0.28 releases: v0.28 replaced the API the adapter
// implements (train.Dataset became Name and an Iter of train.Batch values
// whose tensors the trainer owns; the packages moved from pkg/ to core/ and
// ml/; the backends to github.com/gomlx/compute), so no earlier GoMLX builds
// against it, and compute v0.1.3 is the first whose pure-Go backend
// differentiates max-pooling (SelectAndScatterMax), which a convolutional
// network needs. The pure-Go backend (compute/gobackend) needs no cgo and
// downloads nothing; GoMLX's backends/default also tries to load, and
// download, an XLA plugin at run time unless built with -tags noxla.
//
// # From batches to tensors
//
// A [Dataset]'s Iter pulls the loop's batches one at a time and writes each
// into new tensors on the backend's device: GoMLX's trainer takes the
// ownership of a batch's tensors and frees them after the step. With a
// backend whose buffers are shared with the host, as the pure-Go one's are,
// the write goes straight into the memory the graph reads: it is the only copy
// a batch costs besides the loop's own gather into its reused buffer. The
// adapter's code allocates nothing per batch; GoMLX's tensors do.
//
// [Labeled] serves labeled data (arraycontainer.Labeled: a tuples.Zip2 of
// an array and labels, any split, fold or conversion of one), [Provided] a
// provider's named sources, and [New] any loop with a fill function of your
// own, which writes each tensor with [Array], [Values] or [Stack]. Labels of
// one value per observation are tensors of shape [batch, 1], the sparse labels
// of GoMLX's losses and metrics. [Normalize] turns uint8 images (augment's
// uint8 output) into the float32 a model reads, inside the graph.
//
// # Fixed shapes
//
// GoMLX compiles a graph for every new shape, so every batch must have the
// batch size: build the loop with eachobs.Tail(index.Drop) to drop the last
// partial batch (training), or index.Pad (or provider.PadWith) to pad it, with
// [Mask] adding the mask label GoMLX's losses and metrics read, so that an
// evaluation counts each observation once ([MaskedAccuracy]). [New] refuses the
// index.Keep tail when it would leave a partial batch ([ErrShape]).
//
// # Epochs, resuming, checkpoints
//
// Each call of Iter yields the rest of the epoch of the dataset's position,
// then ends: GoMLX's RunEpochs calls it once per epoch, and each call is the
// loop's next epoch, reshuffled by the loop's seed and epoch
// (eachobs.Shuffle), with the per-observation randomness of that epoch for
// random containers (container.Random, transform.MapRand: augmentations that
// do not depend on prefetching or workers). [Endless] runs through the epochs
// without end, for train.Loop.RunSteps. Iter never goes back: the first Iter
// after a restore, or after RunSteps stopped in the middle of an epoch,
// continues with the next batch, not from the epoch's start.
//
// The dataset's state is its loop's (container.Iterator's MarshalBinary):
// [Dataset.SaveState] puts it into the model's store as a variable, which
// GoMLX's checkpoints save with the weights, and [Dataset.RestoreState] sets a
// dataset built anew to it after the checkpoint is loaded, so that a run
// stopped at step k and restarted trains on the batches the uninterrupted run
// would have; [Dataset.SaveOnStep] saves both at once, as a loop's hook.
//
// # Waiting for data
//
// [Dataset.Stats] counts the time spent waiting for the loop's next batch and
// writing it into tensors. Build the loop with eachobs.Prefetch (and
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
