//go:build race

package mix_test

// raceEnabled: the property tests run fewer trials under the race detector,
// which slows them tenfold; the full count runs without it.
const raceEnabled = true
