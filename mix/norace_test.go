//go:build !race

package mix_test

const raceEnabled = false
