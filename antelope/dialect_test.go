package antelope

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	//lint:ignore SA1019 the chain's key checksums are RIPEMD-160
	"golang.org/x/crypto/ripemd160"
)

// abieosToNodeos rewrites JSON that abieos prints for a value of type typ
// into what nodeos prints for the same value — the form this package emits,
// bool aside (true/false in both). It is written independently of the
// package's own formatting code so that it can check it. The mapping
// (abi-spec.md §6):
//
//	int64, uint64          "1" → 1 when |v| ≤ 2^32−1, else the string stays
//	float32, float64       0.125 → "0.12500000000000000" (17 fixed decimals)
//	float128               "ABCD…" → "0xabcd…"
//	bytes, checksum*       upper-case hex → lower-case
//	time_point_sec         "…:47.000" → "…:47"
//	public_key (K1)        "PUB_K1_…" → legacy "EOS…"
//	string                 escapes in nodeos style (\n, lowercase \u00xx)
//	T[], T?                element by element
//
// Every other type prints the same in both.
func abieosToNodeos(typ, abieosJSON string) (string, error) {
	dec := json.NewDecoder(strings.NewReader(abieosJSON))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	var out bytes.Buffer
	if err := mapDialect(&out, typ, v); err != nil {
		return "", err
	}
	return out.String(), nil
}

func mapDialect(out *bytes.Buffer, typ string, v any) error {
	switch {
	case strings.HasSuffix(typ, "[]"):
		arr, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s: not an array", typ)
		}
		out.WriteByte('[')
		for i, e := range arr {
			if i > 0 {
				out.WriteByte(',')
			}
			if err := mapDialect(out, strings.TrimSuffix(typ, "[]"), e); err != nil {
				return err
			}
		}
		out.WriteByte(']')
		return nil
	case strings.HasSuffix(typ, "?"):
		if v == nil {
			out.WriteString("null")
			return nil
		}
		return mapDialect(out, strings.TrimSuffix(typ, "?"), v)
	}
	text := fmt.Sprint(v)
	switch typ {
	case "int64", "uint64":
		n, ok := new(big.Int).SetString(text, 10)
		if !ok {
			return fmt.Errorf("%s: %q is not an integer", typ, text)
		}
		if n.CmpAbs(big.NewInt(math.MaxUint32)) <= 0 {
			out.WriteString(n.String())
		} else {
			fmt.Fprintf(out, "%q", n.String())
		}
	case "float32", "float64":
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, `"%.17f"`, f)
	case "float128":
		fmt.Fprintf(out, `"0x%s"`, strings.ToLower(text))
	case "bytes", "checksum160", "checksum256", "checksum512":
		fmt.Fprintf(out, "%q", strings.ToLower(text))
	case "time_point_sec":
		fmt.Fprintf(out, "%q", strings.TrimSuffix(text, ".000"))
	case "public_key":
		if strings.HasPrefix(text, "PUB_K1_") {
			legacy, err := k1ToLegacy(text)
			if err != nil {
				return err
			}
			text = legacy
		}
		fmt.Fprintf(out, "%q", text)
	case "string":
		out.WriteString(nodeosQuote(text))
	case "extended_asset":
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("extended_asset: not an object")
		}
		fmt.Fprintf(out, `{"quantity":%q,"contract":%q}`, m["quantity"], m["contract"])
	default:
		switch v.(type) {
		case string:
			fmt.Fprintf(out, "%q", text)
		default:
			out.WriteString(text)
		}
	}
	return nil
}

// nodeosQuote quotes s as fc's escape_string does (UTF-8 input assumed).
func nodeosQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// k1ToLegacy turns PUB_K1_… into EOS…, with math/big base58 and its own
// checksums (not the package's code).
func k1ToLegacy(s string) (string, error) {
	const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	decode := func(s string) []byte {
		n := new(big.Int)
		for _, c := range s {
			n.Mul(n, big.NewInt(58))
			n.Add(n, big.NewInt(int64(strings.IndexRune(alphabet, c))))
		}
		b := n.Bytes()
		for i := 0; i < len(s) && s[i] == '1'; i++ {
			b = append([]byte{0}, b...)
		}
		return b
	}
	encode := func(b []byte) string {
		n := new(big.Int).SetBytes(b)
		var out []byte
		for n.Sign() > 0 {
			m := new(big.Int)
			n.DivMod(n, big.NewInt(58), m)
			out = append([]byte{alphabet[m.Int64()]}, out...)
		}
		for i := 0; i < len(b) && b[i] == 0; i++ {
			out = append([]byte{'1'}, out...)
		}
		return string(out)
	}
	raw := decode(strings.TrimPrefix(s, "PUB_K1_"))
	if len(raw) != 37 {
		return "", fmt.Errorf("%s: %d bytes", s, len(raw))
	}
	h := ripemd160.New()
	h.Write(raw[:33])
	return "EOS" + encode(append(raw[:33:33], h.Sum(nil)[:4]...)), nil
}

func TestAbieosToNodeos(t *testing.T) {
	for _, c := range []struct{ typ, in, want string }{
		{"int64", `"1"`, `1`},
		{"int64", `"-4294967295"`, `-4294967295`},
		{"int64", `"-4294967296"`, `"-4294967296"`},
		{"uint64", `"18446744073709551615"`, `"18446744073709551615"`},
		{"float64", `0.125`, `"0.12500000000000000"`},
		{"float32", `0`, `"0.00000000000000000"`},
		{"float128", `"12345678ABCDEF12345678ABCDEF1234"`, `"0x12345678abcdef12345678abcdef1234"`},
		{"bytes", `"AABB"`, `"aabb"`},
		{"time_point_sec", `"2018-06-15T19:17:47.000"`, `"2018-06-15T19:17:47"`},
		{"public_key", `"PUB_K1_6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5BoDq63"`, `"EOS6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV"`},
		{"public_key", `"PUB_R1_6FPFZqw5ahYrR9jD96yDbbDNTdKtNqRbze6oTDLntrsANgQKZu"`, `"PUB_R1_6FPFZqw5ahYrR9jD96yDbbDNTdKtNqRbze6oTDLntrsANgQKZu"`},
		{"string", `"这\u000A"`, `"这\n"`},
		{"string", `"\u0000\u001F\u007F"`, `"\u0000\u001f\u007f"`},
		{"asset?", `null`, `null`},
		{"int64[]", `["1","5000000000"]`, `[1,"5000000000"]`},
		{"bool", `true`, `true`},
		{"name", `"eosio"`, `"eosio"`},
	} {
		got, err := abieosToNodeos(c.typ, c.in)
		if err != nil || got != c.want {
			t.Errorf("abieosToNodeos(%s, %s) = %s, %v; want %s", c.typ, c.in, got, err, c.want)
		}
	}
}
