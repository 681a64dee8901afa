package antelope

import (
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// Uint128 is an unsigned 128-bit integer. Binary: 16 bytes little-endian, low
// 64 bits first. JSON: a decimal string; input also takes a JSON number or a
// "0x" hex string (nodeos).
type Uint128 struct {
	Lo uint64 // the low 64 bits
	Hi uint64 // the high 64 bits
}

// Int128 is a signed 128-bit integer in two's complement, laid out like
// Uint128. JSON: a decimal string, e.g. "-1".
type Int128 struct {
	Lo uint64 // the low 64 bits
	Hi uint64 // the high 64 bits, with the sign
}

var (
	maxUint128 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))
	maxInt128  = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1))
	minInt128  = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 127))
	two128     = new(big.Int).Lsh(big.NewInt(1), 128)
)

func wordsToBig(lo, hi uint64) *big.Int {
	v := new(big.Int).SetUint64(hi)
	v.Lsh(v, 64)
	return v.Or(v, new(big.Int).SetUint64(lo))
}

// Big returns the value as a big.Int.
func (u Uint128) Big() *big.Int { return wordsToBig(u.Lo, u.Hi) }

// Big returns the value as a big.Int.
func (i Int128) Big() *big.Int {
	v := wordsToBig(i.Lo, i.Hi)
	if i.Hi>>63 == 1 {
		v.Sub(v, two128)
	}
	return v
}

// Uint128FromBig converts v, failing when it is outside 0 … 2^128−1.
func Uint128FromBig(v *big.Int) (Uint128, error) {
	if v.Sign() < 0 || v.Cmp(maxUint128) > 0 {
		return Uint128{}, valueErr("uint128", v.String(), "out of range")
	}
	return Uint128{Lo: new(big.Int).And(v, new(big.Int).SetUint64(^uint64(0))).Uint64(), Hi: new(big.Int).Rsh(v, 64).Uint64()}, nil
}

// Int128FromBig converts v, failing when it is outside −2^127 … 2^127−1.
func Int128FromBig(v *big.Int) (Int128, error) {
	if v.Cmp(minInt128) < 0 || v.Cmp(maxInt128) > 0 {
		return Int128{}, valueErr("int128", v.String(), "out of range")
	}
	w := new(big.Int).Set(v)
	if w.Sign() < 0 {
		w.Add(w, two128)
	}
	u, _ := Uint128FromBig(w)
	return Int128(u), nil
}

// String returns the decimal form.
func (u Uint128) String() string { return u.Big().String() }

// String returns the decimal form.
func (i Int128) String() string { return i.Big().String() }

// parseBig128 parses a decimal integer, or hex after "0x", for a 128-bit type.
func parseBig128(typ string, t []byte) (*big.Int, error) {
	s := string(t)
	neg := strings.HasPrefix(s, "-")
	digits := strings.TrimPrefix(s, "-")
	base := 10
	if strings.HasPrefix(digits, "0x") || strings.HasPrefix(digits, "0X") {
		digits, base = digits[2:], 16
	}
	if digits == "" || strings.ContainsAny(digits, "+-_") {
		return nil, valueErr(typ, s, "not an integer")
	}
	v, ok := new(big.Int).SetString(digits, base)
	if !ok {
		return nil, valueErr(typ, s, "not an integer")
	}
	if neg {
		v.Neg(v)
	}
	return v, nil
}

// ParseUint128 parses a decimal (or "0x" hex) string.
func ParseUint128(s string) (Uint128, error) {
	v, err := parseBig128("uint128", []byte(s))
	if err != nil {
		return Uint128{}, err
	}
	return Uint128FromBig(v)
}

// ParseInt128 parses a decimal (or "0x" hex) string, optionally negative.
func ParseInt128(s string) (Int128, error) {
	v, err := parseBig128("int128", []byte(s))
	if err != nil {
		return Int128{}, err
	}
	return Int128FromBig(v)
}

// AppendBinary appends 16 bytes, low half first.
func (u Uint128) AppendBinary(b []byte) ([]byte, error) {
	return AppendUint64(AppendUint64(b, u.Lo), u.Hi), nil
}

// MarshalBinary returns 16 bytes.
func (u Uint128) MarshalBinary() ([]byte, error) { return u.AppendBinary(nil) }

// DecodeBinary reads 16 bytes.
func (u *Uint128) DecodeBinary(d *Decoder) error {
	b, err := d.fixed("uint128", 16)
	if err != nil {
		return err
	}
	u.Lo, u.Hi = leUint64(b), leUint64(b[8:])
	return nil
}

func leUint64(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// UnmarshalBinary decodes exactly 16 bytes.
func (u *Uint128) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, u) }

// AppendJSON appends the quoted decimal form.
func (u Uint128) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, '"')
	b = appendUint128(b, u.Hi, u.Lo)
	return append(b, '"'), nil
}

// MarshalJSON returns the quoted decimal form.
func (u Uint128) MarshalJSON() ([]byte, error) { return u.AppendJSON(nil) }

// DecodeJSON reads a decimal string or number, or a "0x" hex string.
func (u *Uint128) DecodeJSON(r *JSONReader) error {
	t, _, err := r.Scalar("a uint128 string")
	if err != nil {
		return err
	}
	if hi, lo, neg, ok := parseDecimal128(t); ok && (!neg || hi|lo == 0) {
		*u = Uint128{Lo: lo, Hi: hi}
		return nil
	}
	v, err := parseBig128("uint128", t)
	if err != nil {
		return err
	}
	w, err := Uint128FromBig(v)
	if err == nil {
		*u = w
	}
	return err
}

// UnmarshalJSON reads a decimal string or number, or a "0x" hex string.
func (u *Uint128) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, u) }

// AppendBinary appends 16 bytes, low half first.
func (i Int128) AppendBinary(b []byte) ([]byte, error) { return Uint128(i).AppendBinary(b) }

// MarshalBinary returns 16 bytes.
func (i Int128) MarshalBinary() ([]byte, error) { return i.AppendBinary(nil) }

// DecodeBinary reads 16 bytes.
func (i *Int128) DecodeBinary(d *Decoder) error { return (*Uint128)(i).DecodeBinary(d) }

// UnmarshalBinary decodes exactly 16 bytes.
func (i *Int128) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, i) }

// AppendJSON appends the quoted decimal form.
func (i Int128) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, '"')
	hi, lo := i.Hi, i.Lo
	if hi>>63 == 1 { // the magnitude: two's complement
		b = append(b, '-')
		var borrow uint64
		lo, borrow = bits.Sub64(0, lo, 0)
		hi, _ = bits.Sub64(0, hi, borrow)
	}
	b = appendUint128(b, hi, lo)
	return append(b, '"'), nil
}

// MarshalJSON returns the quoted decimal form.
func (i Int128) MarshalJSON() ([]byte, error) { return i.AppendJSON(nil) }

// DecodeJSON reads a decimal string or number, or a "0x" hex string.
func (i *Int128) DecodeJSON(r *JSONReader) error {
	t, _, err := r.Scalar("an int128 string")
	if err != nil {
		return err
	}
	if hi, lo, neg, ok := parseDecimal128(t); ok && (hi>>63 == 0 || neg && hi == 1<<63 && lo == 0) {
		if neg {
			var borrow uint64
			lo, borrow = bits.Sub64(0, lo, 0)
			hi, _ = bits.Sub64(0, hi, borrow)
		}
		*i = Int128{Lo: lo, Hi: hi}
		return nil
	}
	v, err := parseBig128("int128", t)
	if err != nil {
		return err
	}
	w, err := Int128FromBig(v)
	if err == nil {
		*i = w
	}
	return err
}

// appendUint128 appends hi·2^64 + lo in decimal: up to three groups of 19
// digits, by 128-by-64-bit division, where math/big allocated.
func appendUint128(b []byte, hi, lo uint64) []byte {
	const group = 1e19
	if hi == 0 {
		return strconv.AppendUint(b, lo, 10)
	}
	var groups [3]uint64 // least significant first
	n := 0
	for hi != 0 || lo != 0 {
		var r uint64
		qhi := hi / group
		lo, r = bits.Div64(hi%group, lo, group)
		hi = qhi
		groups[n] = r
		n++
	}
	b = strconv.AppendUint(b, groups[n-1], 10)
	for i := n - 2; i >= 0; i-- {
		var buf [19]byte
		v := groups[i]
		for j := 18; j >= 0; j-- {
			buf[j] = byte('0' + v%10)
			v /= 10
		}
		b = append(b, buf[:]...)
	}
	return b
}

// parseDecimal128 reads [-]digits whose magnitude fits in 128 bits; ok is
// false for anything else (hex, signs, overflow), which parseBig128 then
// reads and judges.
func parseDecimal128(t []byte) (hi, lo uint64, neg, ok bool) {
	if len(t) > 0 && t[0] == '-' {
		neg, t = true, t[1:]
	}
	if len(t) == 0 {
		return 0, 0, false, false
	}
	for _, c := range t {
		if c < '0' || c > '9' {
			return 0, 0, false, false
		}
		// (hi, lo)·10 + digit, failing on overflow.
		h1, l1 := bits.Mul64(lo, 10)
		h2, h := bits.Mul64(hi, 10)
		h, carry := bits.Add64(h, h1, 0)
		if h2 != 0 || carry != 0 {
			return 0, 0, false, false
		}
		l, carry := bits.Add64(l1, uint64(c-'0'), 0)
		h, carry = bits.Add64(h, 0, carry)
		if carry != 0 {
			return 0, 0, false, false
		}
		hi, lo = h, l
	}
	return hi, lo, neg, true
}

// UnmarshalJSON reads a decimal string or number, or a "0x" hex string.
func (i *Int128) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, i) }
