//go:build !race

package arrowipc_test

const raceEnabled = false
