//go:build !race

package ship

const raceEnabled = false
