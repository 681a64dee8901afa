package antelope

// The interfaces every named type of this package and of generated packages
// implements, beside the standard encoding and json ones. They let one value
// be encoded into, or decoded from, the middle of a larger one.

// BinaryAppender appends the binary encoding of a value (encoding.BinaryAppender).
type BinaryAppender interface {
	AppendBinary(b []byte) ([]byte, error)
}

// BinaryDecodable decodes a value from a Decoder positioned at it.
type BinaryDecodable interface {
	DecodeBinary(d *Decoder) error
}

// JSONAppender appends the JSON of a value.
type JSONAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// JSONDecodable decodes a value from a JSONReader positioned at it.
type JSONDecodable interface {
	DecodeJSON(r *JSONReader) error
}

// UnmarshalBinary decodes data, which must hold exactly one value, into v.
func UnmarshalBinary(data []byte, v BinaryDecodable) error {
	d := Decoder{data: data}
	if err := v.DecodeBinary(&d); err != nil {
		return err
	}
	return d.Finish()
}

// UnmarshalJSON decodes one JSON value into v.
func UnmarshalJSON(data []byte, v JSONDecodable) error {
	r := JSONReader{data: data}
	if err := v.DecodeJSON(&r); err != nil {
		return err
	}
	return r.Finish()
}

// Value is implemented by every struct, variant and payload type of a
// generated package: its binary and JSON codecs, and the standard
// encoding.Binary(Un)Marshaler and json.(Un)Marshaler methods. A generated
// package's NewValue returns one by ABI type name.
type Value interface {
	BinaryAppender
	BinaryDecodable
	JSONAppender
	JSONDecodable
	MarshalBinary() ([]byte, error)
	UnmarshalBinary(data []byte) error
	MarshalJSON() ([]byte, error)
	UnmarshalJSON(data []byte) error
}
