package antelope

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"strconv"
)

// JSON input for the built-ins that generated code keeps as plain Go types.
// Integers and floats are accepted as JSON numbers or as strings holding one,
// as nodeos, abieos and wharfkit all write some of them as strings.

// Bool reads a bool: true/false, 1/0, or any of those as a string (nodeos
// prints bools as 1/0).
func (r *JSONReader) Bool() (bool, error) {
	switch r.Peek() {
	case JSONBool:
		if r.literal("true") {
			return true, nil
		}
		if r.literal("false") {
			return false, nil
		}
		return false, r.errorf("invalid literal")
	case JSONNumber, JSONString:
		t, _, err := r.Scalar("a bool")
		if err != nil {
			return false, err
		}
		switch string(t) {
		case "1", "true":
			return true, nil
		case "0", "false":
			return false, nil
		}
		return false, valueErr("bool", string(t), "expected true, false, 1 or 0")
	}
	return false, r.unexpected("a bool")
}

func (r *JSONReader) signed(typ string, bits int) (int64, error) {
	t, _, err := r.Scalar("an integer")
	if err != nil {
		return 0, err
	}
	return parseSignedText(typ, bits, t)
}

func (r *JSONReader) unsigned(typ string, bits int) (uint64, error) {
	t, _, err := r.Scalar("an integer")
	if err != nil {
		return 0, err
	}
	return parseUnsignedText(typ, bits, t)
}

// parseSignedText reads the text of a signed integer of the given bits, as a
// JSON number or the content of a JSON string.
func parseSignedText(typ string, bits int, t []byte) (int64, error) {
	// The usual text, a '-' and up to 20 digits in range, is read here;
	// anything else by strconv, whose answer and errors it would give.
	digits := t
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if u, ok := parseShortDecimal(digits); ok {
		limit := uint64(1) << (bits - 1) // the magnitude of the most negative value
		if len(digits) < len(t) && u <= limit {
			return -int64(u), nil
		}
		if len(digits) == len(t) && u < limit {
			return int64(u), nil
		}
	}
	if len(t) > 0 && t[0] == '+' {
		return 0, valueErr(typ, string(t), "not an integer")
	}
	v, err := strconv.ParseInt(string(t), 10, bits)
	if err != nil {
		return 0, intErr(typ, t, err)
	}
	return v, nil
}

// parseUnsignedText reads the text of an unsigned integer of the given bits,
// as a JSON number or the content of a JSON string.
func parseUnsignedText(typ string, bits int, t []byte) (uint64, error) {
	// The usual text, up to 20 digits in range, is read here; anything
	// else by strconv, whose answer and errors it would give.
	if v, ok := parseShortDecimal(t); ok && (bits == 64 || v>>bits == 0) {
		return v, nil
	}
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

// parseShortDecimal reads 1 to 20 decimal digits, leading zeros included,
// as strconv does. ok is false for any other text, and for a value beyond
// 2^64-1.
func parseShortDecimal(t []byte) (v uint64, ok bool) {
	if len(t) == 0 || len(t) > 20 {
		return 0, false
	}
	// Eight digits a step for up to 16 (a uint64 id has 20), then one at a
	// time up to 19, which cannot overflow; a 20th one can.
	i := 0
	for ; i < 16 && len(t)-i >= 8; i += 8 {
		d, ok := decimal8(binary.LittleEndian.Uint64(t[i:]))
		if !ok {
			return 0, false
		}
		v = v*1e8 + d
	}
	for ; i < len(t) && i < 19; i++ {
		d := t[i] - '0'
		if d > 9 {
			return 0, false
		}
		v = v*10 + uint64(d)
	}
	if len(t) == 20 {
		d := uint64(t[19] - '0')
		const maxDiv10, maxMod10 = math.MaxUint64 / 10, math.MaxUint64 % 10
		if d > 9 || v > maxDiv10 || v == maxDiv10 && d > maxMod10 {
			return 0, false
		}
		v = v*10 + d
	}
	return v, true
}

// decimal8 reads the 8 decimal digits of x (little-endian: its first digit
// in its low byte) all at once; ok is false unless every byte is a digit.
func decimal8(x uint64) (uint64, bool) {
	const ones = 0x0101010101010101
	// A digit is 0x30-0x39: its high nibble is 3, and adding 6 leaves it 3
	// (no byte can carry into the next one: each is at most 0x39).
	if x&(ones*0xf0) != ones*0x30 || (x+ones*0x06)&(ones*0xf0) != ones*0x30 {
		return 0, false
	}
	return eightDigits(x - ones*'0'), true
}

func intErr(typ string, t []byte, err error) error {
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return valueErr(typ, string(t), "out of range")
	}
	return valueErr(typ, string(t), "not an integer")
}

// Int8 reads an int8.
func (r *JSONReader) Int8() (int8, error) { v, err := r.signed("int8", 8); return int8(v), err }

// Int16 reads an int16.
func (r *JSONReader) Int16() (int16, error) { v, err := r.signed("int16", 16); return int16(v), err }

// Int32 reads an int32.
func (r *JSONReader) Int32() (int32, error) { v, err := r.signed("int32", 32); return int32(v), err }

// Int64 reads an int64.
func (r *JSONReader) Int64() (int64, error) { return r.signed("int64", 64) }

// Uint8 reads a uint8.
func (r *JSONReader) Uint8() (uint8, error) { v, err := r.unsigned("uint8", 8); return uint8(v), err }

// Uint16 reads a uint16.
func (r *JSONReader) Uint16() (uint16, error) {
	v, err := r.unsigned("uint16", 16)
	return uint16(v), err
}

// Uint32 reads a uint32.
func (r *JSONReader) Uint32() (uint32, error) {
	v, err := r.unsigned("uint32", 32)
	return uint32(v), err
}

// Uint64 reads a uint64.
func (r *JSONReader) Uint64() (uint64, error) { return r.unsigned("uint64", 64) }

// quietNaN is the NaN nodeos reads "nan" as (boost::lexical_cast, C++'s
// quiet_NaN()).
const quietNaN = 0x7ff8000000000000

// Float64 reads a float64 from a number or a string. Strings may also spell
// NaN or infinity as nodeos reads them (parseInfNaN): "nan", "-nan", "inf",
// "-inf" (nodeos), "NaN", "Infinity", "-Infinity" (abieos), "+Inf", "-Inf"
// (Go); "nan" is the quiet NaN 0x7ff8000000000000 and "-nan" the same with
// the sign bit, as nodeos reads them.
// A finite value too large for the type is an error.
func (r *JSONReader) Float64() (float64, error) { return r.float("float64", 64) }

// Float32 reads a float32, rounding the decimal text once, directly to
// binary32 (as strtof does).
func (r *JSONReader) Float32() (float32, error) {
	v, err := r.float("float32", 32)
	return float32(v), err
}

func (r *JSONReader) float(typ string, bits int) (float64, error) {
	t, isString, err := r.Scalar("a number")
	if err != nil {
		return 0, err
	}
	if isString {
		if v, ok := parseInfNaN(t); ok {
			return v, nil
		}
		if !isDecimalFloat(t) {
			return 0, valueErr(typ, string(t), "not a number")
		}
	}
	if v, ok := parseExactFloat(t, bits); ok {
		return v, nil
	}
	if len(t) > 32 {
		if v, ok := parseLongFloat(t, bits); ok {
			return v, nil
		}
	}
	v, err := strconv.ParseFloat(string(t), bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange && !math.IsInf(v, 0) {
			return v, nil // underflow to zero or a denormal: not an error
		}
		return 0, valueErr(typ, string(t), "out of range")
	}
	return v, nil
}

// parseInfNaN reads a non-finite float as nodeos does (fc::to_double is
// boost::lexical_cast<double>): an optional sign, then "nan", optionally
// followed by "(…)", or exactly "inf" or "infinity", in any case. NaN is the
// quiet NaN, with the sign bit when the sign is '-'; math.NaN() is another
// NaN (0x7ff8000000000001), whose bytes nodeos would not write.
func parseInfNaN(s []byte) (float64, bool) {
	var sign uint64
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		if s[0] == '-' {
			sign = 1 << 63
		}
		s = s[1:]
	}
	if len(s) < 3 {
		return 0, false
	}
	if bytes.EqualFold(s[:3], []byte("nan")) {
		rest := s[3:]
		if len(rest) > 0 && (len(rest) < 2 || rest[0] != '(' || rest[len(rest)-1] != ')') {
			return 0, false
		}
		return math.Float64frombits(quietNaN | sign), true
	}
	if bytes.EqualFold(s, []byte("inf")) || bytes.EqualFold(s, []byte("infinity")) {
		return math.Float64frombits(0x7ff0000000000000 | sign), true
	}
	return 0, false
}

// isDecimalFloat reports whether s is a plain decimal number, as JSON writes
// one, optionally with a leading '+': strconv.ParseFloat alone would also take
// hex floats, underscores and "infinity".
func isDecimalFloat(s []byte) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		if n == 0 {
			return false
		}
	}
	return i == len(s)
}

// Bytes reads bytes written as a hex string, in either case.
func (r *JSONReader) Bytes() ([]byte, error) {
	if r.Peek() == JSONString {
		if b, end, ok := scanJSONHex(r.data, r.pos+1); ok {
			r.pos = end
			return b, nil
		}
	}
	t, err := r.StringBytes()
	if err != nil {
		return nil, err
	}
	return decodeHex("bytes", t, nil)
}

// scanJSONHex reads, in one pass, the usual bytes string: its text from
// data[i] on, up to 128 hex digits, an even number of them, and the closing
// quote. It returns the bytes, in a slice of their exact size, and the
// offset past the quote. ok is false for anything else (escapes, a bad or
// odd digit, a longer text, no quote), which StringBytes and decodeHex then
// read, with their errors; where ok is true they would give the same bytes
// and end at the same offset (hex digits need no escaping). The text is
// decoded as it is scanned, into a buffer on the stack: scanning it for its
// end first, then decoding it, read it twice.
func scanJSONHex(data []byte, i int) (b []byte, end int, ok bool) {
	var buf [64]byte
	n := 0
	for ; n+8 <= len(buf) && i+16 <= len(data); n, i = n+8, i+16 {
		v, ok := hex16(data[i:])
		if !ok {
			break
		}
		binary.LittleEndian.PutUint64(buf[n:], v)
	}
	for ; n < len(buf) && i+1 < len(data); n, i = n+1, i+2 {
		hi, lo := hexValue[data[i]], hexValue[data[i+1]]
		if hi|lo > 0x0f {
			break
		}
		buf[n] = hi<<4 | lo
	}
	if i >= len(data) || data[i] != '"' {
		return nil, 0, false
	}
	b = make([]byte, n)
	copy(b, buf[:n])
	return b, i + 1, true
}

// decodeHex appends the bytes that the hex text t encodes to dst.
func decodeHex(typ string, t []byte, dst []byte) ([]byte, error) {
	if len(t)%2 != 0 {
		return nil, valueErr(typ, string(t), "odd number of hex digits")
	}
	if dst == nil {
		dst = make([]byte, 0, len(t)/2)
	}
	n := len(dst)
	dst = slices.Grow(dst, len(t)/2)[:n+len(t)/2]
	out := dst[n:]
	// Sixteen digits a step, the last step overlapping the one before it
	// (it writes the same bytes again); 8 to 15 digits in two overlapping
	// steps of eight. A step writes nothing unless all its digits are good:
	// from a bad step on, the byte loop below writes what it always wrote
	// before the error (callers such as ParseChecksum256 decode into the
	// value they return).
	i := 0
	switch {
	case len(out) >= 8:
		for ; i+8 <= len(out); i += 8 {
			v, ok := hex16(t[2*i:])
			if !ok {
				break
			}
			binary.LittleEndian.PutUint64(out[i:], v)
		}
		if i+8 > len(out) && i < len(out) {
			if v, ok := hex16(t[len(t)-16:]); ok {
				binary.LittleEndian.PutUint64(out[len(out)-8:], v)
				i = len(out)
			}
		}
	case len(out) >= 4:
		a, okA := hex8(binary.LittleEndian.Uint64(t))
		b, okB := hex8(binary.LittleEndian.Uint64(t[len(t)-8:]))
		if okA && okB {
			binary.LittleEndian.PutUint32(out, a)
			binary.LittleEndian.PutUint32(out[len(out)-4:], b)
			i = len(out)
		}
	}
	for ; i < len(out); i++ {
		hi, lo := hexValue[t[2*i]], hexValue[t[2*i+1]]
		if hi|lo > 0x0f {
			return nil, valueErr(typ, string(t), "not a hex string")
		}
		out[i] = hi<<4 | lo
	}
	return dst, nil
}

// hex16 decodes the first 16 hex digits of t into 8 bytes (the first one
// low); ok is false unless all are hex digits. It is hex8 twice, written
// out: hex8 is too large to be inlined, and a call per 8 digits cost a
// third of the gain.
func hex16(t []byte) (uint64, bool) {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	x, y := binary.LittleEndian.Uint64(t), binary.LittleEndian.Uint64(t[8:])
	if (x|y)&high != 0 {
		return 0, false
	}
	digitX := (x + ones*(0x80-'0')) &^ (x + ones*(0x80-'9'-1)) & high
	digitY := (y + ones*(0x80-'0')) &^ (y + ones*(0x80-'9'-1)) & high
	lowerX, lowerY := x|ones*0x20, y|ones*0x20
	letterX := (lowerX + ones*(0x80-'a')) &^ (lowerX + ones*(0x80-'f'-1)) & high
	letterY := (lowerY + ones*(0x80-'a')) &^ (lowerY + ones*(0x80-'f'-1)) & high
	if (digitX|letterX)&(digitY|letterY) != high {
		return 0, false
	}
	nx := x&(ones*0x0f) + (letterX>>7)*9
	ny := y&(ones*0x0f) + (letterY>>7)*9
	wx := (nx<<4 | nx>>8) & 0x00ff00ff00ff00ff
	wy := (ny<<4 | ny>>8) & 0x00ff00ff00ff00ff
	wx = (wx | wx>>8) & 0x0000ffff0000ffff
	wy = (wy | wy>>8) & 0x0000ffff0000ffff
	wx = (wx | wx>>16) & 0xffffffff
	wy = (wy | wy>>16) & 0xffffffff
	return wx | wy<<32, true
}

// hex8 decodes the 8 hex digits of x (little-endian: its first digit in its
// low byte) into 4 bytes (the first one low), all eight bytes at once; ok
// is false unless every byte is a hex digit of either case.
func hex8(x uint64) (v uint32, ok bool) {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	if x&high != 0 {
		return 0, false
	}
	// Every byte is below 0x80, so adding up to 0x80 to each carries into
	// no other: a byte's top bit then says whether it reached the bound.
	digit := (x + ones*(0x80-'0')) &^ (x + ones*(0x80-'9'-1)) & high
	lower := x | ones*0x20 // 'A'-'F' as 'a'-'f'; no other byte lands there
	letter := (lower + ones*(0x80-'a')) &^ (lower + ones*(0x80-'f'-1)) & high
	if digit|letter != high {
		return 0, false
	}
	nibbles := x&(ones*0x0f) + (letter>>7)*9 // '0'-'9' → 0-9, 'a'/'A' (1) → 10…
	// Each output byte is its even digit's nibble above its odd one's;
	// then the bytes at even places are packed together.
	w := (nibbles<<4 | nibbles>>8) & 0x00ff00ff00ff00ff
	w = (w | w>>8) & 0x0000ffff0000ffff
	w = (w | w>>16) & 0xffffffff
	return uint32(w), true
}

// hexValue maps a hex digit of either case to its value, anything else to
// 0xff.
var hexValue = func() (t [256]byte) {
	for i := range t {
		v, ok := unhex(byte(i))
		if !ok {
			v = 0xff
		}
		t[i] = v
	}
	return t
}()

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
