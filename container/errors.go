package container

import "errors"

// ErrEmpty is wrapped by the error of a function that must produce observations
// from a container and finds none: a draw from an empty container
// (subset.RandObs, eachobs.RandomObs, RandomBatches and BalancedObs), a part of a
// split whose fraction is above 0 that would hold none (subset.Split,
// StratifiedSplit), statistics of no observations (convert.MeanStd).
//
// It is the kit's one rule for empty containers. An empty container is data, not
// a programmer error (a filter that kept nothing, a file with a header and no
// rows), so it is never a panic: a function that needs an observation returns
// this error when it is called, never later and never silently. A function that
// needs none succeeds and does nothing: a loop over an empty container yields no
// batch, as ranging over an empty slice does, and a view of it is empty.
var ErrEmpty = errors.New("no observations")
