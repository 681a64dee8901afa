package antelope

import (
	"bytes"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The fast paths of parseName, decodeHex and the integer readers must give
// what the plain code they replaced gave, byte for byte and error for
// error. The plain code is kept here, as it was, and both are run on random
// texts: valid ones, their mutations with bytes of every class, and the
// boundaries (13-character names, 2^64-1 and 2^64, leading zeros, signs).

// oldNameCharValue and oldParseName are parseName as it was before its
// lookup table.
func oldNameCharValue(c byte) (uint64, bool) {
	switch {
	case c == '.':
		return 0, true
	case c >= '1' && c <= '5':
		return uint64(c-'1') + 1, true
	case c >= 'a' && c <= 'z':
		return uint64(c-'a') + 6, true
	}
	return 0, false
}

func oldParseName(s []byte) (Name, error) {
	if len(s) > 13 {
		return 0, valueErr("name", string(s), "longer than 13 characters")
	}
	var v uint64
	for i, c := range s {
		cv, ok := oldNameCharValue(c)
		if !ok {
			return 0, valueErr("name", string(s), "character "+quoteByte(c)+" is not in .12345abcdefghijklmnopqrstuvwxyz")
		}
		if i < 12 {
			v |= cv << (64 - 5*(i+1))
		} else {
			if cv > 0x0f {
				return 0, valueErr("name", string(s), "13th character must be one of .12345abcdefghij")
			}
			v |= cv
		}
	}
	if len(s) > 0 && s[len(s)-1] == '.' {
		return 0, valueErr("name", string(s), "trailing dots are not allowed")
	}
	return Name(v), nil
}

// oldNameDecodeJSON is Name.DecodeJSON as it was before it read the usual
// name in one pass.
func oldNameDecodeJSON(n *Name, r *JSONReader) error {
	t, err := r.StringBytes()
	if err != nil {
		return err
	}
	*n, err = oldParseName(t)
	return err
}

// checkNameDecodeJSON reads doc's first value with Name.DecodeJSON and with
// the plain code: the same name, error and offset after it.
func checkNameDecodeJSON(t testing.TB, doc []byte) {
	t.Helper()
	n, wn := Name(1), Name(1) // not the zero value: an error leaves it or zeroes it alike
	r, wr := NewJSONReader(doc), NewJSONReader(doc)
	err := n.DecodeJSON(r)
	werr := oldNameDecodeJSON(&wn, wr)
	sameResult(t, "Name.DecodeJSON", doc, n, err, wn, werr)
	if r.Offset() != wr.Offset() {
		t.Fatalf("Name.DecodeJSON(%q) ends at %d; the plain code at %d", doc, r.Offset(), wr.Offset())
	}
}

// oldDecodeHex is decodeHex as it was before it read 16 digits a step.
func oldDecodeHex(typ string, t []byte, dst []byte) ([]byte, error) {
	if len(t)%2 != 0 {
		return nil, valueErr(typ, string(t), "odd number of hex digits")
	}
	if dst == nil {
		dst = make([]byte, 0, len(t)/2)
	}
	n := len(dst)
	dst = slices.Grow(dst, len(t)/2)[:n+len(t)/2]
	out := dst[n:]
	for i := range out {
		hi, lo := hexValue[t[2*i]], hexValue[t[2*i+1]]
		if hi|lo > 0x0f {
			return nil, valueErr(typ, string(t), "not a hex string")
		}
		out[i] = hi<<4 | lo
	}
	return dst, nil
}

// oldSigned and oldUnsigned are the integer readers' text parsing as it was
// before its decimal fast path.
func oldSigned(typ string, bits int, t []byte) (int64, error) {
	if len(t) > 0 && t[0] == '+' {
		return 0, valueErr(typ, string(t), "not an integer")
	}
	v, err := strconv.ParseInt(string(t), 10, bits)
	if err != nil {
		return 0, intErr(typ, t, err)
	}
	return v, nil
}

func oldUnsigned(typ string, bits int, t []byte) (uint64, error) {
	if len(t) > 0 && t[0] == '-' {
		return 0, valueErr(typ, string(t), "negative value for an unsigned type")
	}
	if len(t) > 0 && t[0] == '+' {
		return 0, valueErr(typ, string(t), "not an integer")
	}
	v, err := strconv.ParseUint(string(t), 10, bits)
	if err != nil {
		return 0, intErr(typ, t, err)
	}
	return v, nil
}

// sameResult fails unless two answers are equal: values, and errors of the
// same type and content.
func sameResult[T any](t testing.TB, what string, in []byte, got T, gotErr error, want T, wantErr error) {
	t.Helper()
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotErr, wantErr) {
		t.Fatalf("%s(%q) = %v, %v; the plain code gives %v, %v", what, in, got, gotErr, want, wantErr)
	}
}

// checkScalarFastPaths runs every fast path on text and compares it with
// the plain code.
func checkScalarFastPaths(t testing.TB, text []byte) {
	t.Helper()
	n, err := parseName(text)
	wn, werr := oldParseName(text)
	sameResult(t, "parseName", text, n, err, wn, werr)

	// As a JSON string alone, unterminated, followed by more, padded with
	// quotes or name characters, or not a string.
	for _, doc := range []string{`"` + string(text) + `"`, `"` + string(text), ` "` + string(text) + `",1`, string(text),
		`"` + string(text) + `""""""""""""""""`, `"` + string(text) + `abcdefghijklmnop"`} {
		checkNameDecodeJSON(t, []byte(doc))
	}

	checkDecodeHex(t, text)

	for _, bits := range []int{8, 16, 32, 64} {
		typ := "int" + strconv.Itoa(bits)
		s, err := parseSignedText(typ, bits, text)
		ws, werr := oldSigned(typ, bits, text)
		sameResult(t, "parseSignedText "+typ, text, s, err, ws, werr)
		u, err := parseUnsignedText("u"+typ, bits, text)
		wu, werr := oldUnsigned("u"+typ, bits, text)
		sameResult(t, "parseUnsignedText u"+typ, text, u, err, wu, werr)
	}
}

// oldBytes is JSONReader.Bytes as it was before it read the usual hex
// string in one pass.
func oldBytes(r *JSONReader) ([]byte, error) {
	t, err := r.StringBytes()
	if err != nil {
		return nil, err
	}
	return oldDecodeHex("bytes", t, nil)
}

// checkDecodeHex compares decodeHex with the plain code on text: into a new
// slice, into a caller's buffer, and read by JSONReader.Bytes from strings
// holding text.
func checkDecodeHex(t testing.TB, text []byte) {
	t.Helper()
	for _, doc := range []string{`"` + string(text) + `"`, `"` + string(text), ` "` + string(text) + `",1`, string(text)} {
		r, wr := NewJSONReader([]byte(doc)), NewJSONReader([]byte(doc))
		b, err := r.Bytes()
		wb, werr := oldBytes(wr)
		sameResult(t, "JSONReader.Bytes", []byte(doc), b, err, wb, werr)
		if r.Offset() != wr.Offset() || cap(b) != cap(wb) {
			t.Fatalf("JSONReader.Bytes(%q) ends at %d with capacity %d; the plain code at %d with %d", doc, r.Offset(), cap(b), wr.Offset(), cap(wb))
		}
	}
	h, err := decodeHex("bytes", text, nil)
	wh, werr := oldDecodeHex("bytes", text, nil)
	sameResult(t, "decodeHex", text, h, err, wh, werr)
	// Into a caller's buffer: a prefix kept, and what is written into its
	// spare capacity on an error (ParseChecksum256 returns that) the same.
	for _, prefix := range []int{0, 3} {
		size := prefix + len(text)/2 + 5
		buf, wbuf := bytes.Repeat([]byte{0xa5}, size), bytes.Repeat([]byte{0xa5}, size)
		h, err := decodeHex("checksum256", text, buf[:prefix])
		wh, werr := oldDecodeHex("checksum256", text, wbuf[:prefix])
		sameResult(t, "decodeHex into a buffer", text, h, err, wh, werr)
		if !bytes.Equal(buf, wbuf) {
			t.Fatalf("decodeHex(%q) into a buffer wrote % x; the plain code % x", text, buf, wbuf)
		}
	}
}

// byteClasses are the kinds of byte a mutation puts in: name characters,
// hex digits of both cases, the letters just outside them, signs, dots,
// quotes and escapes, controls, high bytes.
var byteClasses = [][]byte{
	[]byte(".12345"), []byte("abcdefghij"), []byte("klmnopqrstuvwxyz"), []byte("06789"),
	[]byte("ABCDEF"), []byte("GZgz"), []byte("+-eE_xX"), []byte(" \"\\/:@`[{"),
	{0, 1, 0x1f, 0x7f}, {0x80, 0xb9, 0xc0, 0xe6, 0xff},
}

// allBytes holds every byte value.
var allBytes = func() (b []byte) {
	for c := range 256 {
		b = append(b, byte(c))
	}
	return b
}()

func randByte(r *rand.Rand) byte {
	class := byteClasses[r.IntN(len(byteClasses))]
	return class[r.IntN(len(class))]
}

// randScalarText is a random text of one of the shapes the fast paths read,
// often mutated.
func randScalarText(r *rand.Rand) []byte {
	var b []byte
	switch r.IntN(5) {
	case 0: // a name, 0 to 13 characters, its 13th often beyond 'j'
		n := r.IntN(14)
		for range n {
			b = append(b, nameAlphabet[r.IntN(len(nameAlphabet))])
		}
		if n == 13 && r.IntN(2) == 0 {
			b[12] = "jk"[r.IntN(2)]
		}
	case 1: // hex, 0 to 30 bytes, either case
		n := r.IntN(31)
		for range 2 * n {
			b = append(b, "0123456789abcdefABCDEF"[r.IntN(22)])
		}
	case 2: // a decimal, 0 to 22 digits, often with leading zeros or a sign
		b = append(b, "-+"[r.IntN(2):][:r.IntN(2)]...)
		for range r.IntN(4) {
			if r.IntN(2) == 0 {
				b = append(b, '0')
			}
		}
		for range r.IntN(23) {
			b = append(b, byte('0'+r.IntN(10)))
		}
	case 3: // an integer near a bound of one of the sizes
		bits := []int{7, 8, 15, 16, 31, 32, 63, 64}[r.IntN(8)]
		bound := uint64(1)<<(bits-1)<<1 - 1 // 2^bits - 1
		v := bound + uint64(r.IntN(5)) - 2  // around it, 2^64 - 1 wrapping to below 3
		b = strconv.AppendUint(b, v, 10)
		if v < 3 && bits == 64 {
			b = []byte("1844674407370955161" + string(rune('3'+r.IntN(5))))
		}
		if r.IntN(3) == 0 {
			b = append([]byte{'-'}, b...)
		}
	default: // any bytes
		for range r.IntN(31) {
			b = append(b, randByte(r))
		}
	}
	for range r.IntN(3) { // mutations: set, insert or delete a byte
		switch i := r.IntN(len(b) + 1); {
		case r.IntN(3) == 0:
			b = slices.Insert(b, i, randByte(r))
		case i < len(b) && r.IntN(2) == 0:
			b = slices.Delete(b, i, i+1)
		case i < len(b):
			b[i] = randByte(r)
		}
	}
	return b
}

// scalarBoundaries are the texts at the edges of each fast path.
var scalarBoundaries = []string{
	"", "a", ".", "a.", ".a", "abcdefghijklm", "abcdefghijklj", "abcdefghijklk", "zzzzzzzzzzzzj",
	"zzzzzzzzzzzzz", "............j", "...........", "abcdefghijkl.", "abcdefghijklmn", "eosio.token",
	"A", "a b", "abcdefghijk\x80", "1a", "6", "0",
	"00", "0A", "fF", "0g", "000102030405060708090a0b0c0d0e0f", "000102030405060708090a0b0c0d0e0", "0123456789ABCDEF0123456789abcdeg",
	"18446744073709551615", "18446744073709551616", "18446744073709551619", "18446744073709551620", "99999999999999999999", "00000000000000000001", "-18446744073709551615", "28446744073709551615", "9999999999999999999", "10000000000000000000",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
	"0000000000000000000000000001", "00000000000000000009", "255", "256", "-128", "-129", "127", "128",
	"65535", "65536", "4294967295", "4294967296", "-2147483648", "2147483648", "-0", "+0", "+1", "-", "+",
	"--1", "1_000", `a"`, `\"`, `a\u0062`, `\u0061`, "abcdefghijkl\"", `abcdefghijklj"`, `abcdefghijkl."`, "0x10", "1e3", "1.0", " 1", "1 ", "٣",
}

// TestScalarFastPathsMatchThePlainCode compares the fast paths with the
// plain code on the boundaries and on random texts: 40,000 of them (a few
// seconds under the race detector), 10,000 with -short, or
// SCALAR_FASTPATH_TEXTS (FuzzScalarFastPaths explores further).
func TestScalarFastPathsMatchThePlainCode(t *testing.T) {
	for _, s := range scalarBoundaries {
		checkScalarFastPaths(t, []byte(s))
	}
	n := 40_000
	if testing.Short() {
		n = 10_000
	}
	if s := os.Getenv("SCALAR_FASTPATH_TEXTS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatalf("SCALAR_FASTPATH_TEXTS=%q: %v", s, err)
		}
	}
	r := rand.New(rand.NewPCG(34, 7))
	for range n {
		checkScalarFastPaths(t, randScalarText(r))
	}
}

// TestHexWholeStepsMatchThePlainCode puts every byte value at every place
// of hex texts of each length the steps of decodeHex handle apart: under
// 4 bytes, two overlapping steps of 8 digits, whole steps of 16, and a last
// step overlapping the one before; and around the 64 bytes that
// JSONReader.Bytes reads in one pass.
func TestHexWholeStepsMatchThePlainCode(t *testing.T) {
	digits := strings.Repeat("0123456789abcdefFEDCBA9876543210aAbBcCdDeEfF0918", 3)
	for _, n := range []int{1, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 23, 24, 63, 64, 65} {
		base := []byte(digits[:2*n])
		checkDecodeHex(t, base)
		values := allBytes
		if n > 24 {
			values = slices.Concat(byteClasses...) // every class, fewer of each: the long texts cost
		}
		for i := range base {
			for _, c := range values {
				text := slices.Clone(base)
				text[i] = c
				checkDecodeHex(t, text)
			}
		}
	}
}

// TestIntegerReadersUseTheFastPath reads integers through JSONReader, as
// numbers and as strings, so that the readers are checked to call what the
// differential tests compare.
func TestIntegerReadersUseTheFastPath(t *testing.T) {
	for _, s := range scalarBoundaries {
		for _, doc := range []string{s, strconv.Quote(s)} {
			r := NewJSONReader([]byte(doc))
			u, err := r.Uint64()
			text, _, serr := NewJSONReader([]byte(doc)).Scalar("an integer")
			if serr != nil {
				if !reflect.DeepEqual(err, serr) {
					t.Fatalf("Uint64 of %s: %v; Scalar: %v", doc, err, serr)
				}
				continue
			}
			wu, werr := oldUnsigned("uint64", 64, text)
			sameResult(t, "Uint64", []byte(doc), u, err, wu, werr)
			i8, err := NewJSONReader([]byte(doc)).Int8()
			wi, werr := oldSigned("int8", 8, text)
			sameResult(t, "Int8", []byte(doc), int64(i8), err, wi, werr)
		}
	}
}
