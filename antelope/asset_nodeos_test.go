package antelope

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// lexInt64 is boost::lexical_cast<int64_t> (fc::to_int64): an optional sign,
// then decimal digits, nothing else, within int64.
func lexInt64(s string) (int64, bool) {
	if s == "" || s == "+" || s == "-" {
		return 0, false
	}
	t := s
	if t[0] == '+' {
		t = t[1:]
		if t == "" || t[0] == '-' || t[0] == '+' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil || strings.Contains(t, "_") {
		return 0, false
	}
	return v, true
}

// nodeosAsset is spring's asset::from_string: trim white space, split at
// the first space, the code (trimmed) at most 7 letters A-Z, the number of
// decimals the precision (at most 18), the integer and fraction parts each
// read by fc::to_int64, and |amount| at most 2^62-1. One quirk is left out:
// nodeos also reads a signed fraction ("1.-5 SYS", "1.+5 SYS"), counting its
// sign as a decimal; the runtime refuses it.
func nodeosAsset(s string) (Asset, bool) {
	s = strings.Trim(s, " \t\n\v\f\r")
	sp := strings.IndexByte(s, ' ')
	if sp < 0 {
		return Asset{}, false
	}
	symstr := strings.Trim(s[sp+1:], " \t\n\v\f\r")
	amt := s[:sp]
	dot := strings.IndexByte(amt, '.')
	if dot >= 0 && dot == len(amt)-1 {
		return Asset{}, false
	}
	prec := 0
	if dot >= 0 {
		prec = len(amt) - dot - 1
	}
	if prec > 18 || len(symstr) > 7 {
		return Asset{}, false
	}
	var code uint64
	for i := range len(symstr) {
		c := symstr[i]
		if c < 'A' || c > 'Z' {
			return Asset{}, false
		}
		code |= uint64(c) << (8 * i)
	}
	var ip, fp int64
	var ok bool
	if dot >= 0 {
		if ip, ok = lexInt64(amt[:dot]); !ok {
			return Asset{}, false
		}
		if f := amt[dot+1:]; f[0] == '-' || f[0] == '+' {
			return Asset{}, false // the quirk left out
		}
		if fp, ok = lexInt64(amt[dot+1:]); !ok {
			return Asset{}, false
		}
		if amt[0] == '-' {
			fp = -fp
		}
	} else if ip, ok = lexInt64(amt); !ok {
		return Asset{}, false
	}
	p10 := int64(1)
	for range prec {
		p10 *= 10
	}
	a := ip * p10
	if p10 != 0 && a/p10 != ip {
		return Asset{}, false
	}
	a += fp
	if a > MaxAssetAmount || a < -MaxAssetAmount {
		return Asset{}, false
	}
	return Asset{a, Symbol{uint8(prec), SymbolCode(code)}}, true
}

// ParseAsset reads every asset nodeos reads as nodeos does, white space and
// a '+' included, against a model of spring's asset::from_string on random
// strings of the characters that matter. It reads more only where the
// runtime is deliberately lenient: no space before the code ("1.0SYS", as
// abieos reads it) and an empty code ("0 ", nodeos's own print of asset{},
// which its reader trims away).
func TestParseAssetMatchesNodeos(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 2))
	const alpha = "0123456789.-+ AZ \t\n"
	n := 300000
	if testing.Short() {
		n = 50000
	}
	cases := []string{"+1.0000 SYS", "\t1.0000 SYS\n", "1.0000 \tSYS", "1.0000\tSYS", "-0.0001 A", "4611686018427387903 Z", "-4.611686018427387903 Z"}
	for range n {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = alpha[r.IntN(len(alpha))]
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		want, nodeosOK := nodeosAsset(s)
		got, err := ParseAsset(s)
		switch {
		case nodeosOK && err != nil:
			t.Fatalf("%q: nodeos reads %v; ParseAsset: %v", s, want, err)
		case nodeosOK && got != want:
			t.Fatalf("%q: nodeos reads %v, ParseAsset %v", s, want, got)
		case !nodeosOK && err == nil:
			trimmed := strings.TrimSpace(s)
			if got.Symbol.Code != 0 && strings.ContainsAny(trimmed, " ") {
				t.Fatalf("%q: nodeos refuses it; ParseAsset reads %v", s, got)
			}
		}
	}
}
