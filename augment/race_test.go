//go:build race

package augment

// raceEnabled: the race detector makes sync.Pool drop items at random, so the
// pipeline's scratch is sometimes allocated again; allocation pins skip under
// -race.
const raceEnabled = true
