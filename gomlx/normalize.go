package gomlx

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
)

// A Layout is where a batch of images keeps its channels: after the pixels
// (ChannelsLast, [batch, height, width, channels], augment's HWC) or before
// them (ChannelsFirst, [batch, channels, height, width], augment's CHW and
// PyTorch's).
type Layout int

const (
	// ChannelsLast is [batch, height, width, channels]: augment's HWC, and
	// GoMLX's default for convolutions and pooling.
	ChannelsLast Layout = iota
	// ChannelsFirst is [batch, channels, height, width]: augment's CHW,
	// PyTorch's and MXNet's layout.
	ChannelsFirst
)

// String returns "ChannelsLast" or "ChannelsFirst".
func (l Layout) String() string {
	switch l {
	case ChannelsLast:
		return "ChannelsLast"
	case ChannelsFirst:
		return "ChannelsFirst"
	}
	return fmt.Sprintf("Layout(%d)", int(l))
}

// Normalize returns, in the graph, the float32 images of x, a batch of images
// of any numeric type (the uint8 pixels of a loader that leaves normalization
// to the device, as FFCV and DALI do) in layout in: each value v of channel c
// becomes (v/scale - mean[c]) / std[c], computed in float32 in that order, and
// the result is in layout out (the channels moved when out differs from in).
//
// With scale 255 and torchvision's mean and std (augment.ImageNet), the values
// are those of an augment pipeline's float32 output with that Normalize step,
// bit for bit: a model fed uint8 batches (augment's ApplyUint8) sees what it
// would see fed float32 batches, for a quarter of the bytes per batch. With
// scale 1, mean and std are in pixel units, as MXNet's mean_r and std_r.
//
// mean and std hold one value per channel, or one for all. Normalize panics
// (GoMLX's way in a graph) if x is not of rank 4, if in or out is not a
// Layout, if mean or std has another length than 1 or the number of channels,
// or if a std or the scale is zero.
func Normalize(x *graph.Node, in, out Layout, scale float32, mean, std []float32) *graph.Node {
	if x.Rank() != 4 {
		panic(fmt.Sprintf("gomlx.Normalize: x has shape %s, want a batch of images of rank 4", x.Shape()))
	}
	if (in != ChannelsLast && in != ChannelsFirst) || (out != ChannelsLast && out != ChannelsFirst) {
		panic(fmt.Sprintf("gomlx.Normalize: layouts %v and %v: want ChannelsLast or ChannelsFirst", in, out))
	}
	axis := 3
	if in == ChannelsFirst {
		axis = 1
	}
	channels := x.Shape().Dimensions[axis]
	for _, p := range []struct {
		name string
		v    []float32
	}{{"mean", mean}, {"std", std}} {
		if len(p.v) != 1 && len(p.v) != channels {
			panic(fmt.Sprintf("gomlx.Normalize: %s has %d values for %d channels: want 1 or %d", p.name, len(p.v), channels, channels))
		}
	}
	for _, s := range std {
		if s == 0 {
			panic(fmt.Sprintf("gomlx.Normalize: std %v has a zero", std))
		}
	}
	if scale == 0 {
		panic("gomlx.Normalize: scale is zero")
	}
	g := x.Graph()
	perChannel := func(v []float32) *graph.Node {
		dims := []int{1, 1, 1, 1}
		dims[axis] = len(v)
		return graph.Reshape(graph.Const(g, v), dims...)
	}
	y := graph.ConvertDType(x, dtypes.Float32)
	y = graph.Div(y, graph.Const(g, scale))
	y = graph.Sub(y, perChannel(mean))
	y = graph.Div(y, perChannel(std))
	switch {
	case in == ChannelsLast && out == ChannelsFirst:
		y = graph.TransposeAllAxes(y, 0, 3, 1, 2)
	case in == ChannelsFirst && out == ChannelsLast:
		y = graph.TransposeAllAxes(y, 0, 2, 3, 1)
	}
	return y
}
