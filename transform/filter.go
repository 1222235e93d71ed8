package transform

import (
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/subset"
)

// Filter returns the view of the observations of c for which keep returns true,
// in data order (MLUtils.filterobs). keep is called once per observation, now, on
// c.GetObs(i); the result is a [subset.View] (Batched through c's GetObsInto)
// that does not call keep again. To choose by label without loading
// observations, use [subset.Classes] and [subset.Of].
func Filter[T, B any](c container.Batched[T, B], keep func(T) bool) *subset.View[T, B] {
	check("transform.Filter", c == nil, "keep function", keep == nil)
	var idx []int
	for i := range c.Nobs() {
		if keep(c.GetObs(i)) {
			idx = append(idx, i)
		}
	}
	return subset.Of(c, idx)
}

// check panics with a *container.ArgError naming op when the container is nil
// or the function arg is nil: the kit's functions check their arguments when
// they are called, not at the first read.
func check(op string, nilContainer bool, arg string, nilFunc bool) {
	container.CheckArg(!nilContainer, op, "container", "nil", "a container")
	container.CheckArg(!nilFunc, op, arg, "nil", "a function")
}

// A Group is the observations of a container that share one key.
type Group[K comparable, T, B any] struct {
	Key  K
	View *subset.View[T, B]
}

// GroupBy splits c into one view per key (MLUtils.groupobs): key is called once
// per observation, now, on c.GetObs(i); groups come in order of the first
// appearance of their key and each lists its observations in data order. The
// views share nothing with each other and together hold every observation of c
// once. Keys compare with ==. To group labeled data by label without loading
// observations, use [subset.Classes].
func GroupBy[K comparable, T, B any](c container.Batched[T, B], key func(T) K) []Group[K, T, B] {
	check("transform.GroupBy", c == nil, "key function", key == nil)
	n := c.Nobs()
	keys := make([]K, n)
	for i := range keys {
		keys[i] = key(c.GetObs(i))
	}
	var out []Group[K, T, B]
	var members [][]int
	group := make(map[K]int)
	for i, k := range keys {
		g, ok := group[k]
		if !ok {
			g = len(out)
			group[k] = g
			out = append(out, Group[K, T, B]{Key: k})
			members = append(members, nil)
		}
		members[g] = append(members[g], i)
	}
	for g := range out {
		out[g].View = subset.Of(c, members[g])
	}
	return out
}
