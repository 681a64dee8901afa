package antelope

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// nodeosSymbol is spring's symbol::from_string: trim white space, split at
// the first comma, the precision read by fc::to_int64 and cast to uint8 (at
// most 18), the code (not trimmed) at most 7 letters A-Z, the empty code
// included. quirk reports the one case left out: a precision outside 0–255,
// which the cast wraps ("260,SYS" is precision 4 to nodeos); the runtime
// refuses it.
func nodeosSymbol(s string) (sym Symbol, ok, quirk bool) {
	s = strings.Trim(s, " \t\n\v\f\r")
	comma := strings.IndexByte(s, ',')
	if comma < 0 {
		return Symbol{}, false, false
	}
	p, ok := lexInt64(s[:comma])
	if !ok {
		return Symbol{}, false, false
	}
	if p < 0 || p > 255 {
		return Symbol{}, false, uint8(p) <= MaxPrecision
	}
	name := s[comma+1:]
	if p > MaxPrecision || len(name) > 7 {
		return Symbol{}, false, false
	}
	var code uint64
	for i := range len(name) {
		if name[i] < 'A' || name[i] > 'Z' {
			return Symbol{}, false, false
		}
		code |= uint64(name[i]) << (8 * i)
	}
	return Symbol{Precision: uint8(p), Code: SymbolCode(code)}, true, false
}

// ParseSymbol reads exactly the symbols nodeos reads, as nodeos reads them
// (white space around, a sign, leading zeros), on random strings of the
// characters that matter.
func TestParseSymbolMatchesNodeos(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 3))
	const alpha = "0123456789,-+ AZa\t"
	cases := []string{" 4,SYS", "4,SYS\n", "+4,SYS", "004,SYS", "-0,A", "0,", " 18, ", "260,SYS", "-1,SYS", "4, SYS"}
	for range 200000 {
		b := make([]byte, r.IntN(10))
		for i := range b {
			b[i] = alpha[r.IntN(len(alpha))]
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		want, ok, quirk := nodeosSymbol(s)
		if quirk {
			continue
		}
		got, err := ParseSymbol(s)
		if (err == nil) != ok || ok && got != want {
			t.Fatalf("%q: ParseSymbol %v, %v; nodeos reads it: %v, as %v", s, got, err, ok, want)
		}
	}
}
