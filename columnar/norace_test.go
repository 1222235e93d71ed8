//go:build !race

package columnar_test

const raceEnabled = false
