//go:build !race

package gomlx_test

const raceEnabled = false
