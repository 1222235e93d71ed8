//go:build race

package stream_test

// raceEnabled: the property tests run fewer trials under the race detector,
// which slows them tenfold, and the allocation pins are skipped (the detector
// allocates); the full count runs without it.
const raceEnabled = true
