package antelope

import (
	"encoding/binary"
	"math"
	"strconv"
)

// Decoder reads the binary encoding of Antelope values from a byte slice. It
// never reads past the end of its input and never panics; every method
// returns a *DecodeError for input that is short or not canonical.
type Decoder struct {
	data  []byte
	pos   int
	depth int
	// maxElems and maxBytes replace MaxArrayElements and MaxBytesLength
	// when set (SetLimits); zero keeps the defaults.
	maxElems, maxBytes int
}

// NewDecoder returns a Decoder reading data.
func NewDecoder(data []byte) *Decoder { return &Decoder{data: data} }

// Reset makes d read data from the start, so that one Decoder can be reused.
// Limits set with SetLimits are kept.
func (d *Decoder) Reset(data []byte) {
	*d = Decoder{data: data, maxElems: d.maxElems, maxBytes: d.maxBytes}
}

// DecodeLimits are a Decoder's caps on one array's element count and one
// bytes or string value's length.
type DecodeLimits struct {
	MaxArrayElements int // 0: MaxArrayElements
	MaxBytesLength   int // 0: MaxBytesLength
}

// SetLimits replaces nodeos's caps (MaxArrayElements, MaxBytesLength) for
// this Decoder only. It exists for off-chain protocols whose envelopes
// legitimately exceed them, such as state history, whose first block can
// carry gigabytes of chain state in one bytes value; contract data never
// needs it. Every length is still checked against the input left before
// anything is allocated, so the caller bounds memory by bounding the input
// (the ship package's message-size cap).
func (d *Decoder) SetLimits(l DecodeLimits) {
	d.maxElems, d.maxBytes = l.MaxArrayElements, l.MaxBytesLength
}

func (d *Decoder) elemLimit() int {
	if d.maxElems > 0 {
		return d.maxElems
	}
	return MaxArrayElements
}

func (d *Decoder) bytesLimit() int {
	if d.maxBytes > 0 {
		return d.maxBytes
	}
	return MaxBytesLength
}

// Offset is the number of bytes consumed so far.
func (d *Decoder) Offset() int { return d.pos }

// Remaining is the number of bytes not yet consumed.
func (d *Decoder) Remaining() int { return len(d.data) - d.pos }

// Finish reports an error when input remains: a value was followed by bytes
// that are not part of it.
func (d *Decoder) Finish() error {
	if d.pos != len(d.data) {
		return d.errAt(d.pos, "end of input", strconv.Itoa(len(d.data)-d.pos)+" unexpected trailing bytes")
	}
	return nil
}

// Error returns a DecodeError at the current offset. Generated code uses it
// for failures it detects itself, such as an unknown variant index.
func (d *Decoder) Error(what, msg string) error { return d.errAt(d.pos, what, msg) }

func (d *Decoder) errAt(off int, what, msg string) error {
	return &DecodeError{Offset: off, What: what, Msg: msg}
}

func (d *Decoder) short(what string, need int) error {
	return d.errAt(d.pos, what, "need "+strconv.Itoa(need)+" bytes, have "+strconv.Itoa(len(d.data)-d.pos))
}

// Enter marks the start of a nested struct or variant. It fails beyond
// MaxDepth levels; every successful Enter must be paired with Leave.
func (d *Decoder) Enter(what string) error {
	if d.depth >= MaxDepth {
		return d.errAt(d.pos, what, "nesting deeper than "+strconv.Itoa(MaxDepth)+" levels")
	}
	d.depth++
	return nil
}

// Leave marks the end of a nested struct or variant.
func (d *Decoder) Leave() { d.depth-- }

// Raw consumes n bytes and returns them without copying; the result aliases
// the input.
func (d *Decoder) Raw(what string, n int) ([]byte, error) {
	if n < 0 || n > len(d.data)-d.pos {
		return nil, d.short(what, n)
	}
	b := d.data[d.pos : d.pos+n : d.pos+n]
	d.pos += n
	return b, nil
}

// Bool reads a bool. Only 0 and 1 are accepted: any other byte is not what a
// contract writes and would not re-encode to itself.
func (d *Decoder) Bool() (bool, error) {
	if d.pos >= len(d.data) {
		return false, d.short("bool", 1)
	}
	switch d.data[d.pos] {
	case 0:
		d.pos++
		return false, nil
	case 1:
		d.pos++
		return true, nil
	}
	return false, d.errAt(d.pos, "bool", "byte "+strconv.Itoa(int(d.data[d.pos]))+" is neither 0 nor 1")
}

// OptionalFlag reads the presence byte of an optional value (0 or 1).
func (d *Decoder) OptionalFlag() (bool, error) {
	if d.pos >= len(d.data) {
		return false, d.short("optional flag", 1)
	}
	switch d.data[d.pos] {
	case 0:
		d.pos++
		return false, nil
	case 1:
		d.pos++
		return true, nil
	}
	return false, d.errAt(d.pos, "optional flag", "byte "+strconv.Itoa(int(d.data[d.pos]))+" is neither 0 nor 1")
}

// Uint8 reads one byte.
func (d *Decoder) Uint8() (uint8, error) {
	if d.pos >= len(d.data) {
		return 0, d.short("uint8", 1)
	}
	v := d.data[d.pos]
	d.pos++
	return v, nil
}

// Int8 reads one byte as a signed integer.
func (d *Decoder) Int8() (int8, error) {
	if d.pos >= len(d.data) {
		return 0, d.short("int8", 1)
	}
	v := d.data[d.pos]
	d.pos++
	return int8(v), nil
}

func (d *Decoder) fixed(what string, n int) ([]byte, error) {
	if n > len(d.data)-d.pos {
		return nil, d.short(what, n)
	}
	b := d.data[d.pos : d.pos+n]
	d.pos += n
	return b, nil
}

// Uint16 reads 2 bytes little-endian.
func (d *Decoder) Uint16() (uint16, error) {
	if len(d.data)-d.pos < 2 {
		return 0, d.short("uint16", 2)
	}
	v := binary.LittleEndian.Uint16(d.data[d.pos:])
	d.pos += 2
	return v, nil
}

// Int16 reads 2 bytes little-endian.
func (d *Decoder) Int16() (int16, error) {
	if len(d.data)-d.pos < 2 {
		return 0, d.short("int16", 2)
	}
	v := int16(binary.LittleEndian.Uint16(d.data[d.pos:]))
	d.pos += 2
	return v, nil
}

// Uint32 reads 4 bytes little-endian.
func (d *Decoder) Uint32() (uint32, error) {
	if len(d.data)-d.pos < 4 {
		return 0, d.short("uint32", 4)
	}
	v := binary.LittleEndian.Uint32(d.data[d.pos:])
	d.pos += 4
	return v, nil
}

// Int32 reads 4 bytes little-endian.
func (d *Decoder) Int32() (int32, error) {
	if len(d.data)-d.pos < 4 {
		return 0, d.short("int32", 4)
	}
	v := int32(binary.LittleEndian.Uint32(d.data[d.pos:]))
	d.pos += 4
	return v, nil
}

// Uint64 reads 8 bytes little-endian.
func (d *Decoder) Uint64() (uint64, error) {
	if len(d.data)-d.pos < 8 {
		return 0, d.short("uint64", 8)
	}
	v := binary.LittleEndian.Uint64(d.data[d.pos:])
	d.pos += 8
	return v, nil
}

// Int64 reads 8 bytes little-endian.
func (d *Decoder) Int64() (int64, error) {
	if len(d.data)-d.pos < 8 {
		return 0, d.short("int64", 8)
	}
	v := int64(binary.LittleEndian.Uint64(d.data[d.pos:]))
	d.pos += 8
	return v, nil
}

// Float32 reads an IEEE-754 binary32.
func (d *Decoder) Float32() (float32, error) {
	b, err := d.fixed("float32", 4)
	if err != nil {
		return 0, err
	}
	return math.Float32frombits(binary.LittleEndian.Uint32(b)), nil
}

// Float64 reads an IEEE-754 binary64.
func (d *Decoder) Float64() (float64, error) {
	b, err := d.fixed("float64", 8)
	if err != nil {
		return 0, err
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b)), nil
}

// VarUint32 reads an unsigned LEB128 integer. More than 5 bytes, a value above
// 2^32-1, or a redundant trailing zero group (a non-canonical encoding) is an
// error.
func (d *Decoder) VarUint32() (uint32, error) { return d.varuint32("varuint32", false) }

// varuint32 reads a varuint32 for what; isLength marks it as the length
// prefix of what. The label is only built on error, to keep the hot path
// free of allocations.
func (d *Decoder) varuint32(what string, isLength bool) (uint32, error) {
	// One byte is the common case (lengths and indexes under 128) and is
	// always canonical.
	if d.pos < len(d.data) && d.data[d.pos] < 0x80 {
		c := d.data[d.pos]
		d.pos++
		return uint32(c), nil
	}
	return d.varuint32Long(what, isLength)
}

func (d *Decoder) varuint32Long(what string, isLength bool) (uint32, error) {
	start := d.pos
	fail := func(msg string) (uint32, error) {
		if isLength {
			what += " length"
		}
		return 0, d.errAt(start, what, msg)
	}
	var v uint64
	for i := 0; i < 5; i++ {
		if d.pos >= len(d.data) {
			return fail("input ends inside a varuint32")
		}
		c := d.data[d.pos]
		d.pos++
		v |= uint64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			if c == 0 && i > 0 {
				return fail("varuint32 has a redundant trailing zero byte")
			}
			if v > math.MaxUint32 {
				return fail("varuint32 exceeds 2^32-1")
			}
			return uint32(v), nil
		}
	}
	return fail("varuint32 longer than 5 bytes")
}

// VarInt32 reads a zigzag-encoded signed LEB128 integer.
func (d *Decoder) VarInt32() (int32, error) {
	u, err := d.varuint32("varint32", false)
	return int32(u>>1) ^ -int32(u&1), err
}

// Length reads an array element count and checks it against the input: each
// element takes at least minElemSize bytes, so a count the remaining input
// cannot hold is rejected before the caller allocates anything.
func (d *Decoder) Length(what string, minElemSize int) (int, error) {
	start := d.pos
	n, err := d.varuint32(what, true)
	if err != nil {
		return 0, err
	}
	if uint64(n) > uint64(d.elemLimit()) {
		return 0, d.errAt(start, what+" length", strconv.FormatUint(uint64(n), 10)+" elements exceed the limit of "+strconv.Itoa(d.elemLimit()))
	}
	if minElemSize > 0 && uint64(n)*uint64(minElemSize) > uint64(len(d.data)-d.pos) {
		return 0, d.errAt(start, what+" length", strconv.FormatUint(uint64(n), 10)+" elements cannot fit in the "+strconv.Itoa(len(d.data)-d.pos)+" bytes left")
	}
	return int(n), nil
}

// ByteSlice reads a varuint32 length and that many bytes, without copying.
func (d *Decoder) ByteSlice(what string) ([]byte, error) {
	start := d.pos
	n, err := d.varuint32(what, true)
	if err != nil {
		return nil, err
	}
	if uint64(n) > uint64(d.bytesLimit()) {
		return nil, d.errAt(start, what, "length "+strconv.FormatUint(uint64(n), 10)+" exceeds the limit of "+strconv.Itoa(d.bytesLimit()))
	}
	if uint64(n) > uint64(len(d.data)-d.pos) {
		return nil, d.errAt(start, what, "length "+strconv.FormatUint(uint64(n), 10)+" exceeds the "+strconv.Itoa(len(d.data)-d.pos)+" bytes left")
	}
	b := d.data[d.pos : d.pos+int(n) : d.pos+int(n)]
	d.pos += int(n)
	return b, nil
}

// Bytes reads bytes (varuint32 length + data) into a new slice.
func (d *Decoder) Bytes() ([]byte, error) {
	b, err := d.ByteSlice("bytes")
	if err != nil {
		return nil, err
	}
	return append([]byte{}, b...), nil
}

// String reads a string (varuint32 length + bytes). The bytes are not checked
// for UTF-8, as on the chain.
func (d *Decoder) String() (string, error) {
	b, err := d.ByteSlice("string")
	return string(b), err
}
