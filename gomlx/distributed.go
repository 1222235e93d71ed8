package gomlx

import (
	"fmt"
	"iter"
	"slices"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/distributed"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/core/tensors/dtensor"
	"github.com/gomlx/gomlx/ml/train"

	"github.com/obskit/obskit/container"
)

var _ train.DistributedDataset = (*DistributedDataset[int])(nil)

// A DistributedDataset is a [Dataset] whose batches are split along the batch
// axis into one shard per device: GoMLX's train.DistributedDataset, for data
// parallel training on the devices of one backend. Device k's shard holds the
// batch's slots [k*q, (k+1)*q), q = batch size / devices, written straight from
// the loop's buffer into a host tensor per shard, which GoMLX's trainer moves
// to its device. Every tensor is sharded on
// its first axis over a mesh of one axis, "batch", of the devices; the mask of
// [Mask] too.
//
// It has the methods of its Dataset (Resume, Position, Stats, Close, the
// state); its Iter yields the batches whole, one shard merged per tensor:
// GoMLX's trainer calls DistributedIter.
type DistributedDataset[B any] struct {
	*Dataset[B]
	strategy distributed.Strategy
	devices  []compute.DeviceNum
}

// Distributed returns d as a distributed dataset over devices (at least one),
// run with strategy (distributed.AutoSharding or SPMD; GoMLX runs them with the
// XLA backend: the pure-Go backend has one device). d must be read only
// through the result from then on, and must not have yielded a batch yet. The
// batch size must be a multiple of the number of devices; a batch that is not
// is an error wrapping [ErrShape] from DistributedIter. Distributed returns
// GoMLX's error for a mesh it cannot make, and panics with a
// *container.ArgError if devices is empty or d has yielded.
func Distributed[B any](d *Dataset[B], strategy distributed.Strategy, devices ...compute.DeviceNum) (*DistributedDataset[B], error) {
	container.CheckArg(len(devices) > 0, "gomlx.Distributed", "devices", len(devices), ">= 1")
	container.CheckArg(!d.w.made && d.w.sharding == nil, "gomlx.Distributed", "dataset", d.name, "a dataset that has not yielded")
	mesh, err := distributed.NewDeviceMesh([]int{len(devices)}, []string{"batch"})
	if err != nil {
		return nil, fmt.Errorf("gomlx.Distributed: %s: %w", d.name, err)
	}
	spec, err := distributed.NewShardingSpec(mesh, distributed.AxisSpec{"batch"})
	if err != nil {
		return nil, fmt.Errorf("gomlx.Distributed: %s: %w", d.name, err)
	}
	devices = slices.Clone(devices)
	d.w.parts, d.w.sharding = len(devices), spec
	return &DistributedDataset[B]{Dataset: d, strategy: strategy, devices: devices}, nil
}

// Strategy returns the strategy given to [Distributed]. It implements
// train.DistributedDataset.
func (d *DistributedDataset[B]) Strategy() distributed.Strategy { return d.strategy }

// DeviceAssignment returns the devices given to [Distributed], in the order of
// the shards. It implements train.DistributedDataset.
func (d *DistributedDataset[B]) DeviceAssignment() []compute.DeviceNum { return d.devices }

// DistributedIter is [Dataset.Iter] with each tensor a distributed tensor of
// one shard per device, whose ownership passes to the caller. It implements
// train.DistributedDataset.
func (d *DistributedDataset[B]) DistributedIter() iter.Seq2[train.DistributedBatch, error] {
	return func(yield func(train.DistributedBatch, error) bool) {
		for b, err := range d.Dataset.Iter() {
			if err != nil {
				yield(train.DistributedBatch{}, err)
				return
			}
			if !yield(train.DistributedBatch{Inputs: d.w.dinputs, Labels: d.w.dlabels, Spec: b.Spec}, nil) {
				return
			}
		}
	}
}

// Iter yields the batches of [DistributedDataset.DistributedIter] with each
// tensor's shards merged into one tensor on the host (dtensor's Merge), for a
// caller that is not distributed; the merged tensors are the caller's. It
// implements train.Dataset.
func (d *DistributedDataset[B]) Iter() iter.Seq2[train.Batch, error] {
	return func(yield func(train.Batch, error) bool) {
		for b, err := range d.DistributedIter() {
			if err != nil {
				yield(train.Batch{}, err)
				return
			}
			out := train.Batch{Spec: b.Spec}
			for _, c := range []struct {
				src []*dtensor.Tensor
				dst *[]*tensors.Tensor
			}{{b.Inputs, &out.Inputs}, {b.Labels, &out.Labels}} {
				for _, dt := range c.src {
					t, err := dt.Merge()
					_ = dt.FinalizeAll()
					if err != nil {
						yield(train.Batch{}, fmt.Errorf("gomlx: %s: %w", d.name, err))
						return
					}
					*c.dst = append(*c.dst, t)
				}
			}
			if !yield(out, nil) {
				return
			}
		}
	}
}

// collectDistributed makes the batch's distributed tensors from the slots'
// shards, new ones every batch (the caller frees them).
func (w *Writer) collectDistributed() error {
	if w.dinputs == nil {
		w.dinputs = make([]*dtensor.Tensor, w.ni)
		w.dlabels = make([]*dtensor.Tensor, w.nl)
	}
	for _, c := range []struct {
		slots []*Slot
		dst   []*dtensor.Tensor
	}{{w.in[:w.ni], w.dinputs}, {w.lab[:w.nl], w.dlabels}} {
		for k, s := range c.slots {
			dt, err := dtensor.NewTensor(w.sharding, slices.Clone(s.t))
			if err != nil {
				return fmt.Errorf("%s %d: %w", s.role, s.k, err)
			}
			c.dst[k] = dt
		}
	}
	return nil
}
