package antelope

import (
	"encoding/binary"
	"math/bits"
	"strconv"
)

// SymbolCode is a token symbol's code, up to 7 characters A–Z, such as "WAX".
// The empty code (0) is valid, as in nodeos (spring's symbol::valid()): a
// default-constructed asset holds it. Binary: uint64 little-endian with the
// first character in the lowest byte. JSON: a string ("" for the empty code).
type SymbolCode uint64

// MaxPrecision is the largest number of decimals a symbol may have (nodeos).
const MaxPrecision = 18

// ParseSymbolCode parses up to 7 upper-case letters; "" is the empty code.
func ParseSymbolCode(s string) (SymbolCode, error) { return parseSymbolCode([]byte(s)) }

// MustSymbolCode parses a symbol code known to be valid, such as a constant
// ("SYS"); it panics otherwise. Generated code never calls it.
func MustSymbolCode(s string) SymbolCode {
	c, err := ParseSymbolCode(s)
	if err != nil {
		panic(err)
	}
	return c
}

func parseSymbolCode(s []byte) (SymbolCode, error) {
	if len(s) > 7 {
		return 0, valueErr("symbol_code", string(s), "must be at most 7 letters A-Z")
	}
	var v uint64
	for i, c := range s {
		if c < 'A' || c > 'Z' {
			return 0, valueErr("symbol_code", string(s), "must be at most 7 letters A-Z")
		}
		v |= uint64(c) << (8 * i)
	}
	return SymbolCode(v), nil
}

// Valid reports whether c holds at most 7 letters A–Z followed only by zero
// bytes, the values nodeos accepts (spring's symbol::valid(): every byte up to
// the last non-zero one is a letter). The empty code 0 is valid.
func (c SymbolCode) Valid() bool {
	// All eight bytes at once: below 0x80, each byte b gets its top bit
	// from b+0x3f when b ≥ 'A' and from b+0x25 when b > 'Z', no carry
	// crossing into the next byte.
	const ones, tops uint64 = 0x0101010101010101, 0x8080808080808080
	v := uint64(c)
	if v>>56 != 0 || v&tops != 0 {
		return false
	}
	used := tops & (uint64(1)<<(8*((bits.Len64(v)+7)/8)) - 1) // the bytes up to the last non-zero one
	geA := (v + (0x80-'A')*ones) & used
	gtZ := (v + (0x7f-'Z')*ones) & used
	return geA == used && gtZ == 0
}

func (c SymbolCode) appendText(b []byte) []byte {
	// The bytes up to the last non-zero one, at once.
	var le [8]byte
	binary.LittleEndian.PutUint64(le[:], uint64(c))
	return append(b, le[:(bits.Len64(uint64(c))+7)/8]...)
}

// String returns the code's letters ("" for the empty code). An invalid code
// prints its raw value.
func (c SymbolCode) String() string {
	if !c.Valid() {
		return "<invalid symbol_code 0x" + strconv.FormatUint(uint64(c), 16) + ">"
	}
	return string(c.appendText(nil))
}

func (c SymbolCode) invalid() error {
	return valueErr("symbol_code", "", "raw value 0x"+strconv.FormatUint(uint64(c), 16)+" is not at most 7 letters A-Z")
}

// AppendBinary appends the 8-byte value; an invalid code is an error.
func (c SymbolCode) AppendBinary(b []byte) ([]byte, error) {
	if !c.Valid() {
		return b, c.invalid()
	}
	return AppendUint64(b, uint64(c)), nil
}

// MarshalBinary returns the 8-byte value.
func (c SymbolCode) MarshalBinary() ([]byte, error) { return c.AppendBinary(nil) }

// DecodeBinary reads 8 bytes and checks that they form a valid code.
func (c *SymbolCode) DecodeBinary(d *Decoder) error {
	off := d.Offset()
	v, err := d.Uint64()
	if err != nil {
		return err
	}
	if !SymbolCode(v).Valid() {
		return d.errAt(off, "symbol_code", SymbolCode(v).invalid().Error())
	}
	*c = SymbolCode(v)
	return nil
}

// UnmarshalBinary decodes exactly 8 bytes.
func (c *SymbolCode) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, c) }

// AppendJSON appends the code as a JSON string.
func (c SymbolCode) AppendJSON(b []byte) ([]byte, error) {
	if !c.Valid() {
		return b, c.invalid()
	}
	b = append(b, '"')
	b = c.appendText(b)
	return append(b, '"'), nil
}

// MarshalJSON returns the code as a JSON string.
func (c SymbolCode) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil) }

// DecodeJSON reads a JSON string of at most 7 letters A–Z.
func (c *SymbolCode) DecodeJSON(r *JSONReader) error {
	t, err := r.StringBytes()
	if err != nil {
		return err
	}
	v, err := parseSymbolCode(t)
	if err == nil {
		*c = v
	}
	return err
}

// UnmarshalJSON reads a JSON string of at most 7 letters A–Z.
func (c *SymbolCode) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, c) }

// Symbol is a token symbol: a precision (number of decimals, 0–18) and a code.
// Binary: uint64 little-endian, code << 8 | precision. JSON: "4,WAX"; the
// zero symbol, valid in nodeos, is "0,".
type Symbol struct {
	Precision uint8      // decimal places, 0–18
	Code      SymbolCode // e.g. WAX
}

// ParseSymbol parses "precision,CODE", e.g. "8,WAX"; the code may be empty
// ("0,"). As nodeos, it takes white space around the symbol, a sign and
// leading zeros in the precision.
func ParseSymbol(s string) (Symbol, error) { return parseSymbol([]byte(s)) }

// MustSymbol parses a symbol known to be valid, such as a constant
// ("4,SYS"); it panics otherwise. Generated code never calls it.
func MustSymbol(s string) Symbol {
	sym, err := ParseSymbol(s)
	if err != nil {
		panic(err)
	}
	return sym
}

func parseSymbol(s []byte) (Symbol, error) {
	bad := func(msg string) (Symbol, error) { return Symbol{}, valueErr("symbol", string(s), msg) }
	// nodeos trims white space (boost::trim) and reads the precision with
	// boost::lexical_cast<int64_t>: a sign and leading zeros are fine.
	i, end := 0, len(s)
	for i < end && isCSpace(s[i]) {
		i++
	}
	for end > i && isCSpace(s[end-1]) {
		end--
	}
	neg := false
	if i < end && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	p, digits := 0, 0
	for ; i < end && s[i] >= '0' && s[i] <= '9'; i++ {
		digits++
		if p = p*10 + int(s[i]-'0'); p > MaxPrecision {
			// nodeos casts the precision to uint8, so "260,A" would be
			// precision 4 to it: refused here rather than wrapped.
			return bad("precision above 18")
		}
	}
	if digits == 0 || i == end || s[i] != ',' {
		return bad(`expected "precision,CODE"`)
	}
	if neg && p != 0 { // nodeos's uint8 cast makes it above 18 (or wraps)
		return bad("negative precision")
	}
	code, err := parseSymbolCode(s[i+1 : end])
	if err != nil {
		return bad("code must be at most 7 letters A-Z")
	}
	return Symbol{Precision: uint8(p), Code: code}, nil
}

// Valid reports whether the precision is at most 18 and the code is valid.
func (s Symbol) Valid() bool { return s.Precision <= MaxPrecision && s.Code.Valid() }

func (s Symbol) check() error {
	if s.Precision > MaxPrecision {
		return valueErr("symbol", "", "precision "+strconv.Itoa(int(s.Precision))+" is above 18")
	}
	if !s.Code.Valid() {
		return s.Code.invalid()
	}
	return nil
}

// Uint64 returns the symbol's packed value, code << 8 | precision.
func (s Symbol) Uint64() uint64 { return uint64(s.Code)<<8 | uint64(s.Precision) }

func (s Symbol) appendText(b []byte) []byte {
	b = strconv.AppendUint(b, uint64(s.Precision), 10)
	b = append(b, ',')
	return s.Code.appendText(b)
}

// String returns "precision,CODE".
func (s Symbol) String() string { return string(s.appendText(nil)) }

// AppendBinary appends the packed 8-byte value; an invalid symbol is an error.
func (s Symbol) AppendBinary(b []byte) ([]byte, error) {
	if err := s.check(); err != nil {
		return b, err
	}
	return AppendUint64(b, s.Uint64()), nil
}

// MarshalBinary returns the packed 8-byte value.
func (s Symbol) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// DecodeBinary reads 8 bytes and checks that they form a valid symbol, as
// nodeos does when it unpacks one.
func (s *Symbol) DecodeBinary(d *Decoder) error {
	off := d.Offset()
	v, err := d.Uint64()
	if err != nil {
		return err
	}
	sym := Symbol{Precision: uint8(v), Code: SymbolCode(v >> 8)}
	if err := sym.check(); err != nil {
		return d.errAt(off, "symbol", err.Error())
	}
	*s = sym
	return nil
}

// UnmarshalBinary decodes exactly 8 bytes.
func (s *Symbol) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, s) }

// AppendJSON appends "precision,CODE".
func (s Symbol) AppendJSON(b []byte) ([]byte, error) {
	if err := s.check(); err != nil {
		return b, err
	}
	b = append(b, '"')
	b = s.appendText(b)
	return append(b, '"'), nil
}

// MarshalJSON returns "precision,CODE".
func (s Symbol) MarshalJSON() ([]byte, error) { return s.AppendJSON(nil) }

// DecodeJSON reads "precision,CODE".
func (s *Symbol) DecodeJSON(r *JSONReader) error {
	t, err := r.StringBytes()
	if err != nil {
		return err
	}
	v, err := parseSymbol(t)
	if err == nil {
		*s = v
	}
	return err
}

// UnmarshalJSON reads "precision,CODE".
func (s *Symbol) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, s) }
