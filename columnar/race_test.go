//go:build race

package columnar_test

// raceEnabled: the race detector makes sync.Pool drop items at random, so
// the index lists a mapped gather keeps in one are sometimes allocated
// again; allocation pins of those gathers are skipped under -race.
const raceEnabled = true
