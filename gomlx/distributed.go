package gomlx

import (
	"errors"
	"fmt"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/distributed"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/train"

	"github.com/obskit/obskit/container"
)

var _ train.DistributedDataset = (*DistributedDataset[int])(nil)

// A DistributedDataset is a [Dataset] whose batches are split along the batch
// axis into one shard per device: GoMLX's train.DistributedDataset, for data
// parallel training on the devices of one backend. Device k's shard holds the
// batch's slots [k*q, (k+1)*q), q = batch size / devices, written there straight
// from the loop's buffer (still one copy per batch). Every tensor is sharded on
// its first axis over a mesh of one axis, "batch", of the devices; the mask of
// [Mask] too.
//
// It has the methods of its Dataset (Reset, Resume, Position, Stats, Close);
// its Yield returns an error: GoMLX calls DistributedYield.
type DistributedDataset[B any] struct {
	*Dataset[B]
	strategy distributed.Strategy
	devices  []backends.DeviceNum
}

// ErrDistributed is returned by [DistributedDataset.Yield]: a distributed
// dataset yields through DistributedYield.
var ErrDistributed = errors.New("a distributed dataset yields through DistributedYield")

// Distributed returns d as a distributed dataset over devices (at least one),
// run with strategy (distributed.AutoSharding or SPMD; GoMLX runs them with the
// XLA backend: simplego runs on one device and does not distribute). d must be
// read only through the result from then on, and must not have yielded a batch
// yet. The batch size must be a multiple of the number of devices; a batch that
// is not returns an error wrapping [ErrShape] from DistributedYield. Distributed
// returns GoMLX's error for a mesh it cannot make, and panics with a
// *container.ArgError if devices is empty or d has yielded.
func Distributed[B any](d *Dataset[B], strategy distributed.Strategy, devices ...backends.DeviceNum) (*DistributedDataset[B], error) {
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
	d.w.parts, d.w.sharding = len(devices), spec
	return &DistributedDataset[B]{Dataset: d, strategy: strategy, devices: append([]backends.DeviceNum(nil), devices...)}, nil
}

// Strategy returns the strategy given to [Distributed]. It implements
// train.DistributedDataset.
func (d *DistributedDataset[B]) Strategy() distributed.Strategy { return d.strategy }

// DeviceAssignment returns the devices given to [Distributed], in the order of
// the shards. It implements train.DistributedDataset.
func (d *DistributedDataset[B]) DeviceAssignment() []backends.DeviceNum { return d.devices }

// Yield returns ErrDistributed: GoMLX reads a distributed dataset with
// DistributedYield.
func (d *DistributedDataset[B]) Yield() (spec any, inputs, labels []*tensors.Tensor, err error) {
	return nil, nil, nil, ErrDistributed
}

// DistributedYield is [Dataset.Yield] with each tensor a distributed tensor of
// one shard per device. It implements train.DistributedDataset.
func (d *DistributedDataset[B]) DistributedYield() (spec any, inputs, labels []*distributed.Tensor, err error) {
	spec, _, _, err = d.Dataset.Yield()
	if err != nil {
		return nil, nil, nil, err
	}
	return spec, d.w.dinputs, d.w.dlabels, nil
}

// collectDistributed makes the batch's distributed tensors from the slots'
// shards (once, while the shards are reused).
func (w *Writer) collectDistributed() error {
	if w.owned || w.dinputs == nil {
		w.dinputs = make([]*distributed.Tensor, w.ni)
		w.dlabels = make([]*distributed.Tensor, w.nl)
	}
	for _, c := range []struct {
		slots []*Slot
		dst   []*distributed.Tensor
	}{{w.in[:w.ni], w.dinputs}, {w.lab[:w.nl], w.dlabels}} {
		for k, s := range c.slots {
			if s.dt == nil {
				dt, err := distributed.NewTensor(w.sharding, s.t)
				if err != nil {
					return fmt.Errorf("%s %d: %w", s.role, s.k, err)
				}
				s.dt = dt
			}
			c.dst[k] = s.dt
		}
	}
	return nil
}
