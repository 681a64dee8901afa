package antelope

import (
	"bytes"
	"math/rand/v2"
	"testing"

	//lint:ignore SA1019 the reference implementation the step-by-step one is checked against
	xripemd "golang.org/x/crypto/ripemd160"
)

// TestRIPEMD160 checks the runtime's RIPEMD-160 against golang.org/x/crypto
// on every length up to four blocks, written whole and in pieces, and on the
// specification's test vectors.
func TestRIPEMD160(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 260 {
		msg := make([]byte, n)
		for i := range msg {
			msg[i] = byte(rng.Uint32())
		}
		ref := xripemd.New()
		ref.Write(msg)
		want := ref.Sum(nil)
		d := newRMD()
		d.write(msg)
		if got := d.sum(); !bytes.Equal(got[:], want) {
			t.Fatalf("%d bytes: %x, want %x", n, got, want)
		}
		// The checksum of a key or signature text, data then suffix: the
		// one-block path up to 55 bytes, the digest beyond.
		for _, suffix := range []string{"", "K1", "R1", "WA"} {
			ref := xripemd.New()
			ref.Write(msg)
			ref.Write([]byte(suffix))
			if got, want := ripemdChecksum(msg, suffix), ref.Sum(nil)[:4]; !bytes.Equal(got[:], want) {
				t.Fatalf("%d bytes and %q: checksum %x, want %x", n, suffix, got, want)
			}
		}
		cut := rng.IntN(n + 1)
		d = newRMD()
		d.write(msg[:cut])
		d.writeString(string(msg[cut:]))
		if got := d.sum(); !bytes.Equal(got[:], want) {
			t.Fatalf("%d bytes in two writes at %d: %x, want %x", n, cut, got, want)
		}
	}
	for msg, want := range map[string]string{
		"":    "9c1185a5c5e9fc54612808977ee8f548b2258d31",
		"abc": "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc",
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq": "12a053384a9c0c88e405a06c27dcf49ada62eb2b",
	} {
		d := newRMD()
		d.writeString(msg)
		if got := d.sum(); hexString(got[:]) != want {
			t.Errorf("%q: %x, want %s", msg, got, want)
		}
	}
}

func hexString(b []byte) string { return string(appendHex(nil, b)) }
