package container

// GetBatch returns the observations at idx as a newly allocated batch: c.GetObsInto
// with the zero value of B. Use GetObsInto directly to reuse a buffer.
func GetBatch[T, B any](c Batched[T, B], idx []int) B {
	var zero B
	return c.GetObsInto(zero, idx)
}

// Collect returns every observation of c, in order, in a new slice. Each element is
// what c.GetObs returns.
func Collect[T any](c Container[T]) []T {
	out := make([]T, c.Nobs())
	for i := range out {
		out[i] = c.GetObs(i)
	}
	return out
}
