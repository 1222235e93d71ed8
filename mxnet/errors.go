package mxnet

import (
	"errors"
	"fmt"

	"github.com/obskit/obskit/container"
)

var (
	// ErrParam is wrapped by the errors about parameters: of
	// [ImageRecordIter.Set] and [Augmenter.Set] for a name they do not know
	// or a value that does not parse, that MXNet refuses too or that the kit
	// does not support; of the Check methods for values out of range or that
	// do not fit together; of [ImageRecordIter.Provider] for a label_width
	// that the records or the image list do not have. The message names the
	// parameter by MXNet's name.
	ErrParam = errors.New("invalid MXNet parameter")
	// ErrTooSmall is wrapped by the error of an image too small for the
	// augmentation: smaller than max_crop_size after the resize, the warp
	// and the padding, which MXNet refuses too.
	ErrTooSmall = errors.New("image too small for the augmentation")
)

// A problem is a parameter out of range: the ArgError the call of a program
// panics with, or the error Check returns.
type problem struct {
	arg   string // MXNet's name of the parameter, or the field's
	value any
	want  string
}

// panicAt panics with the *container.ArgError of p at op, if p is not nil.
func (p *problem) panicAt(op string) {
	if p != nil {
		panic(&container.ArgError{Op: op, Arg: p.arg, Value: p.value, Want: p.want})
	}
}

// err returns the error of p at op wrapping ErrParam, or nil.
func (p *problem) err(op string) error {
	if p == nil {
		return nil
	}
	return fmt.Errorf("%s: %w: %s %v, want %s", op, ErrParam, p.arg, p.value, p.want)
}
