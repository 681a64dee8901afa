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

// nameCharValue maps each byte to its 5-bit value in a name, or to
// nameCharInvalid: a table, as names read from JSON on cold data are random
// text and a switch over three ranges mispredicts on most characters.
var nameCharValue = func() (t [256]byte) {
	for i := range t {
		t[i] = nameCharInvalid
	}
	for v, c := range []byte(nameAlphabet) {
		t[c] = byte(v)
	}
	return t
}()

// nameCharInvalid marks a byte that is no name character: any value above
// 0x1f would do; all bits set keeps the OR of a name's values above 0x1f
// whenever one of them is.
const nameCharInvalid = 0xff

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
	// The first 12 characters take 5 bits each, from the top; a bad one is
	// found after the loop, from the OR of all values, so that the loop
	// does not branch per character.
	head := s
	if len(head) == 13 {
		head = head[:12]
	}
	var v uint64
	var all byte
	for i, c := range head {
		cv := nameCharValue[c]
		all |= cv
		v |= uint64(cv) << (59 - 5*uint(i))
	}
	if all > 0x1f {
		return 0, nameCharErr(s)
	}
	if len(s) == 13 {
		cv := nameCharValue[s[12]]
		if cv > 0x1f {
			return 0, nameCharErr(s)
		}
		if cv > 0x0f {
			return 0, valueErr("name", string(s), "13th character must be one of .12345abcdefghij")
		}
		v |= uint64(cv)
	}
	if len(s) > 0 && s[len(s)-1] == '.' {
		return 0, valueErr("name", string(s), "trailing dots are not allowed")
	}
	return Name(v), nil
}

// scanJSONName reads, in one pass, the usual name string: its text from
// data[i] on, up to 13 name characters and the closing quote, a valid name.
// It returns the name and the offset past the quote. ok is false for
// anything else (escapes, a bad character, a 13th character beyond 'j', a
// trailing dot, no quote), which StringBytes and parseName then read, with
// their errors; where ok is true they would read the same name and end at
// the same offset (name characters need no escaping).
func scanJSONName(data []byte, i int) (n Name, end int, ok bool) {
	var v uint64
	for k := 0; k < 12; k++ {
		if i+k >= len(data) {
			return 0, 0, false
		}
		c := data[i+k]
		cv := nameCharValue[c]
		if cv > 0x1f {
			if c != '"' || k > 0 && data[i+k-1] == '.' {
				return 0, 0, false
			}
			return Name(v), i + k + 1, true // "" is the empty name
		}
		v |= uint64(cv) << (59 - 5*uint(k))
	}
	// Twelve characters read: a quote (perhaps the input's last byte), or
	// a 13th character and a quote.
	if i+12 >= len(data) {
		return 0, 0, false
	}
	c := data[i+12]
	if c == '"' {
		return Name(v), i + 13, data[i+11] != '.'
	}
	cv := nameCharValue[c]
	if cv > 0x0f || cv == 0 || i+13 >= len(data) || data[i+13] != '"' {
		return 0, 0, false
	}
	return Name(v | uint64(cv)), i + 14, true
}

// nameCharErr is the error for the first character of s that is not in a
// name's alphabet; s has one.
func nameCharErr(s []byte) error {
	for _, c := range s {
		if nameCharValue[c] == nameCharInvalid {
			return valueErr("name", string(s), "character "+quoteByte(c)+" is not in .12345abcdefghijklmnopqrstuvwxyz")
		}
	}
	return valueErr("name", string(s), "invalid")
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
	if r.Peek() == JSONString {
		if v, end, ok := scanJSONName(r.data, r.pos+1); ok {
			r.pos = end
			*n = v
			return nil
		}
	}
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
