package stream

import (
	"fmt"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/subset"
)

// HashPart returns a [Reader] of the values of r that fall in part part of the
// hash split h, in order: those whose id, id(v), has that part under h
// (subset.HashPart). It is the stream form of subset.HashSplit, and keeps the
// same values: a value's part depends on its id and h alone, so a stream read
// today and the same stream grown, reordered or read as a container tomorrow
// put every value in the same part, and a pass holds no state (O(1) memory).
// One reader per part, each reading its own pass of r, gives all the parts:
//
//	h, err := subset.NewHash("holdout-v1", 0.9) // part 0 train, part 1 test
//	train := stream.HashPart(records, h, 0, func(r Record) string { return r.User })
//	test := stream.HashPart(records, h, 1, func(r Record) string { return r.User })
//
// Errors of r pass through in place, as [Filter] passes them. HashPart panics
// with a [*container.ArgError] when r, h or id is nil or part is outside
// [0, h.Parts()).
func HashPart[T any, I subset.ID](r Reader[T], h *subset.Hash, part int, id func(T) I) Reader[T] {
	const op = "stream.HashPart"
	container.CheckArg(r != nil, op, "reader", "nil", "a Reader")
	container.CheckArg(h != nil, op, "hash", h, "a *subset.Hash from subset.NewHash")
	container.CheckArg(id != nil, op, "id function", "nil", "a function")
	container.CheckArg(part >= 0 && part < h.Parts(), op, "part", part, fmt.Sprintf("in [0, %d)", h.Parts()))
	return func(yield func(T, error) bool) {
		for v, err := range r {
			if err != nil {
				yield(v, err)
				return
			}
			if subset.HashPart(h, id(v)) == part && !yield(v, nil) {
				return
			}
		}
	}
}
