//go:build race

package convert_test

// raceEnabled: the race detector makes sync.Pool drop items at random, so pooled
// paths allocate now and then; allocation pins skip those paths under -race.
const raceEnabled = true
