//go:build !race

package docs_test

const raceEnabled = false
