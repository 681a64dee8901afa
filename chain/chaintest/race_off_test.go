//go:build !race

package chaintest_test

const raceEnabled = false
