package antelope

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// randAssetText is an asset text near the fast path's edges: canonical
// prints of random assets (1–19 digits, precision 0–18, codes of 0–8
// letters), then as often one byte changed, inserted or removed.
func randAssetText(r *rand.Rand) string {
	prec := r.IntN(MaxPrecision + 2)
	var mag uint64
	switch r.IntN(4) {
	case 0:
		mag = r.Uint64N(1000)
	case 1:
		mag = MaxAssetAmount - r.Uint64N(3) + 1 // 2^62-2 … 2^62
	default:
		mag = r.Uint64() >> r.IntN(64)
	}
	digits := strconv.FormatUint(mag, 10)
	for len(digits) <= prec {
		digits = "0" + digits
	}
	if prec > 0 {
		digits = digits[:len(digits)-prec] + "." + digits[len(digits)-prec:]
	}
	if r.IntN(8) == 0 {
		digits = "000" + digits
	}
	if r.IntN(2) == 0 {
		digits = "-" + digits
	}
	code := make([]byte, r.IntN(9))
	for i := range code {
		code[i] = byte('A' + r.IntN(26))
	}
	b := []byte(digits + " " + string(code))
	if r.IntN(2) == 0 {
		const bytesThatMatter = "0123456789.-+ AZ@[/:\t\x00\xff"
		k := r.IntN(len(b) + 1)
		c := bytesThatMatter[r.IntN(len(bytesThatMatter))]
		switch r.IntN(3) {
		case 0:
			if k < len(b) {
				b[k] = c
			}
		case 1:
			b = append(b[:k], append([]byte{c}, b[k:]...)...)
		default:
			if k < len(b) {
				b = append(b[:k], b[k+1:]...)
			}
		}
	}
	return string(b)
}

// checkAssetFast: whatever the fast path reads, the general path reads
// alike; every canonical print takes the fast path.
func checkAssetFast(t *testing.T, s string) {
	t.Helper()
	fast, ok := parseAssetFast([]byte(s), 0, len(s))
	slow, err := parseAssetText([]byte(s))
	if ok && (err != nil || fast != slow) {
		t.Fatalf("%q: fast path reads %+v, general path %+v, %v", s, fast, slow, err)
	}
	if err == nil && !ok && slow.Symbol.Code != 0 && slow.String() == s {
		t.Fatalf("%q: a canonical print left the fast path", s)
	}
}

func TestAssetFastPathReadsAsTheGeneralPath(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 5))
	n := 400000
	if testing.Short() {
		n = 60000
	}
	for _, s := range []string{"0.0001 A", "4611686018427387903 ABCDEFG", "4611686018427387904 A",
		"-4.611686018427387903 Z", "9999999999999999999 A", "99999999999999999999 A", "1.000000000000000000 A",
		"1.0000000000000000000 A", "12345678.12345678 SYS", "1234567 A", "12345678 A", "123456789 A", "1. A", ".1 A",
		"1 ", "1  A", "1 A ", "1\tA", "-1 A", "--1 A", "+1 A", "1 a", "1 ABCDEFGH", ""} {
		checkAssetFast(t, s)
	}
	for range n {
		checkAssetFast(t, randAssetText(r))
	}
}

// checkAssetFastInJSON: the same text read from within a JSON input (the
// fast path's eight-byte loads then run past it) reads as alone.
func checkAssetFastInJSON(t *testing.T, s string, tail string) {
	t.Helper()
	data := append(append([]byte(`["`), s...), `"`+tail...)
	var got Asset
	err := UnmarshalJSON(data[1:len(data)-len(tail)], &got)
	want, wantErr := ParseAsset(s)
	if (err == nil) != (wantErr == nil) || got != want {
		t.Fatalf("%q in JSON: %+v, %v; alone: %+v, %v", s, got, err, want, wantErr)
	}
	fast, ok := parseAssetFast(data, 2, 2+len(s))
	if ok && fast != want {
		t.Fatalf("%q in JSON: fast path reads %+v, alone %+v", s, fast, want)
	}
}

func TestAssetFastPathInJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 7))
	n := 100000
	if testing.Short() {
		n = 20000
	}
	for range n {
		s := randAssetText(r)
		if !jsonStringAsIs(s) {
			continue
		}
		tail := []string{"", "]", "9]", "99999999ABCDEFGH]"}[r.IntN(4)]
		checkAssetFastInJSON(t, s, tail)
	}
}

func TestDigitsAt(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 6))
	for range 100000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			if r.IntN(6) == 0 {
				b[i] = byte(r.Uint32())
			} else {
				b[i] = '0' + byte(r.IntN(10))
			}
		}
		end := r.IntN(len(b) + 1)
		from := r.IntN(end + 1)
		want := from
		for want < end && b[want] >= '0' && b[want] <= '9' {
			want++
		}
		j, jv := digitsAt(b, from, end)
		if j != want {
			t.Fatalf("digitsAt(%q, %d, %d) = %d, want %d", b, from, end, j, want)
		}
		if d := b[from:want]; len(d) > 0 && len(d) <= 19 {
			v, err := strconv.ParseUint(string(d), 10, 64)
			if err == nil && jv != v {
				t.Fatalf("digitsAt(%q) = %d, want %d", d, jv, v)
			}
		} else if len(d) == 0 && jv != 0 {
			t.Fatalf("digitsAt(%q, %d, %d): no digits, value %d", b, from, end, jv)
		}
	}
}

// jsonStringAsIs reports whether s is the text of a JSON string as it is:
// no quote, backslash or control character, valid UTF-8.
func jsonStringAsIs(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == '"' || r == '\\' })
}
