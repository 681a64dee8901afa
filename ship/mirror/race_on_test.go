//go:build race

package mirror

// raceOn: the race detector slows every statement; the random tests run
// fewer rounds by default.
const raceOn = true
