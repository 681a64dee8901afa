package antelope

import (
	"bytes"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// putEightDigits against a decimal counter: every 13th value below 10^8,
// an odd step that lands on every last digit and carry pattern; with
// EIGHT_DIGITS_ALL=1 every value (the lanes share one 64-bit product, so
// edges alone prove little): a second, ten under -race.
func TestEightDigitsEveryValue(t *testing.T) {
	step := uint32(13)
	if os.Getenv("EIGHT_DIGITS_ALL") == "1" {
		step = 1
	}
	counter := []byte("00000000")
	var got [8]byte
	for v := uint32(0); v < 1e8; v += step {
		putEightDigits(got[:], v)
		if !bytes.Equal(got[:], counter) {
			t.Fatalf("putEightDigits(%d) = %q, want %q", v, got[:], counter)
		}
		carry := step // the counter plus step, digit by digit
		for i := 7; i >= 0 && carry > 0; i-- {
			d := uint32(counter[i]-'0') + carry
			counter[i], carry = byte('0'+d%10), d/10
		}
	}
}

// appendFixed17 against strconv where it is hardest: every binade of its
// range with the mantissa's edges, values whose 17th decimal is exactly
// half way (f = odd·2^(k-18) after the point: strconv rounds half to
// even), the largest fraction each binade holds, and the range's bounds.
func TestAppendFixed17EveryBinadeAndTie(t *testing.T) {
	check := func(v float64) {
		for _, x := range []float64{v, -v} {
			got, ok := appendFixed17([]byte("x"), x)
			a := math.Abs(x)
			if want := a >= 0.1 && a < 0x1p64; ok != want {
				t.Fatalf("%v (%#x): fast path %v", x, math.Float64bits(x), ok)
			}
			if !ok {
				if string(got) != "x" {
					t.Fatalf("%v: b changed to %q", x, got)
				}
				continue
			}
			if want := "x" + strconv.FormatFloat(x, 'f', 17, 64); string(got) != want {
				t.Fatalf("%v (%#x): %s, want %s", x, math.Float64bits(x), got, want)
			}
		}
	}
	r := rand.New(rand.NewPCG(13, 13))
	const top = 1<<53 - 1
	for exp := -60; exp <= 12; exp++ { // v = mant·2^exp
		for _, m := range []uint64{1 << 52, 1<<52 + 1, top, top - 1, 3 << 51, 1<<52 | 1<<26} {
			check(math.Ldexp(float64(m), exp))
		}
		for range 300 {
			check(math.Ldexp(float64(1<<52|r.Uint64N(1<<52)), exp))
		}
		k := -exp
		if k >= 18 && k <= 56 {
			for range 300 { // ties at the 17th decimal
				f := (r.Uint64N(1<<17)<<1 | 1) << (k - 18) & (1<<k - 1)
				m := f | r.Uint64N(1<<53)&^(1<<k-1)
				m |= 1 << 52
				check(math.Ldexp(float64(m), exp))
			}
		}
	}
	for _, v := range []float64{0.1, math.Nextafter(0.1, 0), math.Nextafter(0.1, 1), 0x1p64, math.Nextafter(0x1p64, 0),
		0x1p-4, math.Nextafter(0x1p-4, 1), math.Nextafter(1, 0), math.Nextafter(2, 0), 0.25, 0.3, 0.7} {
		check(v)
	}
	for e := -2; e <= 20; e++ { // powers of ten and their neighbours
		p := math.Pow(10, float64(e))
		check(p)
		check(math.Nextafter(p, 0))
		check(math.Nextafter(p, math.Inf(1)))
	}
	for e := -4; e <= 64; e++ { // powers of two and their neighbours
		p := math.Ldexp(1, e)
		check(p)
		check(math.Nextafter(p, 0))
		check(math.Nextafter(p, math.Inf(1)))
	}
	for _, v := range []float64{0, math.SmallestNonzeroFloat64, 0x1p-1022, math.Nextafter(0x1p-1022, 0), 1e-300, math.MaxFloat64, 0x1p65} {
		check(v)
	}
}

// base58Encode against math/big: every input length from 0 to 80 (the
// table path ends at 72 bytes, the long path starts after it) with
// all-0xff, a single 1 bit at each place, leading zero bytes, and random
// bytes; each output decodes back.
func TestBase58EncodeEveryLengthAgainstBig(t *testing.T) {
	bigEncode := func(in []byte) string {
		zeros := 0
		for zeros < len(in) && in[zeros] == 0 {
			zeros++
		}
		n := new(big.Int).SetBytes(in)
		var digits []byte
		fifty8, mod := big.NewInt(58), new(big.Int)
		for n.Sign() > 0 {
			n.DivMod(n, fifty8, mod)
			digits = append(digits, base58Alphabet[mod.Int64()])
		}
		out := bytes.Repeat([]byte{'1'}, zeros)
		for i := len(digits) - 1; i >= 0; i-- {
			out = append(out, digits[i])
		}
		return string(out)
	}
	check := func(in []byte) {
		got := base58Encode([]byte("x"), in)
		if want := "x" + bigEncode(in); string(got) != want {
			t.Fatalf("%x: %s, want %s", in, got, want)
		}
		if back, ok := base58Decode(nil, got[1:]); !ok || !bytes.Equal(back, in) {
			t.Fatalf("%x: decodes back as %x, %v", in, back, ok)
		}
	}
	r := rand.New(rand.NewPCG(58, 58))
	for n := 0; n <= 80; n++ {
		check(bytes.Repeat([]byte{0xff}, n))
		check(make([]byte, n))
		for z := 0; z <= n; z++ {
			in := bytes.Repeat([]byte{0xff}, n)
			clear(in[:z])
			check(in)
		}
		for bit := 0; bit < 8*n; bit++ {
			in := make([]byte, n)
			in[bit/8] = 1 << (bit % 8)
			check(in)
			in[n-1] |= 0xff
			check(in)
		}
		for range 200 {
			in := make([]byte, n)
			for i := range in {
				switch r.IntN(4) {
				case 0:
				case 1:
					in[i] = 0xff
				default:
					in[i] = byte(r.Uint32())
				}
			}
			check(in)
		}
	}
}
