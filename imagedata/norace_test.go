//go:build !race

package imagedata

const raceEnabled = false
