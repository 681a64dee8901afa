package antelope

import (
	"encoding/binary"
	"math"
)

// Append functions for the built-in types that generated code keeps as plain
// Go types. All integers are little-endian, as on the chain.

// AppendBool appends a bool: one byte, 0 or 1.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// AppendUint8 appends a uint8: one byte.
func AppendUint8(b []byte, v uint8) []byte { return append(b, v) }

// AppendInt8 appends an int8: one byte, two's complement.
func AppendInt8(b []byte, v int8) []byte { return append(b, byte(v)) }

// AppendUint16 appends a uint16: 2 bytes little-endian.
func AppendUint16(b []byte, v uint16) []byte { return binary.LittleEndian.AppendUint16(b, v) }

// AppendInt16 appends an int16: 2 bytes little-endian.
func AppendInt16(b []byte, v int16) []byte { return binary.LittleEndian.AppendUint16(b, uint16(v)) }

// AppendUint32 appends a uint32: 4 bytes little-endian.
func AppendUint32(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }

// AppendInt32 appends an int32: 4 bytes little-endian.
func AppendInt32(b []byte, v int32) []byte { return binary.LittleEndian.AppendUint32(b, uint32(v)) }

// AppendUint64 appends a uint64: 8 bytes little-endian.
func AppendUint64(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }

// AppendInt64 appends an int64: 8 bytes little-endian.
func AppendInt64(b []byte, v int64) []byte { return binary.LittleEndian.AppendUint64(b, uint64(v)) }

// AppendFloat32 appends a float32: IEEE-754 binary32, little-endian.
func AppendFloat32(b []byte, v float32) []byte {
	return binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
}

// AppendFloat64 appends a float64: IEEE-754 binary64, little-endian.
func AppendFloat64(b []byte, v float64) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}

// AppendVarUint32 appends an unsigned LEB128 integer of 1 to 5 bytes.
func AppendVarUint32(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// AppendVarInt32 appends a zigzag-encoded signed LEB128 integer.
func AppendVarInt32(b []byte, v int32) []byte {
	return AppendVarUint32(b, uint32(v<<1)^uint32(v>>31))
}

// AppendLength appends an array count or byte length as a varuint32. It fails
// for lengths that a varuint32 cannot hold, rather than wrapping.
func AppendLength(b []byte, n int) ([]byte, error) {
	if uint64(n) > math.MaxUint32 {
		return b, valueErr("length", "", "more than 2^32-1 elements cannot be encoded")
	}
	return AppendVarUint32(b, uint32(n)), nil
}

// AppendString appends a string: varuint32 byte length, then the bytes.
func AppendString(b []byte, s string) ([]byte, error) {
	b, err := AppendLength(b, len(s))
	return append(b, s...), err
}

// AppendBytes appends bytes: varuint32 length, then the bytes.
func AppendBytes(b []byte, v []byte) ([]byte, error) {
	b, err := AppendLength(b, len(v))
	return append(b, v...), err
}
