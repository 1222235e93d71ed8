package gomlx

import (
	"fmt"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/checkpoint"
	"github.com/gomlx/gomlx/ml/train"
)

// StateScope is the scope of the model store's variables that hold the
// datasets' states: the state of a dataset called name is the Uint8 variable
// StateScope/name (with "/" in name replaced by "_"), which GoMLX's checkpoints
// save and load with the model's weights.
const StateScope = "/obskit/dataset"

// statePath is the full path of the variable of the dataset's state.
func (d *Dataset[B]) statePath() string {
	return StateScope + "/" + model.EscapeScopeName(d.name)
}

// SaveState writes the dataset's state, the bytes of its loop's MarshalBinary
// (after the last batch yielded), into a non-trainable Uint8 variable of store
// (see [StateScope]), so that the next checkpoint.Handler.Save writes it with
// the model. [Dataset.SaveOnStep] does it before every checkpoint. SaveState
// returns the loop's error for a loop that cannot save, and GoMLX's for a store
// that refuses the variable.
func (d *Dataset[B]) SaveState(store *model.Store) error {
	var state []byte
	var err error
	if d.held != nil || d.closed {
		state, err = d.pos.MarshalBinary() // the loop stands past d.pos, or was closed
	} else {
		state, err = d.loop.MarshalBinary()
	}
	if err != nil {
		return fmt.Errorf("gomlx: %s: SaveState: %w", d.name, err)
	}
	path := d.statePath()
	value := tensors.FromFlatDataAndDimensions(state, len(state))
	if v := store.GetVariable(path); v != nil {
		if v.Shape().Equal(value.Shape()) {
			if err := v.SetValue(value); err != nil {
				return fmt.Errorf("gomlx: %s: SaveState: %w", d.name, err)
			}
			return nil
		}
		if err := store.DeleteVariable(path); err != nil {
			return fmt.Errorf("gomlx: %s: SaveState: %w", d.name, err)
		}
	}
	v, err := store.CreateVariable(path, value)
	if err != nil {
		return fmt.Errorf("gomlx: %s: SaveState: %w", d.name, err)
	}
	v.SetTrainable(false)
	return nil
}

// RestoreState sets the dataset to the state saved in store by
// [Dataset.SaveState], if store holds one: after a checkpoint was loaded
// (checkpoint.Build(store).Dir(dir).Done()), the next batch is the one after
// the last batch of the checkpointed run. It reports whether store held a
// state. It returns the loop's error, wrapping container.ErrState, for a state
// of another loop (another seed, order, number of observations, tail, or
// damaged bytes), naming the dataset and the variable, and then leaves the
// dataset as it was.
func (d *Dataset[B]) RestoreState(store *model.Store) (bool, error) {
	path := d.statePath()
	v := store.GetVariable(path)
	if v == nil {
		return false, nil
	}
	t, err := v.Value()
	if err != nil {
		return false, fmt.Errorf("gomlx: %s: RestoreState: variable %s: %w", d.name, path, err)
	}
	state, err := tensors.CopyFlatData[uint8](t)
	if err != nil {
		return false, fmt.Errorf("gomlx: %s: RestoreState: variable %s: %w", d.name, path, err)
	}
	if err := d.loop.UnmarshalBinary(state); err != nil {
		return false, fmt.Errorf("gomlx: %s: RestoreState: variable %s: %w", d.name, path, err)
	}
	d.pos, d.held, d.closed = d.loop.Pos(), nil, false
	return true, nil
}

// SaveOnStep returns a train.OnStepFn that saves the dataset's state into the
// checkpoint's store ([Dataset.SaveState]) and then the checkpoint
// (h.Save), for train.EveryNSteps in place of h.SaveOnStepFn:
//
//	train.EveryNSteps(loop, 100, "checkpoint", 100, ds.SaveOnStep(handler, store))
//
// A step's hooks run after the step, when the dataset's state is after the
// step's batch: the checkpoint holds the weights and the data position of
// the same step.
func (d *Dataset[B]) SaveOnStep(h *checkpoint.Handler, store *model.Store) train.OnStepFn {
	return func(*train.Loop, []*tensors.Tensor) error {
		if err := d.SaveState(store); err != nil {
			return err
		}
		return h.Save()
	}
}
