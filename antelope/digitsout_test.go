package antelope

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// putEightDigits writes what fmt's %08d writes, for every value of a sweep
// over each digit place and random values; appendUint what strconv does,
// at every length and at the edges of each eight-digit chunk.
func TestEightDigitsAsStrconv(t *testing.T) {
	check := func(v uint32) {
		var got [8]byte
		putEightDigits(got[:], v)
		if want := fmt.Sprintf("%08d", v); string(got[:]) != want {
			t.Fatalf("putEightDigits(%d) = %q, want %q", v, got[:], want)
		}
	}
	for v := uint32(0); v < 100000; v++ {
		check(v)
	}
	r := rand.New(rand.NewPCG(8, 8))
	for range 200000 {
		check(r.Uint32N(1e8))
	}
	for p := uint32(1); p < 1e8; p *= 10 {
		check(p - 1)
		check(p)
		check(1e8 - p)
	}
	checkU := func(u uint64) {
		if got, want := string(appendUint([]byte("x"), u)), "x"+strconv.FormatUint(u, 10); got != want {
			t.Fatalf("appendUint(%d) = %q, want %q", u, got, want)
		}
	}
	for p := uint64(1); p < math.MaxUint64/10; p *= 10 {
		for _, d := range []uint64{0, 1, 2, 99, 1e8 - 1, 1e8, 1e8 + 1} {
			checkU(p + d)
			checkU(p - 1 - min(d, p-1))
		}
	}
	checkU(0)
	checkU(math.MaxUint64)
	for range 200000 {
		checkU(r.Uint64() >> r.IntN(64))
	}
}
