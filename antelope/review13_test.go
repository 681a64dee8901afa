package antelope

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
)

// An adversary's review of the one-pass asset string (parseAssetQuoted in
// Asset.DecodeJSON) and of digitsAt: Asset.DecodeJSON and ParseAsset
// against their code just before (commit 7c29897), copied below as the
// oracle — the same value, the same error text, and the reader left in the
// same state, so that whatever is read next reads the same.

// oldParseAssetFast is parseAssetFast as of 7c29897.
func oldParseAssetFast(s []byte, start, end int) (Asset, bool) {
	if start < 0 || end > len(s) || start >= end {
		return Asset{}, false
	}
	i := start
	neg := s[i] == '-'
	if neg {
		i++
	}
	intEnd := oldDigitRun(s, i, end)
	if intEnd == i || intEnd-i > 19 {
		return Asset{}, false
	}
	mag := oldDigitsValue(s, i, intEnd)
	fracEnd, precision := intEnd, 0
	if intEnd < end && s[intEnd] == '.' {
		fracEnd = oldDigitRun(s, intEnd+1, end)
		precision = fracEnd - intEnd - 1
		if precision == 0 || precision > MaxPrecision || intEnd-i+precision > 19 {
			return Asset{}, false
		}
		mag = mag*pow10u64[precision] + oldDigitsValue(s, intEnd+1, fracEnd)
	}
	if mag > MaxAssetAmount || fracEnd >= end || s[fracEnd] != ' ' {
		return Asset{}, false
	}
	code, ok := symbolCodeLetters(s, fracEnd+1, end)
	if !ok {
		return Asset{}, false
	}
	amount := int64(mag)
	if neg {
		amount = -amount
	}
	return Asset{Amount: amount, Symbol: Symbol{Precision: uint8(precision), Code: code}}, true
}

// oldDigitRun is digitRun as of 7c29897.
func oldDigitRun(s []byte, i, end int) int {
	for ; i+8 <= len(s) && i < end; i += 8 {
		w := binary.LittleEndian.Uint64(s[i:])
		m := (w&(0xf0*bytesOf1) ^ 0x30*bytesOf1) | ((w+6*bytesOf1)&(0xf0*bytesOf1) ^ 0x30*bytesOf1)
		if end-i < 8 {
			m |= ^uint64(0) << (8 * (end - i))
		}
		if m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < end && s[i]-'0' < 10; i++ {
	}
	return i
}

// oldDigitsValue is digitsValue as of 7c29897: the value of the 1–19
// digits s[i:j].
func oldDigitsValue(s []byte, i, j int) uint64 {
	var v uint64
	for ; j-i > 8; i += 8 {
		v = v*1e8 + eightDigits(binary.LittleEndian.Uint64(s[i:])-0x30*bytesOf1)
	}
	n := j - i
	var w uint64
	if i+8 <= len(s) {
		w = binary.LittleEndian.Uint64(s[i:])
	} else {
		var pad [8]byte
		copy(pad[:], s[i:j])
		w = binary.LittleEndian.Uint64(pad[:])
	}
	w = (w - 0x30*bytesOf1) << (8 * (8 - n) & 63)
	return v*pow10u64[n&15] + eightDigits(w)
}

// assetOld decodes as Asset.DecodeJSON did at 7c29897: the string scanned
// to its end first, then read in place by the fast path or unescaped by
// the general one.
type assetOld struct{ a Asset }

func (b *assetOld) DecodeJSON(r *JSONReader) error {
	if r.Peek() != JSONString {
		return r.unexpected("a string")
	}
	start := r.pos + 1
	t, err := r.stringBytes()
	if err != nil {
		return err
	}
	if end := r.pos - 1; end-start == len(t) {
		if v, ok := oldParseAssetFast(r.data, start, end); ok {
			b.a = v
			return nil
		}
	}
	v, err := parseAssetText(t)
	if err == nil {
		b.a = v
	}
	return err
}

// sameReaderState fails unless both readers are in the same state: every
// field a read can change.
func sameReaderState(t *testing.T, data []byte, what string, got, want *JSONReader) {
	t.Helper()
	if got.pos != want.pos || got.depth != want.depth || got.first != want.first ||
		string(got.scratch) != string(want.scratch) || cap(got.scratch) != cap(want.scratch) {
		t.Fatalf("%q %s: reader at %d depth %d first %v scratch %q (cap %d); before %d %d %v %q (cap %d)",
			data, what, got.pos, got.depth, got.first, got.scratch, cap(got.scratch),
			want.pos, want.depth, want.first, want.scratch, cap(want.scratch))
	}
}

// sentinelAsset is the value a destination holds before a read: an error
// must leave it as it is, in both versions.
var sentinelAsset = Asset{Amount: -7, Symbol: Symbol{Precision: 3, Code: SymbolCode('Q')}}

// checkAssetDecodeAsOld reads data with Asset.DecodeJSON and with its
// code of 7c29897, as up to three values in a row (what the next read
// sees after a success or a failure), then as an array of assets and
// as the rest of the input; each step must give the same value, the same
// error text and the same reader state.
func checkAssetDecodeAsOld(t *testing.T, data []byte) {
	t.Helper()
	var rn, ro JSONReader
	rn.Reset(data)
	ro.Reset(data)
	for step := range 3 {
		got, want := sentinelAsset, assetOld{sentinelAsset}
		err, wantErr := got.DecodeJSON(&rn), want.DecodeJSON(&ro)
		if errText(err) != errText(wantErr) || got != want.a {
			t.Fatalf("%q, value %d: reads %+v, %v; at 7c29897 %+v, %v", data, step, got, err, want.a, wantErr)
		}
		sameReaderState(t, data, "after a value", &rn, &ro)
		if rn.Peek() != ro.Peek() {
			t.Fatalf("%q: next value a %v; at 7c29897 a %v", data, rn.Peek(), ro.Peek())
		}
		if err != nil {
			break
		}
	}
	s, err := rn.String()
	wantS, wantErr := ro.String()
	if s != wantS || errText(err) != errText(wantErr) {
		t.Fatalf("%q: the next string %q, %v; at 7c29897 %q, %v", data, s, err, wantS, wantErr)
	}
	sameReaderState(t, data, "after the next string", &rn, &ro)
	if err, wantErr := rn.Finish(), ro.Finish(); errText(err) != errText(wantErr) {
		t.Fatalf("%q: Finish %v; at 7c29897 %v", data, err, wantErr)
	}

	// As an array: every element, with BeginArray and NextElement between.
	rn.Reset(data)
	ro.Reset(data)
	if err, wantErr := rn.BeginArray(), ro.BeginArray(); errText(err) != errText(wantErr) || err != nil {
		return
	}
	for i := 0; ; i++ {
		more, err := rn.NextElement()
		wantMore, wantErr := ro.NextElement()
		if more != wantMore || errText(err) != errText(wantErr) {
			t.Fatalf("%q, element %d: more %v, %v; at 7c29897 %v, %v", data, i, more, err, wantMore, wantErr)
		}
		sameReaderState(t, data, "after NextElement", &rn, &ro)
		if !more || err != nil {
			break
		}
		got, want := sentinelAsset, assetOld{sentinelAsset}
		err, wantErr = got.DecodeJSON(&rn), want.DecodeJSON(&ro)
		if errText(err) != errText(wantErr) || got != want.a {
			t.Fatalf("%q, element %d: reads %+v, %v; at 7c29897 %+v, %v", data, i, got, err, want.a, wantErr)
		}
		sameReaderState(t, data, "after an element", &rn, &ro)
		if err != nil {
			break
		}
	}
	if err, wantErr := rn.Finish(), ro.Finish(); errText(err) != errText(wantErr) {
		t.Fatalf("%q as an array: Finish %v; at 7c29897 %v", data, err, wantErr)
	}
}

// checkParseAssetAsOld: ParseAsset of s, in a buffer of exactly its
// length, as at 7c29897.
func checkParseAssetAsOld(t *testing.T, s string) {
	t.Helper()
	got, err := ParseAsset(s)
	want, ok := oldParseAssetFast([]byte(s), 0, len(s))
	var wantErr error
	if !ok {
		want, wantErr = parseAssetText([]byte(s))
	}
	if got != want || errText(err) != errText(wantErr) {
		t.Fatalf("ParseAsset(%q) = %+v, %v; at 7c29897 %+v, %v", s, got, err, want, wantErr)
	}
}

// randAssetModel is an asset's JSON string as the model builds it, piece
// by piece, each piece near what the fast path takes or just beyond it:
// digit runs of 0 to 25, signs, a point, separators, codes of 0 to 9
// bytes (capitals, lowercase, digits, bytes ≥ 0x80, escapes), a closing
// quote that may be missing or escaped, and a tail after it.
func randAssetModel(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString([]string{"", "", " ", "\t\n ", "        "}[r.IntN(5)])
	if r.IntN(20) != 0 {
		b.WriteByte('"')
	}
	b.WriteString([]string{"", "", "", "-", "-", "+", "--", " ", `\u002d`}[r.IntN(9)])
	digits := func(n int) {
		for range n {
			if r.IntN(3) == 0 {
				b.WriteByte('9')
			} else {
				b.WriteByte('0' + byte(r.IntN(10)))
			}
		}
	}
	digits(r.IntN(26))
	if r.IntN(2) == 0 {
		b.WriteString([]string{".", ".", ".", "..", `\u002e`, ","}[r.IntN(6)])
		digits(r.IntN(26))
	}
	b.WriteString([]string{" ", " ", " ", " ", "", "  ", "\t", `\u0020`, "\x00", "A"}[r.IntN(10)])
	const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQRSTUVWXYZaz09@[ .-\xc3\x80\xff"
	for range r.IntN(10) {
		switch r.IntN(30) {
		case 0:
			b.WriteString(`\u0041`)
		case 1:
			b.WriteString(`\"`)
		case 2:
			b.WriteString(`\\`)
		default:
			b.WriteByte(letters[r.IntN(len(letters))])
		}
	}
	b.WriteString([]string{`"`, `"`, `"`, `"`, "", `\"`, `\"\"`, ` "`, `""`}[r.IntN(9)])
	switch r.IntN(4) {
	case 0:
	case 1:
		b.WriteString(randNeighbour(r))
	default:
		b.WriteString([]string{",", ", ", `"9 A"`, ` "1.0000 SYS"`, "12345678", "ABCDEFGH", `\u0041"`}[r.IntN(7)])
	}
	return b.String()
}

// Random model inputs, each cut at every position, in a buffer of exactly
// its length (a load past the end panics), alone and as array elements.
func TestAssetDecodeAsOldModel(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 2))
	n := 20000
	if testing.Short() {
		n = 2500
	}
	for range n {
		s := randAssetModel(r)
		for k := 0; k <= len(s); k++ {
			checkAssetDecodeAsOld(t, []byte(s[:k]))
		}
		two := "[" + s + "," + randAssetModel(r) + "]"
		checkAssetDecodeAsOld(t, []byte(two))
		text := strings.TrimSpace(s)
		text = strings.TrimPrefix(text, `"`)
		if i := strings.IndexByte(text, '"'); i >= 0 {
			text = text[:i]
		}
		for k := 0; k <= len(text); k++ {
			checkParseAssetAsOld(t, text[k:])
			checkParseAssetAsOld(t, text[:k])
		}
	}
}

// Integer and fraction digit runs of every length from 0 to 25, the string
// at every offset modulo eight (leading spaces; in -short two of them: the
// loads start at the digits, not at aligned addresses) and at every
// distance from the input's end (tails of 0 to 9 bytes, and every cut).
func TestAssetDecodeAsOldEveryDigitRun(t *testing.T) {
	const digits = "9223372036854775807123456"
	tails := []string{"", `"`, `""`, "9", "99999999", ",", "]", "A", " ", `1 A"`}
	for intLen := 0; intLen <= 25; intLen++ {
		for fracLen := -1; fracLen <= 25; fracLen++ {
			amount := digits[:intLen]
			if fracLen >= 0 {
				amount += "." + digits[25-fracLen:]
			}
			for _, sign := range []string{"", "-"} {
				for _, code := range []string{"SYS", "ABCDEFG", "ABCDEFGH", "Z"} {
					text := sign + amount + " " + code
					checkParseAssetAsOld(t, text)
					for pad := range 8 {
						if testing.Short() && pad != 0 && pad != 5 {
							continue
						}
						q := strings.Repeat(" ", pad) + `"` + text
						for _, tail := range tails {
							checkAssetDecodeAsOld(t, []byte(q+tail))
						}
						// The longest code's cuts hold every other's.
						if !testing.Short() || pad == 0 && code == "ABCDEFGH" {
							for k := 0; k < len(q); k++ {
								checkAssetDecodeAsOld(t, []byte(q[:k]))
							}
						}
					}
				}
			}
		}
	}
}

// digitsAt against digitRun and digitsValue of 7c29897, for every start
// and end in buffers of every length to 40 (exactly that long), digits
// broken by a byte that is a digit's neighbour in the +6 test's eyes.
func TestDigitsAtAsOld(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 3))
	nonDigits := []byte{'/', ':', '?', '@', 0x2f, 0x3a, 0x3f, 0xfa, 0xff, 0x00, 0x20, 0x29, 0x40, 0xb0, 0xb9}
	for size := 0; size <= 40; size++ {
		for range 40 {
			b := make([]byte, size)
			for i := range b {
				if r.IntN(10) == 0 {
					b[i] = nonDigits[r.IntN(len(nonDigits))]
				} else {
					b[i] = '0' + byte(r.IntN(10))
				}
			}
			for from := 0; from <= size; from++ {
				for end := from; end <= size; end++ {
					j, v := digitsAt(b, from, end)
					wantJ := oldDigitRun(b, from, end)
					if j != wantJ {
						t.Fatalf("digitsAt(%q, %d, %d) = %d; digitRun %d", b, from, end, j, wantJ)
					}
					if n := j - from; n >= 1 && n <= 19 {
						if want := oldDigitsValue(b, from, j); v != want {
							t.Fatalf("digitsAt(%q, %d, %d) = %d; digitsValue %d", b, from, end, v, want)
						}
					}
				}
			}
		}
	}
}

func FuzzAssetDecodeAsOld(f *testing.F) {
	for _, s := range []string{`"1.0000 SYS"`, `"1 A`, `"1 A"`, ` "-0.000000000000000001 Z" `,
		`["1 SYS","ABC"]`, `"1 \u0041"`, `"1 A\"`, `"99999999999999999999 A"`, `"1 ABCDEFGH"`,
		`["4611686018427387903 ABCDEFG",  "1 a"]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAssetDecodeAsOld(t, data)
		text := string(data)
		if len(text) > 0 && text[0] == '"' {
			text = text[1:]
		}
		if i := strings.IndexByte(text, '"'); i >= 0 {
			text = text[:i]
		}
		checkParseAssetAsOld(t, text)
	})
}

// Every string of up to 4 bytes (6 without -short) over the bytes that
// steer the one-pass read — a quote and a backslash among them — after an
// opening quote, then after a canonical amount and space, so that the
// bytes fall on the code, its end and what follows it.
func TestAssetDecodeAsOldEveryShortString(t *testing.T) {
	maxLen := 4
	if !testing.Short() {
		maxLen = 6
	}
	const alphabet = "\"\\90-. Aa\x80"
	var b []byte
	var walk func()
	walk = func() {
		for _, head := range []string{`"`, `"1 `, `"-1.5 ZZZZZ`} {
			checkAssetDecodeAsOld(t, []byte(head+string(b)))
		}
		if len(b) == maxLen {
			return
		}
		for i := range len(alphabet) {
			b = append(b, alphabet[i])
			walk()
			b = b[:len(b)-1]
		}
	}
	walk()
}
