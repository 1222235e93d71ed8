//go:build race

package imagedata

// raceEnabled: the race detector makes sync.Pool drop items at random, so
// buffers kept in one are sometimes allocated again; allocation pins skip
// under -race.
const raceEnabled = true
