package index

import (
	"errors"
	"fmt"
	"strconv"
)

// A Tail says what a batching or a partition does with the positions left over
// when its size does not divide their number. The zero Tail is [Keep].
type Tail uint8

const (
	// Keep keeps the remainder: a shorter last batch; parts whose sizes differ
	// by at most one.
	Keep Tail = iota
	// Drop leaves the remainder out: full-size batches only; every part trimmed
	// to the same size. The dropped positions are not visited.
	Drop
	// Pad fills the last batch (or every part) up to full size by repeating the
	// first positions of the epoch; the repeated positions are counted apart from
	// the real ones.
	Pad
	// RollOver carries the remainder of one epoch into the first batch of the
	// next. It applies to batches, not to partitions.
	RollOver
)

var tailNames = [...]string{"keep", "drop", "pad", "roll-over"}

// String returns the tail's name: "keep", "drop", "pad" or "roll-over".
func (t Tail) String() string {
	if int(t) < len(tailNames) {
		return tailNames[t]
	}
	return "Tail(" + strconv.Itoa(int(t)) + ")"
}

// valid reports whether t is one of the four tails.
func (t Tail) valid() bool { return t <= RollOver }

// MarshalText returns the tail's name, so that a tail saved in JSON (a
// checkpoint's position) reads "keep", "drop", "pad" or "roll-over".
func (t Tail) MarshalText() ([]byte, error) {
	if !t.valid() {
		return nil, fmt.Errorf("index.Tail.MarshalText: %v is not a tail: %w", t, ErrTail)
	}
	return []byte(t.String()), nil
}

// UnmarshalText sets the tail named by text, one of the names [Tail.String]
// gives. It returns an error wrapping [ErrTail] for another name.
func (t *Tail) UnmarshalText(text []byte) error {
	for i, name := range tailNames {
		if string(text) == name {
			*t = Tail(i)
			return nil
		}
	}
	return fmt.Errorf("index.Tail.UnmarshalText: %q is not a tail (keep, drop, pad or roll-over): %w", text, ErrTail)
}

// ErrTail is wrapped by the errors of a tail's text that names no tail.
var ErrTail = errors.New("not a tail")
