//go:build race

package turbo_test

// raceEnabled: the race detector makes sync.Pool drop items at random, so the
// oriented decode (a pooled scratch image) allocates now and then; the
// allocation pin skips it under -race.
const raceEnabled = true
