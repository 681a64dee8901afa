//go:build race

package chain_test

// raceEnabled trims the exhaustive pagination matrix under the race
// detector (which slows every request sixfold); CI runs the whole matrix
// without it too.
const raceEnabled = true
