package antelope

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// floatSamples are doubles around every case the fast paths distinguish:
// the edges of their ranges, exact halves at the 17th decimal, values with
// few and many bits after the point, and random bit patterns.
func floatSamples() []float64 {
	vs := []float64{0.1, math.Nextafter(0.1, 0), math.Nextafter(0.1, 1), 0.5, 1, 1.5, 2.5, 0.125,
		0.5 + 0x1p-18, 0.5 + 0x1p-19 + 0x1p-18, 0.75 + 0x1p-20, 1 + 0x1p-52, 0x1p53, 0x1p53 + 2, 0x1p63, 0x1p64,
		math.Nextafter(0x1p64, 0), 0x1p64 - 2048, 9.999999999999999e15, 1e15 + 0.125, 1000000000000000.1,
		0.99999999999999999, 0.09999999999999999, 123456.789, 1e-5, 1e300, math.MaxFloat64, math.SmallestNonzeroFloat64}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 40000 {
		switch rng.IntN(3) {
		case 0: // any double
			vs = append(vs, math.Float64frombits(rng.Uint64()))
		case 1: // the fast path's range, every exponent
			vs = append(vs, math.Ldexp(1+rng.Float64(), rng.IntN(70)-4))
		default: // few bits after the point: halves and exact decimals
			vs = append(vs, float64(rng.Uint64N(1<<40))/float64(uint64(1)<<rng.IntN(40)))
		}
	}
	n := len(vs)
	for _, v := range vs[:n] {
		vs = append(vs, -v)
	}
	return vs
}

// TestAppendFixed17 holds the integer formatter to strconv's 17 fixed
// decimals, and appendFloatJSON to the text it printed before the fast
// path: strconv's fixed form where it reads back, else the shortest.
func TestAppendFixed17(t *testing.T) {
	fast := 0
	for _, v := range floatSamples() {
		want := strconv.AppendFloat(nil, v, 'f', 17, 64)
		if got, ok := appendFixed17(nil, v); ok {
			fast++
			if string(got) != string(want) {
				t.Fatalf("%v (%#x): %s, want %s", v, math.Float64bits(v), got, want)
			}
		} else if a := math.Abs(v); a >= 0.1 && a < 0x1p64 {
			t.Fatalf("%v: no fast path", v)
		}
		for _, bits := range []int{64, 32} {
			x := v
			if bits == 32 {
				x = float64(float32(v))
			}
			if got, want := string(appendFloatJSON(nil, x, bits)), slowFloatJSON(x, bits); got != want {
				t.Fatalf("%v as float%d: %s, want %s", x, bits, got, want)
			}
		}
	}
	if fast < 20000 {
		t.Fatalf("only %d values took the fast path", fast)
	}
}

// slowFloatJSON is appendFloatJSON without the fast path.
func slowFloatJSON(v float64, bits int) string {
	switch {
	case math.IsNaN(v) && math.Signbit(v):
		return `"-nan"`
	case math.IsNaN(v):
		return `"nan"`
	case math.IsInf(v, 1):
		return `"inf"`
	case math.IsInf(v, -1):
		return `"-inf"`
	}
	s := strconv.FormatFloat(v, 'f', 17, 64)
	if back, err := strconv.ParseFloat(s, bits); err != nil || math.Float64bits(back) != math.Float64bits(v) {
		s = strconv.FormatFloat(v, 'g', -1, bits)
	}
	return `"` + s + `"`
}

// TestParseExactFloat holds the exact-decimal reader to strconv on the
// texts doubles print as, in both widths, and on decimals it must refuse
// or read exactly.
func TestParseExactFloat(t *testing.T) {
	fast := 0
	check := func(s string, bits int) {
		got, ok := parseExactFloat([]byte(s), bits)
		if !ok {
			return
		}
		fast++
		want, err := strconv.ParseFloat(s, bits)
		if err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%q as float%d: %v (%#x), want %v (%#x, %v)", s, bits, got, math.Float64bits(got), want, math.Float64bits(want), err)
		}
	}
	for _, v := range floatSamples() {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		for _, s := range []string{strconv.FormatFloat(v, 'f', 17, 64), strconv.FormatFloat(v, 'f', -1, 64),
			strconv.FormatFloat(v, 'g', -1, 64), strconv.FormatFloat(float64(float32(v)), 'f', 17, 64)} {
			check(s, 64)
			check(s, 32)
		}
	}
	for _, s := range []string{"0", "-0", "0.000", "-0.000", "+1.5", ".5", "5.", "1.25", "100", "9999999999999999999",
		"10000000000000000000", "18446744073709551615", "16777217", "16777216", "33554434", "33554433.0",
		"9007199254740993", "9007199254740993.00000000000000000", "0.0001", "123.4500", "1e5", "0x1p3", "1_0", "00.5", "7450580596923828125e-27",
		"1.5e0", "0.00000000000000000000000000000000000000001", "1.", "-", "+", ".", "", "1.2.3"} {
		check(s, 64)
		check(s, 32)
	}
	if fast < 20000 {
		t.Fatalf("only %d texts took the fast path", fast)
	}
}

// TestParseLongFloat holds the reader of long exact texts to strconv on the
// 17-decimal texts of doubles and floats of every magnitude, and checks it
// refuses texts that are not such a text.
func TestParseLongFloat(t *testing.T) {
	read := 0
	for _, v := range floatSamples() {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		for _, bits := range []int{64, 32} {
			x := v
			if bits == 32 {
				x = float64(float32(v))
			}
			for _, s := range []string{strconv.FormatFloat(x, 'f', 17, 64), strconv.FormatFloat(x, 'f', -1, 64)} {
				got, ok := parseLongFloat([]byte(s), bits)
				if !ok {
					continue
				}
				read++
				want, err := strconv.ParseFloat(s, bits)
				if err != nil || math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("%q as float%d: %v, want %v (%v)", s, bits, got, want, err)
				}
			}
		}
	}
	if read < 20000 {
		t.Fatalf("only %d texts read", read)
	}
	for _, s := range []string{"1e400", "123456789012345678901234567890.5", "0.0000000000000000000000000000000001", "abc", "1.2.3", "-"} {
		if v, ok := parseLongFloat([]byte(s), 64); ok {
			if want, _ := strconv.ParseFloat(s, 64); want != v {
				t.Errorf("%q: %v, want %v", s, v, want)
			}
		}
	}
}

// FuzzFloatJSON: a float written and read back through the JSON forms is
// the same float, bit for bit (NaNs stay NaN), and both fast paths agree
// with strconv.
func FuzzFloatJSON(f *testing.F) {
	f.Add(uint64(0x3fb999999999999a), "1000000000000000.12500000000000000")
	f.Add(uint64(0x4330000000000001), "0.5")
	f.Fuzz(func(t *testing.T, bits uint64, text string) {
		v := math.Float64frombits(bits)
		out := AppendFloat64JSON(nil, v)
		r := NewJSONReader(out)
		back, err := r.Float64()
		if err != nil || !(math.Float64bits(back) == bits || math.IsNaN(v) && math.IsNaN(back)) {
			t.Fatalf("%v printed %s, read back %v (%v)", v, out, back, err)
		}
		if got, want := string(out), slowFloatJSON(v, 64); got != want {
			t.Fatalf("%v: %s, want %s", v, got, want)
		}
		for _, width := range []int{64, 32} {
			if got, ok := parseExactFloat([]byte(text), width); ok {
				want, err := strconv.ParseFloat(text, width)
				if err != nil || math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("%q as float%d: %v, want %v (%v)", text, width, got, want, err)
				}
			}
		}
	})
}

// randomDecimal is a decimal text of the kinds JSON carries: up to 22
// integer digits, often a fraction of up to 30 digits with runs of zeros,
// sometimes an exponent, sometimes negative.
func randomDecimal(rng *rand.Rand) string {
	var b []byte
	if rng.IntN(3) == 0 {
		b = append(b, '-')
	}
	if n := rng.IntN(22); n == 0 {
		b = append(b, '0')
	} else {
		b = append(b, byte('1'+rng.IntN(9)))
		for range n - 1 {
			b = append(b, byte('0'+rng.IntN(10)))
		}
	}
	if rng.IntN(4) != 0 {
		b = append(b, '.')
		for range 1 + rng.IntN(30) {
			if rng.IntN(3) == 0 {
				b = append(b, '0')
			} else {
				b = append(b, byte('0'+rng.IntN(10)))
			}
		}
	}
	if rng.IntN(8) == 0 {
		b = append(b, 'e')
		b = strconv.AppendInt(b, int64(rng.IntN(700)-350), 10)
	}
	return string(b)
}

// TestFloatReaderMatchesStrconv holds Float64 and Float32, with both fast
// paths, to strconv.ParseFloat on random decimal texts (not only the texts
// doubles print as), given as JSON numbers and as strings: the same value
// bit for bit, or an error exactly where strconv overflows.
func TestFloatReaderMatchesStrconv(t *testing.T) {
	rng := rand.New(rand.NewPCG(77, 78))
	texts := []string{"0", "-0", "0.0", "-0.0", "4.9e-324", "5e-324", "2e-324", "1e-400", "-1e-400", "2.2250738585072011e-308",
		"2.2250738585072014e-308", "1.7976931348623157e308", "1.7976931348623159e308", "1e309", "3.4028235e38", "3.4028236e38",
		"1.4e-45", "7e-46", "9007199254740993", "9007199254740992.5", "9007199254740993.0000000000000000001", "16777217",
		"16777216.999999999999999999", "0.1", "1e23", "8.988465674311579e307", "100000000000000000000000", "1000000000000000000000000000"}
	for range 200000 {
		texts = append(texts, randomDecimal(rng))
	}
	for _, s := range texts {
		for _, bits := range []int{64, 32} {
			want, werr := strconv.ParseFloat(s, bits)
			if ne, ok := werr.(*strconv.NumError); ok && ne.Err == strconv.ErrRange && !math.IsInf(want, 0) {
				werr = nil // underflow: the reader takes the zero or denormal
			}
			for _, js := range []string{s, `"` + s + `"`} {
				r := NewJSONReader([]byte(js))
				got, err := r.float("float", bits)
				if (err == nil) != (werr == nil) || err == nil && math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("%s as float%d: %v (%v), want %v (%v)", js, bits, got, err, want, werr)
				}
			}
		}
	}
}
