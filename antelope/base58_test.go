package antelope

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// base58Schoolbook is the textbook algorithm, one digit per byte at a time:
// the reference base58Encode is checked against.
func base58Schoolbook(data []byte) []byte {
	zeros := 0
	for zeros < len(data) && data[zeros] == 0 {
		zeros++
	}
	var digits []byte
	for _, c := range data[zeros:] {
		carry := int(c)
		for i := range digits {
			carry += int(digits[i]) << 8
			digits[i] = byte(carry % 58)
			carry /= 58
		}
		for carry > 0 {
			digits = append(digits, byte(carry%58))
			carry /= 58
		}
	}
	out := bytes.Repeat([]byte{'1'}, zeros)
	for i := len(digits) - 1; i >= 0; i-- {
		out = append(out, base58Alphabet[digits[i]])
	}
	return out
}

func TestBase58EncodeMatchesSchoolbook(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := [][]byte{nil, {0}, {0, 0}, {0, 0, 1}, {255}, {1, 0, 0, 0}, bytes.Repeat([]byte{255}, 80), make([]byte, 70)}
	for range 5000 {
		n := rng.IntN(90)
		in := make([]byte, n)
		for i := range in {
			in[i] = byte(rng.Uint32())
			if rng.IntN(4) == 0 {
				in[i] = 0 // runs of zeros inside and at the front
			}
		}
		inputs = append(inputs, in)
	}
	for _, in := range inputs {
		want := base58Schoolbook(in)
		got := base58Encode(nil, in)
		if !bytes.Equal(got, want) {
			t.Fatalf("%x: got %s, want %s", in, got, want)
		}
		if back, ok := base58Decode(nil, got); !ok || !bytes.Equal(back, in) {
			t.Fatalf("%x: decodes back as %x, %v", in, back, ok)
		}
	}
}
