package stream

import (
	"fmt"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/subset"
)

// HashPart returns a [Stream] of the values of s that fall in part part of the
// hash split h, in order: those whose id, id(v), has that part under h
// (subset.HashPart). It is the stream form of subset.HashSplit, and keeps the
// same values: a value's part depends on its id and h alone, so a stream read
// today and the same stream grown, reordered or read as a container tomorrow
// put every value in the same part. It is a [Filter]: it holds no state of its
// own (O(1) memory). One stream per part, each reading its own pass of s, gives
// all the parts:
//
//	h, err := subset.NewHash("holdout-v1", 0.9) // part 0 train, part 1 test
//	train := stream.HashPart(records, h, 0, func(r Record) string { return r.User })
//	test := stream.HashPart(records, h, 1, func(r Record) string { return r.User })
//
// Errors of s pass through in place, as Filter passes them. HashPart panics
// with a [*container.ArgError] when h or id is nil or part is outside
// [0, h.Parts()).
func HashPart[T any, I subset.ID](s Stream[T], h *subset.Hash, part int, id func(T) I) Stream[T] {
	const op = "stream.HashPart"
	s.check(op)
	container.CheckArg(h != nil, op, "hash", h, "a *subset.Hash from subset.NewHash")
	container.CheckArg(id != nil, op, "id function", "nil", "a function")
	container.CheckArg(part >= 0 && part < h.Parts(), op, "part", part, fmt.Sprintf("in [0, %d)", h.Parts()))
	return Filter(s, func(v T) bool { return subset.HashPart(h, id(v)) == part })
}
