package antelope

import (
	"math/bits"
	"slices"
)

// Name is an Antelope account, action, table or permission name: up to 13
// characters of ".12345a-z" packed into a uint64. Binary: uint64 little-endian.
// JSON: a string. Parsing is strict, as in nodeos: the text must be exactly
// the canonical form of its value (no upper case, no trailing dots, a 13th
// character of at most 'j').
type Name uint64

const nameAlphabet = ".12345abcdefghijklmnopqrstuvwxyz"

func nameCharValue(c byte) (uint64, bool) {
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

// ParseName parses the text form of a name.
func ParseName(s string) (Name, error) { return parseName([]byte(s)) }

// MustName parses a name known to be valid, such as a constant; it panics
// otherwise. Generated code never calls it.
func MustName(s string) Name {
	n, err := ParseName(s)
	if err != nil {
		panic(err)
	}
	return n
}

func parseName(s []byte) (Name, error) {
	if len(s) > 13 {
		return 0, valueErr("name", string(s), "longer than 13 characters")
	}
	var v uint64
	for i, c := range s {
		cv, ok := nameCharValue(c)
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

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return "'" + string(rune(c)) + "'"
	}
	return "0x" + string(lowerHex[c>>4]) + string(lowerHex[c&15])
}

// String returns the text form of the name.
func (n Name) String() string {
	var buf [13]byte
	return string(n.appendText(buf[:0]))
}

func (n Name) appendText(b []byte) []byte {
	// The trailing dots are the low zero bits: the 13th character takes 4
	// bits, each other one 5. Only the characters printed are computed,
	// straight into b.
	v := uint64(n)
	if v == 0 {
		return b
	}
	end := 13
	if tz := bits.TrailingZeros64(v); tz >= 4 {
		end = 12 - (tz-4)/5
	}
	b = slices.Grow(b, 13)
	out := b[len(b) : len(b)+end]
	for i := range out {
		if i < 12 {
			out[i] = nameAlphabet[v>>(59-5*i)&0x1f]
		} else {
			out[i] = nameAlphabet[v&0x0f]
		}
	}
	return b[:len(b)+end]
}

// AppendBinary appends the 8-byte little-endian value.
func (n Name) AppendBinary(b []byte) ([]byte, error) { return AppendUint64(b, uint64(n)), nil }

// MarshalBinary returns the 8-byte little-endian value.
func (n Name) MarshalBinary() ([]byte, error) { return n.AppendBinary(nil) }

// DecodeBinary reads 8 bytes. Every uint64 is a valid name.
func (n *Name) DecodeBinary(d *Decoder) error {
	v, err := d.Uint64()
	*n = Name(v)
	return err
}

// UnmarshalBinary decodes exactly 8 bytes.
func (n *Name) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, n) }

// AppendJSON appends the name as a JSON string.
func (n Name) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, '"')
	b = n.appendText(b)
	return append(b, '"'), nil
}

// MarshalJSON returns the name as a JSON string.
func (n Name) MarshalJSON() ([]byte, error) { return n.AppendJSON(nil) }

// DecodeJSON reads a JSON string holding a valid name.
func (n *Name) DecodeJSON(r *JSONReader) error {
	t, err := r.StringBytes()
	if err != nil {
		return err
	}
	*n, err = parseName(t)
	return err
}

// UnmarshalJSON reads a JSON string holding a valid name.
func (n *Name) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, n) }

// MarshalText returns the text form, so that names work as map keys.
func (n Name) MarshalText() ([]byte, error) { return n.appendText(nil), nil }

// UnmarshalText parses the text form.
func (n *Name) UnmarshalText(text []byte) error {
	v, err := parseName(text)
	*n = v
	return err
}
