package antelope

import "testing"

// TestNonceDRBGDoesNotAllocate: the DRBG's HMACs hash from its own scratch
// space; before, each of a signature's dozen HMACs moved its pad, its
// separator and its results to the heap (43 allocations a transaction).
func TestNonceDRBGDoesNotAllocate(t *testing.T) {
	var secret, digest [32]byte
	secret[0], digest[0] = 1, 2
	g := newNonceDRBG(&secret, &digest, 0)
	allocs := testing.AllocsPerRun(100, func() {
		g.reset(&secret, &digest, 1)
		g.generate()
		g.generate()
	})
	if allocs != 0 {
		t.Errorf("reset and two generates allocate %v times, want 0", allocs)
	}
}
