package antelope

import "strconv"

func itoa(i int) string { return strconv.Itoa(i) }

// Bytes is a byte string. Binary: varuint32 length, then the bytes. JSON:
// lowercase hex (nodeos); input in either case. Generated code uses []byte
// with AppendBytes/AppendHexJSON and Decoder.Bytes/JSONReader.Bytes; Bytes is
// for code that wants the codecs as methods.
type Bytes []byte

// String returns lowercase hex.
func (v Bytes) String() string { return string(appendHex(nil, v)) }

// AppendBinary appends the length and the bytes.
func (v Bytes) AppendBinary(b []byte) ([]byte, error) { return AppendBytes(b, v) }

// MarshalBinary returns the length and the bytes.
func (v Bytes) MarshalBinary() ([]byte, error) { return v.AppendBinary(nil) }

// DecodeBinary reads a length and that many bytes, copying them.
func (v *Bytes) DecodeBinary(d *Decoder) error {
	b, err := d.Bytes()
	if err == nil {
		*v = b
	}
	return err
}

// UnmarshalBinary decodes exactly one bytes value.
func (v *Bytes) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, v) }

// AppendJSON appends lowercase hex, quoted.
func (v Bytes) AppendJSON(b []byte) ([]byte, error) { return AppendHexJSON(b, v), nil }

// MarshalJSON returns lowercase hex, quoted.
func (v Bytes) MarshalJSON() ([]byte, error) { return v.AppendJSON(nil) }

// DecodeJSON reads a hex string.
func (v *Bytes) DecodeJSON(r *JSONReader) error {
	b, err := r.Bytes()
	if err == nil {
		*v = b
	}
	return err
}

// UnmarshalJSON reads a hex string.
func (v *Bytes) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, v) }

// VarUint32 is an unsigned 32-bit integer in LEB128 form. Binary: 1 to 5
// bytes, 7 bits each, low group first. JSON: a number.
type VarUint32 uint32

// AppendBinary appends the LEB128 encoding.
func (v VarUint32) AppendBinary(b []byte) ([]byte, error) { return AppendVarUint32(b, uint32(v)), nil }

// MarshalBinary returns the LEB128 encoding.
func (v VarUint32) MarshalBinary() ([]byte, error) { return v.AppendBinary(nil) }

// DecodeBinary reads a canonical LEB128 encoding of at most 5 bytes.
func (v *VarUint32) DecodeBinary(d *Decoder) error {
	u, err := d.VarUint32()
	*v = VarUint32(u)
	return err
}

// UnmarshalBinary decodes exactly one varuint32.
func (v *VarUint32) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, v) }

// AppendJSON appends a number.
func (v VarUint32) AppendJSON(b []byte) ([]byte, error) { return AppendUintJSON(b, uint64(v)), nil }

// MarshalJSON returns a number.
func (v VarUint32) MarshalJSON() ([]byte, error) { return v.AppendJSON(nil) }

// DecodeJSON reads 0 to 2^32−1, as a number or a string.
func (v *VarUint32) DecodeJSON(r *JSONReader) error {
	u, err := r.unsigned("varuint32", 32)
	if err == nil {
		*v = VarUint32(u)
	}
	return err
}

// UnmarshalJSON reads 0 to 2^32−1.
func (v *VarUint32) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, v) }

// VarInt32 is a signed 32-bit integer, zigzag-mapped to unsigned and then
// LEB128-encoded (0→00, -1→01, 1→02). JSON: a number.
type VarInt32 int32

// AppendBinary appends the zigzag LEB128 encoding.
func (v VarInt32) AppendBinary(b []byte) ([]byte, error) { return AppendVarInt32(b, int32(v)), nil }

// MarshalBinary returns the zigzag LEB128 encoding.
func (v VarInt32) MarshalBinary() ([]byte, error) { return v.AppendBinary(nil) }

// DecodeBinary reads a zigzag LEB128 encoding.
func (v *VarInt32) DecodeBinary(d *Decoder) error {
	i, err := d.VarInt32()
	*v = VarInt32(i)
	return err
}

// UnmarshalBinary decodes exactly one varint32.
func (v *VarInt32) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, v) }

// AppendJSON appends a number.
func (v VarInt32) AppendJSON(b []byte) ([]byte, error) { return AppendIntJSON(b, int64(v)), nil }

// MarshalJSON returns a number.
func (v VarInt32) MarshalJSON() ([]byte, error) { return v.AppendJSON(nil) }

// DecodeJSON reads −2^31 to 2^31−1, as a number or a string.
func (v *VarInt32) DecodeJSON(r *JSONReader) error {
	i, err := r.signed("varint32", 32)
	if err == nil {
		*v = VarInt32(i)
	}
	return err
}

// UnmarshalJSON reads −2^31 to 2^31−1.
func (v *VarInt32) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, v) }
