//go:build race

package ship

// raceEnabled: the race detector slows the model-checked sweep tenfold.
const raceEnabled = true
