package container

import (
	"encoding"
	"errors"
)

// An Iterator is the one protocol of every loop and stream of the kit: a pull
// iterator whose state can be saved between two values and restored into a
// freshly built iterator of the same shape. eachobs.Loader, provider.Provider,
// every stage of package stream and the mixes give one; the range forms (for
// ... range) are thin wrappers over it.
//
//	it := loader.Iter()
//	defer it.Close()
//	if saved != nil {
//		if err := it.UnmarshalBinary(saved); err != nil { ... } // errors.Is(err, container.ErrState)
//	}
//	for b, ok := it.Next(); ok; b, ok = it.Next() {
//		train(b)
//		saved, _ = it.MarshalBinary() // resume after b
//	}
//	if err := it.Err(); err != nil { ... }
//
// Next returns the next value and true, or the zero value and false at the end
// of the values or after a failure, which Err then returns (nil at the end).
// A value is valid until the next call of Next unless the iterator's
// documentation says it is the caller's.
//
// MarshalBinary returns the state after the last value Next returned: a small
// versioned value with a checksum, to keep in a checkpoint. UnmarshalBinary
// replaces the iterator's state by a saved one, so that Next continues with
// exactly the value the saving iterator would have returned next; it returns an
// error wrapping [ErrState] for bytes that are not such a state, fail their
// checksum, or were saved by an iterator of another shape or setting (the error
// names the stage and the setting). Iterators with goroutines (prefetching,
// parallel gathering and maps) save the consumer's position, not theirs:
// restoring redoes the work that was in flight.
//
// Close ends the goroutines and releases the files the iterator holds; an
// iterator run to its end releases them itself. Close may be called more than
// once, and MarshalBinary still works after it. An Iterator belongs to one
// goroutine.
type Iterator[T any] interface {
	Next() (T, bool)
	Err() error
	Close()
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}

// ErrState is wrapped by the error an [Iterator]'s UnmarshalBinary returns for
// a state it cannot continue from without losing or repeating values: not a
// saved state, damaged (its checksum fails), of another version, or saved by an
// iterator of another shape or setting (another seed, order, buffer size, number
// of observations). The message names the stage and what differs. It is also
// wrapped by the error of MarshalBinary for an iterator that cannot save (a
// stage over a plain iter.Seq, which cannot be rewound), naming that stage.
var ErrState = errors.New("state does not fit the iterator")
