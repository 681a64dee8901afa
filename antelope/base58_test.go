package antelope

import (
	"bytes"
	"math/big"
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

// TestBase58DecodeMatchesBig holds base58Decode to math/big on random
// texts of every length the key and signature forms use and beyond, with
// runs of leading and inner '1's (zero digits), and checks that encoding
// the bytes gives the text back; characters outside the alphabet are
// refused.
func TestBase58DecodeMatchesBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(81, 82))
	texts := [][]byte{{}, []byte("1"), []byte("111"), []byte("z"), []byte("1z"), bytes.Repeat([]byte("z"), 200)}
	for range 20000 {
		s := make([]byte, rng.IntN(160))
		for i := range s {
			s[i] = base58Alphabet[rng.IntN(58)]
			if rng.IntN(8) == 0 {
				s[i] = '1'
			}
		}
		texts = append(texts, s)
	}
	for _, s := range texts {
		zeros := 0
		for zeros < len(s) && s[zeros] == '1' {
			zeros++
		}
		x := new(big.Int)
		for _, c := range s[zeros:] {
			x.Mul(x, big.NewInt(58))
			x.Add(x, big.NewInt(int64(bytes.IndexByte([]byte(base58Alphabet), c))))
		}
		want := append(make([]byte, zeros), x.Bytes()...)
		got, ok := base58Decode(nil, s)
		if !ok || !bytes.Equal(got, want) {
			t.Fatalf("%s: %x %v, want %x", s, got, ok, want)
		}
		if back := base58Encode(nil, want); !bytes.Equal(back, s) {
			t.Fatalf("%x encodes as %s, want %s", want, back, s)
		}
	}
	for _, bad := range []string{"0", "O", "I", "l", "abc+", "ab c", "é"} {
		if _, ok := base58Decode(nil, []byte(bad)); ok {
			t.Errorf("%q decoded", bad)
		}
	}
}

// base58BigDecode is base58Decode by math/big: the leading '1's as zero
// bytes, then the number's bytes; false for a character outside the
// alphabet.
func base58BigDecode(s []byte) ([]byte, bool) {
	zeros := 0
	for zeros < len(s) && s[zeros] == '1' {
		zeros++
	}
	x := new(big.Int)
	for _, c := range s[zeros:] {
		v := bytes.IndexByte([]byte(base58Alphabet), c)
		if v < 0 {
			return nil, false
		}
		x.Mul(x, big.NewInt(58))
		x.Add(x, big.NewInt(int64(v)))
	}
	return append(make([]byte, zeros), x.Bytes()...), true
}

// FuzzBase58: base58Decode agrees with math/big on any text (the 64-bit
// limb conversion is what every key and signature text goes through), and
// what decodes encodes back to the same text, as does the schoolbook
// encoder on any bytes.
func FuzzBase58(f *testing.F) {
	for _, s := range []string{"", "1", "11z", "6RrvujLQN1x5Tacbep1KAk8zzKpSThAQXBCKYFfGUYeABhJRin", "0OIl", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		if len(s) > 160 {
			return // the conversion is quadratic; keys and signatures are far shorter
		}
		got, ok := base58Decode(nil, s)
		want, wantOK := base58BigDecode(s)
		if ok != wantOK || !bytes.Equal(got, want) {
			t.Fatalf("%q: %x %v, want %x %v", s, got, ok, want, wantOK)
		}
		if ok {
			if back := base58Encode(nil, got); !bytes.Equal(back, s) {
				t.Fatalf("%x encodes as %s, want %s", got, back, s)
			}
		}
		if enc, want := base58Encode(nil, s), base58Schoolbook(s); !bytes.Equal(enc, want) {
			t.Fatalf("%x encodes as %s, want %s", s, enc, want)
		}
	})
}
