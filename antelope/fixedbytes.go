package antelope

// Fixed-size byte values: checksums and float128. Binary: the raw bytes, no
// length prefix. JSON: lowercase hex (float128 with nodeos's "0x" prefix);
// input takes either case and must have exactly the right length.

// Checksum160 is a 20-byte hash (RIPEMD-160).
type Checksum160 [20]byte

// Checksum256 is a 32-byte hash (SHA-256), e.g. a transaction ID.
type Checksum256 [32]byte

// Checksum512 is a 64-byte hash (SHA-512).
type Checksum512 [64]byte

// Float128 is an IEEE-754 binary128 kept as its 16 raw little-endian bytes;
// Go has no arithmetic for it. JSON: "0x" followed by 32 lowercase hex digits
// of those bytes (nodeos); input also without "0x" and in upper case (abieos).
type Float128 [16]byte

func decodeFixed(d *Decoder, what string, dst []byte) error {
	b, err := d.fixed(what, len(dst))
	if err == nil {
		copy(dst, b)
	}
	return err
}

func decodeFixedHexJSON(r *JSONReader, typ string, dst []byte, allow0x bool) error {
	t, err := r.StringBytes()
	if err != nil {
		return err
	}
	if allow0x && len(t) >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') {
		t = t[2:]
	}
	if len(t) != 2*len(dst) {
		return valueErr(typ, string(t), "hex string must have exactly "+itoa(2*len(dst))+" digits")
	}
	if _, err := decodeHex(typ, t, dst[:0]); err != nil {
		return err
	}
	return nil
}

// Hex strings, lowercase.

// String returns the lowercase hex form.
func (c Checksum160) String() string { return string(appendHex(nil, c[:])) }

// String returns the lowercase hex form.
func (c Checksum256) String() string { return string(appendHex(nil, c[:])) }

// String returns the lowercase hex form.
func (c Checksum512) String() string { return string(appendHex(nil, c[:])) }

// String returns "0x" and the 16 bytes in lowercase hex, as nodeos prints it.
func (f Float128) String() string { return "0x" + string(appendHex(nil, f[:])) }

// AppendBinary appends the 20 raw bytes.
func (c Checksum160) AppendBinary(b []byte) ([]byte, error) { return append(b, c[:]...), nil }

// MarshalBinary returns the 20 raw bytes.
func (c Checksum160) MarshalBinary() ([]byte, error) { return c.AppendBinary(nil) }

// DecodeBinary reads 20 bytes.
func (c *Checksum160) DecodeBinary(d *Decoder) error { return decodeFixed(d, "checksum160", c[:]) }

// UnmarshalBinary decodes exactly 20 bytes.
func (c *Checksum160) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, c) }

// AppendJSON appends 40 lowercase hex digits, quoted.
func (c Checksum160) AppendJSON(b []byte) ([]byte, error) { return AppendHexJSON(b, c[:]), nil }

// MarshalJSON returns 40 lowercase hex digits, quoted.
func (c Checksum160) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil) }

// DecodeJSON reads exactly 40 hex digits.
func (c *Checksum160) DecodeJSON(r *JSONReader) error {
	return decodeFixedHexJSON(r, "checksum160", c[:], false)
}

// UnmarshalJSON reads exactly 40 hex digits.
func (c *Checksum160) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, c) }

// AppendBinary appends the 32 raw bytes.
func (c Checksum256) AppendBinary(b []byte) ([]byte, error) { return append(b, c[:]...), nil }

// MarshalBinary returns the 32 raw bytes.
func (c Checksum256) MarshalBinary() ([]byte, error) { return c.AppendBinary(nil) }

// DecodeBinary reads 32 bytes.
func (c *Checksum256) DecodeBinary(d *Decoder) error { return decodeFixed(d, "checksum256", c[:]) }

// UnmarshalBinary decodes exactly 32 bytes.
func (c *Checksum256) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, c) }

// AppendJSON appends 64 lowercase hex digits, quoted.
func (c Checksum256) AppendJSON(b []byte) ([]byte, error) { return AppendHexJSON(b, c[:]), nil }

// MarshalJSON returns 64 lowercase hex digits, quoted.
func (c Checksum256) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil) }

// DecodeJSON reads exactly 64 hex digits.
func (c *Checksum256) DecodeJSON(r *JSONReader) error {
	return decodeFixedHexJSON(r, "checksum256", c[:], false)
}

// UnmarshalJSON reads exactly 64 hex digits.
func (c *Checksum256) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, c) }

// AppendBinary appends the 64 raw bytes.
func (c Checksum512) AppendBinary(b []byte) ([]byte, error) { return append(b, c[:]...), nil }

// MarshalBinary returns the 64 raw bytes.
func (c Checksum512) MarshalBinary() ([]byte, error) { return c.AppendBinary(nil) }

// DecodeBinary reads 64 bytes.
func (c *Checksum512) DecodeBinary(d *Decoder) error { return decodeFixed(d, "checksum512", c[:]) }

// UnmarshalBinary decodes exactly 64 bytes.
func (c *Checksum512) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, c) }

// AppendJSON appends 128 lowercase hex digits, quoted.
func (c Checksum512) AppendJSON(b []byte) ([]byte, error) { return AppendHexJSON(b, c[:]), nil }

// MarshalJSON returns 128 lowercase hex digits, quoted.
func (c Checksum512) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil) }

// DecodeJSON reads exactly 128 hex digits.
func (c *Checksum512) DecodeJSON(r *JSONReader) error {
	return decodeFixedHexJSON(r, "checksum512", c[:], false)
}

// UnmarshalJSON reads exactly 128 hex digits.
func (c *Checksum512) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, c) }

// AppendBinary appends the 16 raw bytes.
func (f Float128) AppendBinary(b []byte) ([]byte, error) { return append(b, f[:]...), nil }

// MarshalBinary returns the 16 raw bytes.
func (f Float128) MarshalBinary() ([]byte, error) { return f.AppendBinary(nil) }

// DecodeBinary reads 16 bytes.
func (f *Float128) DecodeBinary(d *Decoder) error { return decodeFixed(d, "float128", f[:]) }

// UnmarshalBinary decodes exactly 16 bytes.
func (f *Float128) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, f) }

// AppendJSON appends "0x" and 32 lowercase hex digits, quoted.
func (f Float128) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, '"', '0', 'x')
	b = appendHex(b, f[:])
	return append(b, '"'), nil
}

// MarshalJSON returns "0x" and 32 lowercase hex digits, quoted.
func (f Float128) MarshalJSON() ([]byte, error) { return f.AppendJSON(nil) }

// DecodeJSON reads 32 hex digits, with or without "0x".
func (f *Float128) DecodeJSON(r *JSONReader) error {
	return decodeFixedHexJSON(r, "float128", f[:], true)
}

// UnmarshalJSON reads 32 hex digits, with or without "0x".
func (f *Float128) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, f) }

// ParseChecksum256 parses 64 hex digits: a chain id, a block id, a
// transaction id.
func ParseChecksum256(s string) (Checksum256, error) {
	var c Checksum256
	if len(s) != 64 {
		return c, valueErr("checksum256", s, "expected 64 hex digits")
	}
	_, err := decodeHex("checksum256", []byte(s), c[:0])
	return c, err
}
