//go:build !race

package mirror

const raceOn = false
