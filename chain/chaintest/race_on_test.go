//go:build race

package chaintest_test

// raceEnabled shortens the differential test under the race detector
// (which slows each transaction sixfold); the run without it does all the
// steps.
const raceEnabled = true
