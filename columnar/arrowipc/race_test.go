//go:build race

package arrowipc_test

// raceEnabled: the race detector makes sync.Pool drop items at random, so
// the index lists a gather over several record batches keeps in one are
// sometimes allocated again; allocation pins of those gathers are skipped
// under -race.
const raceEnabled = true
