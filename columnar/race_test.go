//go:build race

package columnar_test

// raceEnabled: the race detector makes sync.Pool drop items at random, so
// the index lists a gather over several chunks keeps in one are sometimes allocated
// again; allocation pins of gathers over several chunks are skipped under
// -race.
const raceEnabled = true
