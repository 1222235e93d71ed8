package csvdata

import (
	"slices"
	"strconv"

	"github.com/obskit/obskit/container"
)

// IntTargets returns the targets parsed as integers, for files whose target
// column holds class numbers or counts. It returns an error wrapping [ErrValue]
// that names the line and column of the first cell that is not an integer, and
// one wrapping [ErrColumn] when the table has no target column.
func (t *Table[E]) IntTargets() (container.Slice[int], error) {
	if t.Y == nil {
		return nil, format.Errorf(t.name, ErrColumn, "no target column was read (Options.Target is empty)")
	}
	out := make(container.Slice[int], len(t.Y))
	for i, s := range t.Y {
		v, err := strconv.Atoi(s)
		if err != nil {
			return nil, format.Errorf(t.name, ErrValue, "line %d, column %d (%s): %s", t.lines[i], t.col, quote(t.Target), cellError(s, "an integer target", err))
		}
		out[i] = v
	}
	return out, nil
}

// Classes encodes text targets as integers: names holds the distinct targets in
// sorted order and codes[i] is the position of Y[i] in names, the form a
// classifier and a stratified split want. Sorting makes the codes independent of
// the order of the rows. Classes returns nil, nil for a table without targets.
func (t *Table[E]) Classes() (codes container.Slice[int], names []string) {
	if t.Y == nil {
		return nil, nil
	}
	names = slices.Clone(t.Y)
	slices.Sort(names)
	names = slices.Compact(names)
	codes = make(container.Slice[int], len(t.Y))
	for i, s := range t.Y {
		codes[i], _ = slices.BinarySearch(names, s)
	}
	return codes, names
}
