package antelope

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// JSON output in the nodeos chain API dialect, except bool (true/false).

// AppendBoolJSON appends true or false.
func AppendBoolJSON(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

// AppendIntJSON appends an integer of at most 32 bits as a JSON number.
func AppendIntJSON(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) }

// AppendUintJSON appends an unsigned integer of at most 32 bits as a number.
func AppendUintJSON(b []byte, v uint64) []byte { return strconv.AppendUint(b, v, 10) }

// AppendInt64JSON appends an int64 as nodeos does: a number when
// |v| ≤ 2^32−1, otherwise a quoted decimal string (JavaScript readers lose
// precision above 2^53, and nodeos draws the line at 32 bits).
func AppendInt64JSON(b []byte, v int64) []byte {
	if v >= -math.MaxUint32 && v <= math.MaxUint32 {
		return strconv.AppendInt(b, v, 10)
	}
	b = append(b, '"')
	b = strconv.AppendInt(b, v, 10)
	return append(b, '"')
}

// AppendUint64JSON appends a uint64 as nodeos does: a number up to 2^32−1,
// a quoted decimal string above.
func AppendUint64JSON(b []byte, v uint64) []byte {
	if v <= math.MaxUint32 {
		return strconv.AppendUint(b, v, 10)
	}
	b = append(b, '"')
	b = strconv.AppendUint(b, v, 10)
	return append(b, '"')
}

// AppendFloat64JSON appends a float64 as a quoted string that reads back
// to the same value, bit for bit: nodeos's form, 17 fixed decimals
// ("0.12500000000000000"), wherever that keeps the value, and otherwise the
// shortest decimal that does ("0.0075001068036015806", "1e-300"): below 1,
// 17 decimals keep fewer than 17 significant digits and nodeos's own output
// loses bits. Infinities and NaN print as "inf", "-inf", "nan" and "-nan"
// (a NaN with the sign bit), as C++ iostreams print them. nodeos, abieos and wharfkit read every form.
func AppendFloat64JSON(b []byte, v float64) []byte {
	return appendFloatJSON(b, v, 64)
}

// AppendFloat32JSON appends a float32 as nodeos does, widened to float64
// with 17 fixed decimals, where that reads back (rounded once to float32) to
// the same value; otherwise the shortest decimal that does.
func AppendFloat32JSON(b []byte, v float32) []byte { return appendFloatJSON(b, float64(v), 32) }

func appendFloatJSON(b []byte, v float64, bits int) []byte {
	b = append(b, '"')
	switch {
	case math.IsNaN(v) && math.Signbit(v):
		b = append(b, "-nan"...)
	case math.IsNaN(v):
		b = append(b, "nan"...)
	case math.IsInf(v, 1):
		b = append(b, "inf"...)
	case math.IsInf(v, -1):
		b = append(b, "-inf"...)
	default:
		var ok bool
		if b, ok = appendFixed17(b, v); ok {
			break // reads back: see jsonfloat.go
		}
		if math.Abs(v) >= 0x1p64 {
			// An integer, printed exactly: it reads back (and the text is
			// too long to parse back without allocating).
			b = strconv.AppendFloat(b, v, 'f', 17, 64)
			break
		}
		start := len(b)
		b = strconv.AppendFloat(b, v, 'f', 17, 64)
		if back, err := strconv.ParseFloat(string(b[start:]), bits); err != nil || math.Float64bits(back) != math.Float64bits(v) {
			b = strconv.AppendFloat(b[:start], v, 'g', -1, bits)
		}
	}
	return append(b, '"')
}

const lowerHex = "0123456789abcdef"

// AppendHexJSON appends bytes as a quoted lowercase hex string.
func AppendHexJSON(b []byte, v []byte) []byte {
	b = append(b, '"')
	b = appendHex(b, v)
	return append(b, '"')
}

func appendHex(b []byte, v []byte) []byte {
	n := len(b)
	b = slices.Grow(b, 2*len(v))[:n+2*len(v)]
	out := b[n:]
	for i, c := range v {
		// A byte's two digits from one table entry, sliced so that the
		// compiler drops the bounds checks: 1.8× the digit at a time.
		p := hexPairs[2*int(c) : 2*int(c)+2 : 2*int(c)+2]
		o := out[2*i : 2*i+2 : 2*i+2]
		o[0], o[1] = p[0], p[1]
	}
	return b
}

// hexPairs holds each byte's two lowercase hex digits, at twice its value.
var hexPairs = func() (t [512]byte) {
	for i := range 256 {
		t[2*i], t[2*i+1] = lowerHex[i>>4], lowerHex[i&15]
	}
	return t
}()

// AppendStringJSON appends a quoted string escaped as nodeos escapes it:
// \" \\ \t \n \r by name, other C0 controls, DEL and C1 controls (U+0080–
// U+009F) as \u00xx in lowercase hex. Bytes that are not valid UTF-8 are
// dropped, as nodeos's prune_invalid_utf8 drops them.
func AppendStringJSON(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != 0x7f {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"':
				b = append(b, '\\', '"')
			case '\\':
				b = append(b, '\\', '\\')
			case '\t':
				b = append(b, '\\', 't')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			default:
				b = append(b, '\\', 'u', '0', '0', lowerHex[c>>4], lowerHex[c&15])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			i++
			start = i
			continue
		}
		if r >= 0x80 && r <= 0x9f {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '0', '0', lowerHex[r>>4], lowerHex[r&15])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
