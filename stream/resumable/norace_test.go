//go:build !race

package resumable_test

const raceEnabled = false
