//go:build !race

package turbo_test

const raceEnabled = false
