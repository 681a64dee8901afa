package antelope

import (
	"math/rand/v2"
	"testing"
)

// TestPlainRun holds the eight-bytes-at-a-time scan to the byte loop, on
// text where quotes, backslashes, control characters and UTF-8 bytes fall
// at every position.
func TestPlainRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	special := []byte{'"', '\\', 0, 0x1f, 0x20, 0x21, 0x7f, 0x80, 0xff, 'a', 0xe2}
	for range 20000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = 'a' + byte(rng.IntN(26))
			if rng.IntN(12) == 0 {
				b[i] = special[rng.IntN(len(special))]
			}
		}
		start := 0
		if len(b) > 0 {
			start = rng.IntN(len(b) + 1)
		}
		want := start
		for want < len(b) && b[want] != '"' && b[want] != '\\' && b[want] >= 0x20 {
			want++
		}
		if got := plainRun(b, start); got != want {
			t.Fatalf("%q from %d: %d, want %d", b, start, got, want)
		}
	}
}
